@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics
@_spi(Internals) import JuiceYAML
import JuiceBook
import JuiceEngine
import JuiceSimulation
import JuiceLint
/// Completion: ids where an ingredient or a stock entry goes, keys where
/// the language allows them.
extension LanguageServer {
    /// The most items one answer lists; past it the list is filtered by
    /// what is typed and marked incomplete, so the client asks again.
    static let maximumCompletions = 1000

    mutating func completion(_ params: Params) throws(ResponseError) -> JSONValue {
        let target = try target(params)
        guard let context = CompletionContext(text: target.text, offset: target.offset), context.atKey else {
            return .object([("isIncomplete", .bool(false)), ("items", .array([]))])
        }
        let path = context.path
        switch path.count {
        case 0:
            return keyCompletions(DeclarationCollector.topLevelKeys, context: context)
        case 2 where path[0] == DeclarationKind.menuItem.section:
            return keyCompletions(DeclarationCollector.menuKeys, context: context)
        case 2 where path[0] == DeclarationKind.fruit.section:
            return keyCompletions(DeclarationCollector.fruitKeys, context: context)
        case 1 where path[0] == "stock":
            return idCompletions(target.book, kinds: [.fruit], leaving: context.siblings, context: context)
        case 2 where path[0] == DeclarationKind.recipe.section:
            return idCompletions(target.book, kinds: [.fruit, .recipe, .menuItem], leaving: context.siblings.union([path[1]]), context: context)
        case 3 where path[0] == DeclarationKind.menuItem.section && path[2] == "recipe":
            return idCompletions(target.book, kinds: [.fruit, .recipe, .menuItem], leaving: context.siblings.union([path[1]]), context: context)
        default:
            return .object([("isIncomplete", .bool(false)), ("items", .array([]))])
        }
    }

    private func keyCompletions(_ keys: [String], context: CompletionContext) -> JSONValue {
        let items: [JSONValue] = keys.filter { !context.siblings.contains($0) }.enumerated().map { order, key in
            .object([
                ("label", .string(key)), ("kind", .int(10)), ("detail", .string("key")),
                ("sortText", .string(String(order + 10))), ("insertText", .string(key + ": ")),
            ])
        }
        return .object([("isIncomplete", .bool(false)), ("items", .array(items))])
    }

    private mutating func idCompletions(
        _ book: Int, kinds: Set<DeclarationKind>, leaving taken: Set<String>, context: CompletionContext
    ) -> JSONValue {
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
        return .object([("isIncomplete", .bool(incomplete)), ("items", .array(items))])
    }
}
