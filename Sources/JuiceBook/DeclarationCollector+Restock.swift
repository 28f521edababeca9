@_spi(Internals) import JuiceYAML
/// A fruit's `restock:` mapping (version 2), read for the planner
/// (`juice-run plan`, docs/planning.md): `up-to`, and for an (s, S) policy
/// `below` and `lead`. Its checks need the fruit's `pack`, which may be
/// written after it, so they run once the whole fruit is read.
extension DeclarationCollector {
    mutating func readRestock(_ document: YAMLDocument, _ key: YAMLNode.ID, _ value: YAMLNode.ID, fruit id: String) -> RestockDeclaration? {
        guard document[value].kind == .mapping else {
            report(.invalidType, document, value,
                   "restock of '\(id)' must be a mapping, found \(document[value].kindDescription)",
                   help: "write 'restock: { up-to: 30 }', or 'restock: { below: 10, up-to: 40, lead: 2 }'")
            return nil
        }
        var read = RestockDeclaration(mapping: value, key: key)
        forEachPair(document, value) { collector, document, fieldKey, fieldValue, counts in
            guard collector.isScalarKey(document, fieldKey) else { return }
            if document.hasText(fieldKey, "up-to") {
                let amount = Self.amount(document, fieldValue, allowZero: true, what: "up-to of '\(id)'", into: &collector.diagnostics)
                if counts { read.upTo = (amount, fieldValue) }
            } else if document.hasText(fieldKey, "below") {
                let amount = Self.amount(document, fieldValue, allowZero: true, what: "below of '\(id)'", into: &collector.diagnostics)
                if counts { read.below = (amount, fieldValue) }
            } else if document.hasText(fieldKey, "lead") {
                let amount = Self.amount(document, fieldValue, allowZero: true, what: "lead of '\(id)'", into: &collector.diagnostics)
                if counts { read.lead = amount }
            } else {
                collector.reportUnknownKey(
                    document, fieldKey, document.text(of: fieldKey), expected: Self.restockKeys, in: "restock of '\(id)'", mapping: value
                )
            }
        }
        return read
    }

    /// The restock the planner follows, once the fruit's `pack` is known;
    /// nil (after a diagnostic) when it cannot be followed.
    mutating func checkRestock(_ document: YAMLDocument, _ read: RestockDeclaration, fruit id: String, pack: Int) -> RecipeBook.Restock? {
        guard let upTo = read.upTo else {
            report(.invalidType, document, read.key, "restock of '\(id)' has no 'up-to'",
                   help: "say the level to buy up to: 'restock: { up-to: 30 }'")
            return nil
        }
        guard let level = upTo.value else { return nil }  // already reported
        if level < pack {
            report(.upToBelowPack, document, upTo.node,
                   "restock of '\(id)' buys up to \(level), less than one pack of \(pack)",
                   help: "write 'up-to' in units, at least \(pack)")
        }
        if let below = read.below, let threshold = below.value, threshold > level {
            report(.belowAboveUpTo, document, below.node,
                   "restock of '\(id)' orders below \(threshold), above its up-to of \(level)",
                   help: "make 'below' at most 'up-to' (were the two swapped?)")
            return nil
        }
        if read.below != nil && read.below?.value == nil { return nil }  // already reported
        return RecipeBook.Restock(upTo: level, below: read.below?.value, lead: read.lead ?? 0)
    }
}
