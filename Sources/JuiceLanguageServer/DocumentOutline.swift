@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceBook
/// A file's outline (`textDocument/documentSymbol`): its fruits, recipes
/// and menu items, each section a symbol whose children are its ids; a
/// recipe's or menu item's children are its ingredients.
///
/// A symbol's `range` is its whole entry (`DeclarationExtents`): the comment
/// lines directly above the key, the key, the value, and a comment after it
/// on its last line. `selectionRange` is the id's key. LSP wants the
/// selection inside the range and every child inside its parent: a
/// section's range is widened to hold its children, and an ingredient
/// written elsewhere (through an alias) is left out of an item whose range
/// does not hold it.
struct DocumentOutline {
    let index: WorkspaceIndex
    let path: String
    let text: SourceText
    /// An LSP `Position` for a byte offset of `text`, in the session's
    /// units (`DocumentStore.lspPosition(_:in:)`).
    let lspPosition: (Int) -> JSONValue

    /// The outline as `DocumentSymbol[]`.
    func symbols() -> JSONValue {
        var ingredients: [String: [WorkspaceIndex.Reference]] = [:]
        for reference in index.references where reference.range.file == path && reference.role == .ingredient {
            if let owner = reference.owner { ingredients[owner, default: []].append(reference) }
        }
        let kinds = [DeclarationKind.fruit, .recipe, .menuItem]
        let defined = kinds.map { kind in index.definitions.filter { $0.kind == kind && $0.range.file == path } }
        var keys = Set(defined.joined().map(\.range.start))
        for uses in ingredients.values { keys.formUnion(uses.map(\.range.start)) }
        let extents = DeclarationExtents(text: text, path: path, keys: keys, sections: Set(kinds.map(\.section)))

        /// The entry of the key at `range`; the key alone when the file did
        /// not compose as the book read it.
        func entry(_ range: SourceRange) -> DeclarationExtents.Entry {
            if let entry = extents.entry(ofKey: range) { return entry }
            let start = text.offset(of: range.start)
            let key = start..<max(start, text.offset(of: range.end))
            return (key, key)
        }

        var sections: [JSONValue] = []
        for (kind, definitions) in zip(kinds, defined) {
            guard let first = definitions.first else { continue }
            // The section's own key when the file has one; its first id otherwise.
            let written = extents.sections[kind.section] ?? []
            let key = written.first?.key ?? entry(first.range).key
            var span = written.reduce(key) { Self.union($0, $1.whole) }
            var children: [JSONValue] = []
            for definition in definitions {
                let (whole, key) = entry(definition.range)
                let uses = kind == .fruit ? [] : (ingredients.removeValue(forKey: definition.id) ?? [])
                let parts: [JSONValue] = uses.compactMap { use in
                    let (useWhole, useKey) = entry(use.range)
                    guard whole.lowerBound <= useWhole.lowerBound, useWhole.upperBound <= whole.upperBound else { return nil }
                    return symbol(use.id, detail: nil, kind: 8, whole: useWhole, key: useKey, children: [])
                }
                children.append(symbol(definition.id, detail: definition.label, kind: kind.lspSymbolKind, whole: whole, key: key, children: parts))
                span = Self.union(span, whole)
            }
            sections.append(symbol(kind.section, detail: nil, kind: 3, whole: span, key: key, children: children))
        }
        return .array(sections)
    }

    private static func union(_ a: Range<Int>, _ b: Range<Int>) -> Range<Int> {
        min(a.lowerBound, b.lowerBound)..<max(a.upperBound, b.upperBound)
    }

    /// A `DocumentSymbol`; no `children` member when it has none. An end the
    /// range and the selection share is converted once: conversions are
    /// most of an outline's cost.
    private func symbol(_ name: String, detail: String?, kind: Int, whole: Range<Int>, key: Range<Int>, children: [JSONValue]) -> JSONValue {
        let keyStart = lspPosition(key.lowerBound), keyEnd = lspPosition(key.upperBound)
        let start = whole.lowerBound == key.lowerBound ? keyStart : lspPosition(whole.lowerBound)
        let end = whole.upperBound == key.upperBound ? keyEnd : lspPosition(whole.upperBound)
        return .object([
            "name": .string(name),
            "detail": detail.map(JSONValue.string),
            "kind": .int(kind),
            "range": .object([("start", start), ("end", end)]),
            "selectionRange": .object([("start", keyStart), ("end", keyEnd)]),
            "children": children.isEmpty ? nil : .array(children),
        ])
    }
}
