@_spi(Internals) import JuiceSupport
import JuiceDiagnostics
@_spi(Internals) import JuiceYAML
/// The walking and reporting every section of `DeclarationCollector` shares:
/// entries and pairs of a mapping, repeated keys, amounts and key text.
extension DeclarationCollector {
    /// Calls `body` with each id of a section mapping. An empty section is fine.
    mutating func forEachEntry(
        _ document: YAMLDocument, _ section: YAMLNode.ID, section kind: BookSection,
        _ body: (inout Self, String, YAMLNode.ID, YAMLNode.ID) -> Void
    ) {
        let node = document[section], name = kind.rawValue
        if node.isNull { return }
        guard node.kind == .mapping else {
            if kind == .stock { stockIncomplete = true }
            report(.invalidType, document, section, "'\(name)' must be a mapping, found \(node.kindDescription)",
                   help: kind == .stock ? "write 'stock: { FRUIT: COUNT, ... }'" : "write each entry as 'ID: ...' under '\(name):'")
            return
        }
        // A section can hold thousands of ids; grow the tables once, not by doubling.
        let entries = node.childCount / 2
        declarations.reserve(entries)
        switch kind {
        case .fruits: fruits.reserve(entries)
        case .stock: stock.reserve(entries)
        case .recipes, .menu, .version: blends.reserve(entries)
        }
        forEachPair(document, section) { collector, document, key, value, _ in
            guard let id = collector.keyText(document, key) else { return }
            if document[key].isNull && !id.isEmpty {
                collector.report(.invalidName, document, key, "'\(id)' is YAML's null, not an id",
                                 help: "quote it, '\(id)', if you mean it as a name")
            } else if kind != .stock, let problem = RecipeValues.problem(withID: id) {
                collector.report(.invalidName, document, key, problem, help: RecipeValues.help(forInvalidID: id))
            }
            let first = collector.diagnostics.count, declared = collector.declarations.count
            body(&collector, id, key, value)
            if collector.declarations.count == declared + 1 {
                collector.declarations[declared].diagnostics = first..<collector.diagnostics.count
            }
        }
    }

    /// Calls `body` with each pair of a mapping, then checks each pair the
    /// mapping dropped as a repeat with the same `body`, as if it stood alone.
    /// `body`'s last argument is false for those: what it reads from them must
    /// not be kept. The document is handed to `body` rather than captured by
    /// it: a closure that captures it copies it, retaining each of its arrays,
    /// once for every menu item of the book.
    mutating func forEachPair(
        _ document: YAMLDocument, _ mapping: YAMLNode.ID, _ body: (inout Self, YAMLDocument, YAMLNode.ID, YAMLNode.ID, Bool) -> Void
    ) {
        for (key, value) in document.pairs(of: mapping) { body(&self, document, key, value, true) }
        if !document.repeats.isEmpty { checkRepeats(document, mapping, body) }
    }

    /// Checks each pair `mapping` dropped as a repeat with `body`, as if it
    /// stood alone; what it declares is left out of the book. A repeated
    /// merge key's pairs are checked one by one.
    mutating func checkRepeats(
        _ document: YAMLDocument, _ mapping: YAMLNode.ID, _ body: (inout Self, YAMLDocument, YAMLNode.ID, YAMLNode.ID, Bool) -> Void
    ) {
        for repeated in document.repeats(of: mapping) {
            let first = document.range(of: repeated.first)
            let text = document.text(of: repeated.key)
            let note = Diagnostic.Note(
                range: document.range(of: repeated.key),
                message: "'\(text)' here repeats the key at \(first.file):\(first.start); its value is checked, but left out of the book"
            )
            checkAlone(note) { collector in
                // Only a merge key repeats a merge key.
                guard document.isMergeKey(repeated.key) else {
                    body(&collector, document, repeated.key, repeated.value, false)
                    return
                }
                let source = document[repeated.value]
                let sources = source.kind == .sequence ? Array(document.children(of: repeated.value)) : [repeated.value]
                for candidate in sources where document[candidate].kind == .mapping {
                    for (key, value) in document.pairs(of: candidate) { body(&collector, document, key, value, false) }
                }
            }
        }
    }

