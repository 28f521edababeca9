@_spi(Internals) import JuiceSupport
import JuiceBook
/// Completion: ids where an ingredient or a stock entry goes, keys where
/// the language allows them.
///
/// Version 2 of the language (docs/recipes.md) adds a fruit's `cost:`,
/// `pack:`, `keeps:`, `restock:` (keys `up-to:`, `below:`, `lead:`) and
/// `substitutes:` (other fruits' ids), a recipe's long form (`recipe:`,
/// `yield:`, `label:`, `keeps:`) and stock naming recipes. A file that says `version: 1` keeps
/// version 1, where each of those is an error, so they are offered only in
/// a file that does not.
extension LanguageServer {
    /// The most items one answer lists; past it the list is filtered by
    /// what is typed and marked incomplete, so the client asks again.
    static let maximumCompletions = 1000

    mutating func completion(_ params: Params) throws(ResponseError) -> JSONValue {
        let target = try target(params)
        guard let context = CompletionContext(text: target.text, offset: target.offset), context.atKey else {
            return Self.completionList([])
        }
        let path = context.path
        let versionTwo = CompletionContext.allowsVersionTwo(target.text)
        let blends: Set<DeclarationKind> = [.fruit, .recipe, .menuItem]
        switch path.count {
        case 0:
            return Self.completionList(keyItems(DeclarationCollector.topLevelKeys, context: context))
        case 2 where path[0] == DeclarationKind.menuItem.section:
            return Self.completionList(keyItems(DeclarationCollector.menuKeys, context: context))
        case 2 where path[0] == DeclarationKind.fruit.section:
            let keys = DeclarationCollector.fruitKeys.filter { versionTwo || !CompletionContext.versionTwoKeys.contains($0) }
            return Self.completionList(keyItems(keys, context: context))
        case 1 where path[0] == BookSection.stock.rawValue:
            // Version 2 stocks servings of a recipe as well as fruits.
            let ids = idItems(target.book, kinds: versionTwo ? [.fruit, .recipe] : [.fruit], leaving: context.siblings, context: context)
            return Self.completionList(ids.items, incomplete: ids.incomplete)
        case 2 where path[0] == DeclarationKind.recipe.section:
            let longForm = !context.siblings.isDisjoint(with: DeclarationCollector.recipeKeys)
            if versionTwo && longForm {
                return Self.completionList(keyItems(DeclarationCollector.recipeKeys, context: context))
            }
            let ids = idItems(target.book, kinds: blends, leaving: context.siblings.union([path[1]]), context: context)
            // An empty body may still become either form: the long form's
            // keys come after the ids.
            let keys = versionTwo && context.siblings.isEmpty ? keyItems(DeclarationCollector.recipeKeys, context: context, rank: "4") : []
            return Self.completionList(ids.items + keys, incomplete: ids.incomplete)
        case 3 where path[0] == DeclarationKind.fruit.section && path[2] == "restock" && versionTwo:
            return Self.completionList(keyItems(DeclarationCollector.restockKeys, context: context))
        case 3 where path[0] == DeclarationKind.recipe.section && path[2] == "recipe" && versionTwo,
             3 where path[0] == DeclarationKind.menuItem.section && path[2] == "recipe",
             3 where path[0] == DeclarationKind.fruit.section && path[2] == "substitutes" && versionTwo:
            // Ingredients are any other id; a substitute is another fruit (the fruit itself is path[1]).
            let ids = idItems(target.book, kinds: path[2] == "substitutes" ? [.fruit] : blends, leaving: context.siblings.union([path[1]]), context: context)
            return Self.completionList(ids.items, incomplete: ids.incomplete)
        default:
            return Self.completionList([])
        }
    }

    private static func completionList(_ items: [JSONValue], incomplete: Bool = false) -> JSONValue {
        .object([("isIncomplete", .bool(incomplete)), ("items", .array(items))])
    }

    /// Keys not yet written beside the cursor, in the language's order, after
    /// anything ranked before `rank`.
    private func keyItems(_ keys: [String], context: CompletionContext, rank: String = "") -> [JSONValue] {
        keys.filter { !context.siblings.contains($0) }.enumerated().map { order, key in
            .object([
                ("label", .string(key)), ("kind", .int(10)), ("detail", .string("key")),
                ("sortText", .string(rank + String(order + 10))), ("insertText", .string(key + ": ")),
            ])
        }
    }

    /// The ids of `kinds` not in `taken`; incomplete when there were too
    /// many, and only those matching what is typed are listed.
    private mutating func idItems(
        _ book: Int, kinds: Set<DeclarationKind>, leaving taken: Set<String>, context: CompletionContext
    ) -> (items: [JSONValue], incomplete: Bool) {
        let index = books[book].index()
        var seen = taken
        var candidates: [WorkspaceIndex.Definition] = []
        for definition in index.definitions where kinds.contains(definition.kind) && seen.insert(definition.id).inserted {
            candidates.append(definition)
        }
        var incomplete = false
        if candidates.count > Self.maximumCompletions {
            let typed = context.partial.lowercased()
            candidates = Array(candidates.lazy.filter { typed.isEmpty || $0.id.lowercased().contains(typed) }.prefix(Self.maximumCompletions))
            incomplete = true
        }
        let items: [JSONValue] = candidates.map { definition in
            let rank = switch definition.kind {
            case .fruit: "1"
            case .recipe: "2"
            case .menuItem: "3"
            }
            var detail = definition.kind.rawValue
            if let label = definition.label { detail += " · " + label }
            if let emoji = definition.emoji { detail += " " + emoji }
            return .object([
                "label": .string(definition.id),
                "kind": .int(definition.kind.lspCompletionKind),
                "detail": .string(detail),
                "sortText": .string(rank + definition.id),
                // An id YAML would not read back as itself goes in quotes.
                "insertText": NameSpelling.plain.written(definition.id).map(JSONValue.string),
            ])
        }
        return (items, incomplete)
    }
}
