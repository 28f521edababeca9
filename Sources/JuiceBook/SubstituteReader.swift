@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics
@_spi(Internals) import JuiceYAML
/// Reads a fruit's `substitutes:` mapping (version 2): the fruits that may
/// stand in for it, in order of preference (the mapping's order), each with
/// the units of it that replace one missing unit (docs/recipes.md,
/// "Substitutes").
///
/// What one file can judge is judged here: the mapping's shape, each ratio
/// (through the amount reader, so a 0, a negative or a non-number reads as
/// it does anywhere else) and a fruit that names itself. Whether a name is a
/// declared fruit needs the whole book: the linker (`SubstituteResolver`).
/// A type of its own, not a `DeclarationCollector` extension: the collector
/// is near its 1,000-line bound (ARCHITECTURE.md, "Size").
enum SubstituteReader {
    /// The entries of the `substitutes:` value of fruit `id`, every problem
    /// reported into `diagnostics`. An entry with an invalid ratio is kept
    /// with a nil ratio, so that its name is still resolved and renamed; one
    /// whose key is not a scalar is left out.
    static func read(
        _ document: YAMLDocument, _ value: YAMLNode.ID, fruit id: String, into diagnostics: inout [Diagnostic]
    ) -> [SubstituteDeclaration] {
        let node = document[value]
        // `substitutes:` with nothing after it lists none, as `{}` does.
        if node.isNull { return [] }
        guard node.kind == .mapping else {
            report(.invalidType, document, value,
                   "the substitutes of '\(id)' must be a mapping of fruit to ratio, found \(node.kindDescription)",
                   help: "write 'substitutes: { FRUIT: RATIO, ... }', in order of preference", into: &diagnostics)
            return []
        }
        var substitutes: [SubstituteDeclaration] = []
        substitutes.reserveCapacity(node.childCount / 2)
        for (key, ratioNode) in document.pairs(of: value) {
            guard document[key].kind == .scalar else {
                report(.invalidType, document, key, "a key must be a scalar, found \(document[key].kindDescription)", into: &diagnostics)
                continue
            }
            let name = document.text(of: key)
            if name == id {
                report(.substituteIsItself, document, key, "fruit '\(id)' lists itself as a substitute",
                       help: "remove it: a fruit's own stock is always used first", into: &diagnostics)
            }
            let ratio = DeclarationCollector.amount(
                document, ratioNode, allowZero: false, what: "ratio of substitute '\(name)' of '\(id)'", removing: "substitute",
                into: &diagnostics
            )
            substitutes.append(SubstituteDeclaration(
                name: name, range: document.range(of: key), ratio: ratio, spelling: NameSpelling(document, key)
            ))
        }
        // A repeated name is reported by the composer (`duplicate-key`) and
        // left out; its ratio is still checked, as a repeated ingredient's is.
        for repeated in document.repeats(of: value) where document[repeated.key].kind == .scalar && !document.isMergeKey(repeated.key) {
            _ = DeclarationCollector.amount(
                document, repeated.value, allowZero: false,
                what: "ratio of substitute '\(document.text(of: repeated.key))' of '\(id)'", removing: "substitute", into: &diagnostics
            )
        }
        return substitutes
    }

    private static func report(
        _ rule: Rule, _ document: YAMLDocument, _ node: YAMLNode.ID, _ message: String, help: String? = nil,
        into diagnostics: inout [Diagnostic]
    ) {
        diagnostics.append(Diagnostic(rule, at: document.range(of: node), message, notes: document.aliasNotes(for: node), help: help))
    }
}