    /// Runs `body` and keeps what it checked out of the book: each problem
    /// it found gets `note`, and what it declared or stocked is recorded as
    /// loose, its blends as leftOut whose names the linker still checks.
    mutating func checkAlone(_ note: Diagnostic.Note, _ body: (inout Self) -> Void) {
        let firstDiagnostic = diagnostics.count, firstDeclaration = declarations.count
        let firstFruit = fruits.count, firstBlend = blends.count, firstLeftOut = leftOut.count
        let firstStock = stock.count, firstStockDiagnostic = stockDiagnostics.count, firstLeftOutStock = leftOutStock.count
        body(&self)
        // A stock entry left out is never merged, so its problems are reported here.
        diagnostics += stockDiagnostics[firstStockDiagnostic...]
        stockDiagnostics.removeSubrange(firstStockDiagnostic...)
        for index in firstDiagnostic..<diagnostics.count { diagnostics[index].notes.append(note) }
        for index in firstLeftOut..<leftOut.count { leftOut[index].notes.append(note) }
        for index in firstLeftOutStock..<leftOutStock.count { leftOutStock[index].notes.append(note) }
        for declared in declarations[firstDeclaration...] {
            let definition = declared.definition
            uncountedIDs.insert(definition.kind == .fruit ? fruits[definition.index].id : blends[definition.index].id)
        }
        for blend in blends[firstBlend...] { leftOut.append(LeftOutDeclaration(blend: blend, notes: [note])) }
        for entry in stock[firstStock...] {
            uncountedStock.insert(entry.fruit)
            leftOutStock.append(LeftOutStockEntry(fruit: entry.fruit, range: entry.range, notes: [note]))
        }
        declarations.removeSubrange(firstDeclaration...)
        fruits.removeSubrange(firstFruit...)
        blends.removeSubrange(firstBlend...)
        stock.removeSubrange(firstStock...)
    }

    /// `AmountReader.read`, with a note at the anchor when the amount was
    /// written as an alias.
    static func amount(
        _ document: YAMLDocument, _ value: YAMLNode.ID, allowZero: Bool, what: @autoclosure () -> String,
        removing item: String = "ingredient", into diagnostics: inout [Diagnostic]
    ) -> Int? {
        let first = diagnostics.count
        let amount = AmountReader.read(document, value, allowZero: allowZero, what: what(), removing: item, into: &diagnostics)
        if amount == nil && !document.aliases.isEmpty {
            let notes = document.aliasNotes(for: value)
            for index in first..<diagnostics.count { diagnostics[index].notes += notes }
        }
        return amount
    }

    /// A mapping key's text; a key that is not a scalar is reported.
    mutating func keyText(_ document: YAMLDocument, _ key: YAMLNode.ID) -> String? {
        isScalarKey(document, key) ? document.text(of: key) : nil
    }

    /// Whether a mapping key is a scalar; one that is not is reported.
    mutating func isScalarKey(_ document: YAMLDocument, _ key: YAMLNode.ID) -> Bool {
        let node = document[key]
        guard node.kind == .scalar else {
            report(.invalidType, document, key, "a key must be a scalar, found \(node.kindDescription)")
            return false
        }
        return true
    }

    /// A scalar field such as a label.
    mutating func text(_ document: YAMLDocument, _ value: YAMLNode.ID, field: String) -> String? {
        isText(document, value, field: field) ? document.text(of: value) : nil
    }

    /// A label or an emoji: checked as `text` checks it, and made only when
    /// labels are kept (`keepsLabels`).
    mutating func shown(_ document: YAMLDocument, _ value: YAMLNode.ID, field: String) -> String? {
        guard keepsLabels else {
            _ = isText(document, value, field: field)
            return nil
        }
        return text(document, value, field: field)
    }

    /// Whether a field's value is text; reported when it is not.
    private mutating func isText(_ document: YAMLDocument, _ value: YAMLNode.ID, field: String) -> Bool {
        let node = document[value]
        guard node.kind == .scalar, !node.isNull else {
            report(.invalidType, document, value, "'\(field)' must be text, found \(node.kindDescription)")
            return false
        }
        return true
    }

    /// An unknown key of `mapping`, with a did-you-mean; renamed by its fix
    /// only when the mapping has no such key yet, since the rename would
    /// otherwise make a repeated key.
    mutating func reportUnknownKey(
        _ document: YAMLDocument, _ key: YAMLNode.ID, _ name: String, expected: [String], in place: String,
        mapping: YAMLNode.ID
    ) {
        let match = Suggestion.closestMatch(to: name, in: expected)
        let help = match.map { Suggestion.didYouMean(suggesting: $0.name) }
            ?? "expected one of " + expected.map { "'\($0)'" }.joined(separator: ", ")
        let taken = match.map { match in document.pairs(of: mapping).contains { document.hasText($0.0, equalTo: match.name) } } ?? false
        let fixes = Fix.replacingName(
            name, with: taken ? nil : match, at: document.range(of: key), spelling: NameSpelling(document, key)
        )
        report(.unknownKey, document, key, "unknown key '\(name)' in \(place)", help: help, fixes: fixes)
    }

    mutating func report(
        _ rule: Rule, _ document: YAMLDocument, _ node: YAMLNode.ID, _ message: String, help: String? = nil, fixes: [Fix] = []
    ) {
        diagnostics.append(Diagnostic(
            rule, at: document.range(of: node), message, notes: document.aliasNotes(for: node), help: help, fixes: fixes
        ))
    }
}
