import JuiceBook
import JuiceEngine
/// The text of a hover over an id: what it is, its label and price, what
/// an order or a batch of it takes and how many the opening stock makes
/// (both the engine's answers, `Capacity`), or, while the book has errors,
/// what its files say directly.
struct HoverCard {
    let index: WorkspaceIndex
    /// The book, when it has no errors.
    let book: RecipeBook?
    /// Markdown, or plain text.
    let markdown: Bool

    func bold(_ text: String) -> String { markdown ? "**" + Self.escapedMarkdown(text) + "**" : text }
    func plain(_ text: String) -> String { markdown ? Self.escapedMarkdown(text) : text }

    /// The hover's lines for `id`.
    func lines(for id: String) -> [String] {
        guard let definition = index.definitions(of: id).first else {
            return [bold(id) + " is not declared in this book"]
        }
        switch definition.kind {
        case .fruit: return fruitLines(definition)
        case .recipe, .menuItem: return blendLines(definition)
        }
    }

    private func fruitLines(_ definition: WorkspaceIndex.Definition) -> [String] {
        var lines = [bold(definition.id) + " · fruit" + (definition.emoji.map { " " + plain($0) } ?? "")]
        var facts: [String] = []
        if let label = definition.label { facts.append(plain(label)) }
        if let book, let fruit = book.fruitIndex(definition.id) {
            facts.append("opening stock \(book.openingStock[fruit])")
            if let cost = book.fruits[fruit].cost { facts.append("cost \(cost)") }
            if book.fruits[fruit].pack != 1 { facts.append("pack \(book.fruits[fruit].pack)") }
            if let keeps = book.fruits[fruit].keeps { facts.append(Self.keeps(keeps)) }
            if let restock = book.fruits[fruit].restock { facts.append(Self.restock(restock)) }
            let users = Capacity.menuItems(taking: fruit, in: book).map { book.menu[$0].id }
            lines.append(facts.joined(separator: " · "))
            lines.append(usedBy(users))
            if book.declaresSubstitutes { lines += substituteLines(book.fruits[fruit].substitutes.map { (book.fruits[$0.fruit].id, $0.ratio) }, definition) }
        } else {
            // No book while it has errors: say what the files say directly.
            if let stocked = index.references(to: definition.id).first(where: { $0.role == .stock && $0.amount != nil })?.amount {
                facts.append("opening stock \(stocked)")
            }
            if !facts.isEmpty { lines.append(facts.joined(separator: " · ")) }
            let direct = Set(index.references(to: definition.id).filter { $0.role == .ingredient }.compactMap(\.owner)).sorted()
            lines.append("used directly by \(direct.count) recipe(s) and menu item(s); the book has errors, so nested use is not known")
            // As written: a name that is no fruit is already an error.
            let written = index.references.filter { $0.role == .substitute && $0.owner == definition.id }
            lines += substituteLines(written.map { ($0.id, nil) }, definition)
        }
        return lines
    }

    /// A fruit's substitutes in order of preference, each with its ratio
    /// where known (`substitutes frozen-mango 2 for 1, mango-puree 1 for 1`),
    /// and the fruits it stands in for; nothing for a fruit with neither.
    private func substituteLines(_ substitutes: [(id: String, ratio: Int?)], _ definition: WorkspaceIndex.Definition) -> [String] {
        var lines: [String] = []
        if !substitutes.isEmpty {
            lines.append("substitutes " + substitutes.map { plain($0.id) + ($0.ratio.map { " \($0) for 1" } ?? "") }.joined(separator: ", "))
        }
        let standsInFor = index.references(to: definition.id).filter { $0.role == .substitute }.compactMap(\.owner)
        if !standsInFor.isEmpty { lines.append("stands in for " + standsInFor.map(plain).joined(separator: ", ")) }
        return lines
    }

