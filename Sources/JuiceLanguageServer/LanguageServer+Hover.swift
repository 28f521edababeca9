import JuiceSupport
import JuiceSource
import JuiceDiagnostics
import JuiceYAML
import JuiceBook
import JuiceEngine
import JuiceSimulation
import JuiceLint
/// Hover: what an id is, what it needs, and what the opening stock allows.
extension LanguageServer {
    mutating func hover(_ params: Params) throws(ResponseError) -> JSONValue {
        let target = try target(params)
        guard let occurrence = occurrence(at: target) else { return .null }
        let index = books[target.book].index()
        let book = books[target.book].book()
        let markdown = client.markdownHover
        func bold(_ text: String) -> String { markdown ? "**" + Self.escapedMarkdown(text) + "**" : text }
        func plain(_ text: String) -> String { markdown ? Self.escapedMarkdown(text) : text }

        var lines: [String] = []
        guard let definition = index.definitions(of: occurrence.id).first else {
            lines.append(bold(occurrence.id) + " is not declared in this book")
            return hoverResult(lines, range: occurrence.range, markdown: markdown)
        }
        switch definition.kind {
        case .fruit:
            lines.append(bold(definition.id) + " · fruit" + (definition.emoji.map { " " + plain($0) } ?? ""))
            var facts: [String] = []
            if let label = definition.label { facts.append(plain(label)) }
            if let book, let fruit = book.fruitIndex(definition.id) {
                facts.append("opening stock \(book.openingStock[fruit])")
                let users = book.menu.filter { item in item.needs.contains { $0.fruit == fruit } }.map(\.id)
                lines.append(facts.joined(separator: " · "))
                lines.append(Self.usedBy(users, plain: plain))
            } else {
                // No book while it has errors: say what the files say directly.
                if let stocked = index.references(to: definition.id).first(where: { $0.role == .stock && $0.amount != nil })?.amount {
                    facts.append("opening stock \(stocked)")
                }
                if !facts.isEmpty { lines.append(facts.joined(separator: " · ")) }
                let direct = Set(index.references(to: definition.id).compactMap(\.owner)).sorted()
                lines.append("used directly by \(direct.count) recipe(s) and menu item(s); the book has errors, so nested use is not known")
            }
        case .recipe, .menuItem:
            let kind = definition.kind == .recipe ? "recipe" : "menu item"
            lines.append(bold(definition.id) + " · " + kind)
            var facts: [String] = []
            if let label = definition.label { facts.append(plain(label)) }
            if let price = definition.price { facts.append("price \(price)") }
            if !facts.isEmpty { lines.append(facts.joined(separator: " · ")) }
            guard let book, let needs = Self.needs(of: definition, in: book) else {
                lines.append("needs: not known while the book has errors")
                break
            }
            let per = definition.kind == .recipe ? "per batch" : "per order"
            lines.append("needs \(per): " + needs.map { plain(book.fruits[$0.fruit].id) + " \($0.amount)" }.joined(separator: ", "))
            var best: (count: Int, fruit: Int)?
            for need in needs where need.amount > 0 {
                let count = book.openingStock[need.fruit] / need.amount
                if best.map({ count < $0.count }) ?? true { best = (count, need.fruit) }
            }
            if let best {
                let unit = definition.kind == .recipe ? "batch(es)" : ""
                lines.append("the opening stock makes \(best.count)\(unit.isEmpty ? "" : " " + unit) (limited by \(plain(book.fruits[best.fruit].id)))")
            }
        }
        return hoverResult(lines, range: occurrence.range, markdown: markdown)
    }

    /// A recipe's or menu item's flattened need, from the book.
    private static func needs(of definition: WorkspaceIndex.Definition, in book: RecipeBook) -> [RecipeBook.FruitAmount]? {
        switch definition.kind {
        case .recipe: return book.recipeIndex(definition.id).map { book.recipes[$0].needs }
        case .menuItem: return book.menuIndex(definition.id).map { book.menu[$0].needs }
        case .fruit: return nil
        }
    }

    private static func usedBy(_ users: [String], plain: (String) -> String) -> String {
        switch users.count {
        case 0: return "used by no menu item"
        case 1: return "used by 1 menu item: " + plain(users[0])
        case ...5: return "used by \(users.count) menu items: " + users.map(plain).joined(separator: ", ")
        default: return "used by \(users.count) menu items: " + users.prefix(5).map(plain).joined(separator: ", ") + ", …"
        }
    }

    private mutating func hoverResult(_ lines: [String], range: SourceRange, markdown: Bool) -> JSONValue {
        .object([
            ("contents", .object([
                ("kind", .string(markdown ? "markdown" : "plaintext")),
                // Markdown needs a blank line to break a paragraph.
                ("value", .string(lines.joined(separator: markdown ? "\n\n" : "\n"))),
            ])),
            ("range", documents.lspRange(range)),
        ])
    }

    /// Text shown as itself in Markdown: ids and labels may hold `*` or `_`.
    static func escapedMarkdown(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "\\`*_{}[]()#+!<>|~".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