    private func blendLines(_ definition: WorkspaceIndex.Definition) -> [String] {
        let isRecipe = definition.kind == .recipe
        var lines = [bold(definition.id) + " · " + (isRecipe ? "recipe" : "menu item")]
        var facts: [String] = []
        if let label = definition.label { facts.append(plain(label)) }
        if let price = definition.price { facts.append("price \(price)") }
        if !facts.isEmpty { lines.append(facts.joined(separator: " · ")) }
        let component = book.flatMap { book in
            isRecipe ? book.recipeIndex(definition.id).map(RecipeBook.Component.recipe) : book.menuIndex(definition.id).map(RecipeBook.Component.menuItem)
        }
        guard let book, let component, let needs = Capacity.need(of: component, in: book) else {
            lines.append("needs: not known while the book has errors")
            return lines
        }
        let per = isRecipe ? "per batch" : "per order"
        lines.append("needs \(per): " + needs.map { plain(book.fruits[$0.fruit].id) + " \($0.amount)" }.joined(separator: ", "))
        if let money = moneyLine(component, book) { lines.append(money) }
        if case .menuItem(let item) = component, book.keepsServings {
            // Orders plan batches: the count made one after another, leftovers included.
            let row = Capacity.of(book, stock: FruitStore(book: book))[item]
            lines.append("the opening stock makes \(row.count)" + (row.limitingFruit.map { " (limited by \(plain(book.fruits[$0].id)))" } ?? ""))
        } else if let best = Capacity.limit(of: component, in: book, stock: book.openingStock) {
            let unit = isRecipe ? " batch(es)" : ""
            lines.append("the opening stock makes \(best.count)\(unit) (limited by \(plain(book.fruits[best.fruit].id)))")
        }
        return lines
    }

    /// A recipe's yield, shelf life, cost per serving and servings on hand,
    /// or a menu item's cost per serving and margin, where the book says them.
    private func moneyLine(_ component: RecipeBook.Component, _ book: RecipeBook) -> String? {
        var facts: [String] = []
        switch component {
        case .recipe(let recipe):
            if book.recipes[recipe].yield != 1 { facts.append("yield \(book.recipes[recipe].yield)") }
            if let keeps = book.recipes[recipe].keeps { facts.append(Self.keeps(keeps)) }
            if let costs = CostTable(book: book) { facts.append("cost per serving " + costs.recipeCost(recipe).text()) }
            if book.keepsServings { facts.append("\(book.openingServings[recipe]) on hand") }
        case .menuItem(let item):
            guard let costs = CostTable(book: book) else { return nil }
            let cost = costs.menuCost(item)
            facts.append("cost per serving " + cost.text())
            if let price = book.menu[item].price, let cost = cost.money, let margin = Money(price).subtracting(cost) { facts.append("margin \(margin)") }
        case .fruit:
            return nil
        }
        return facts.isEmpty ? nil : facts.joined(separator: " · ")
    }

    /// Shelf life as the planner reads it (docs/planning.md): `keeps 3 days`.
    static func keeps(_ days: Int) -> String {
        "keeps \(days) day" + (days == 1 ? "" : "s")
    }

    /// A fruit's restock in its own words: `restock up-to 40, below 10,
    /// lead 2`; the lead only where it is not the default 0.
    static func restock(_ restock: RecipeBook.Restock) -> String {
        var parts = ["up-to \(restock.upTo)"]
        if let below = restock.below { parts.append("below \(below)") }
        if restock.lead != 0 { parts.append("lead \(restock.lead)") }
        return "restock " + parts.joined(separator: ", ")
    }

    private func usedBy(_ users: [String]) -> String {
        switch users.count {
        case 0: return "used by no menu item"
        case 1: return "used by 1 menu item: " + plain(users[0])
        case ...5: return "used by \(users.count) menu items: " + users.map(plain).joined(separator: ", ")
        default: return "used by \(users.count) menu items: " + users.prefix(5).map(plain).joined(separator: ", ") + ", …"
        }
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
