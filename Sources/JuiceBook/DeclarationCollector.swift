import JuiceSource
import JuiceDiagnostics
@_spi(Internals) import JuiceYAML
/// What one file declares, before names are resolved.
///
/// A collector sees one file and nothing else, so files can be collected in
/// parallel. Every fact that depends on other files (whether an id or a stock
/// entry was already taken) is left to `BookDeclarations.merge`, which takes
/// files in order: the collector records every declaration it finds, in the
/// order written, and `merge` keeps the first of each id.
package struct DeclarationCollector: Sendable {
    /// Which declaration an id names: index into `fruits` or `blends`.
    /// Its place is the declaration's own (`range(of:)`), not stored twice:
    /// a book can define 100,000 ids.
    struct Definition: Sendable {
        var kind: DeclarationKind
        var index: Int
    }

    package static let topLevelKeys = BookSection.allCases.map(\.rawValue)
    static let stockFileKeys = [BookSection.version, .stock].map(\.rawValue)
    package static let fruitKeys = ["label", "emoji", "cost", "pack", "keeps", "restock", "substitutes"]
    package static let menuKeys = ["label", "price", "recipe"]
    /// A recipe's long form (version 2): a body with a `recipe:` key.
    package static let recipeKeys = ["recipe", "yield", "label", "keeps"]
    /// A fruit's `restock:` mapping (version 2).
    package static let restockKeys = ["up-to", "below", "lead"]
    /// The keys version 1 does not have, which a `version: 1` file may not use.
    static let versionTwoKeys: Set<String> = ["cost", "pack", "yield", "keeps", "restock", "substitutes"]

    /// Problems that stand whatever the other files say.
    package var diagnostics: [Diagnostic] = []
    /// Every fruit, recipe and menu item declared, in the order written,
    /// repeats included: `merge` decides which ones stand.
    package var declarations: [Declared] = []
    var fruits: [FruitDeclaration] = []
    var blends: [BlendDeclaration] = []
    /// Every blend's ingredients, one blend after another: one array
    /// for the file rather than one per recipe and menu item.
    var ingredients: [IngredientDeclaration] = []
    var stock: [StockEntry] = []
    var stockDiagnostics: [Diagnostic] = []
    /// A stock file's first `stock:` key, or an empty range at its start
    /// when it has none: where a fruit it leaves out is reported.
    var stockSection: SourceRange?
    /// What was checked but is left out of the book; empty unless a key repeats.
    var leftOut: [LeftOutDeclaration] = []
    var leftOutStock: [LeftOutStockEntry] = []
    /// Ids declared where they do not count: under a repeated key, or in a
    /// document dropped for a problem. A name that only they declare is not
    /// reported as unknown, since the problem that left them out is the cause
    /// and is already an error; fixing it makes the name known.
    var uncountedIDs: Set<String> = []
    /// Fruits stocked where it does not count, for the same reason: their
    /// stock is unknown rather than missing.
    var uncountedStock: Set<String> = []
    /// Whether labels and emoji are kept. A lint reports nothing that
    /// quotes them, so its loader (`BookLoadRequest.keepsLabels`)
    /// has them checked but not made into strings: 95,000 of the 100-file
    /// book's menu items have one, most too long to be stored inline, each
    /// an allocation and a validation of its text. Kept for its figure: the
    /// 16 MB block-style book's lint peaks at 81.5 MB with it and 90.0 MB
    /// without, 10.4% (medians of 5, docs/benchmarks.md); time, 1.2%.
    var keepsLabels = true
    /// Set when stock entries may have been lost unseen (a stock section of
    /// the wrong shape, a file cut short by a syntax error): then no fruit's
    /// stock can be called missing.
    var stockIncomplete = false
    /// The file's `version:`, read before its sections; nil when it has none.
    package var languageVersion: Int?
    /// Whether the file used anything version 1 does not have, for the
    /// large-file join, which reads such a file whole.
    package var usesVersionTwo = false
    /// Whether a recipe declared a `yield:` (`RecipeBook.keepsServings`).
    var declaresYield = false
    /// Whether a fruit declared a `cost:`, for the cost rules.
    var declaresCost = false
    /// Whether a fruit listed `substitutes:`: only then does the linker resolve them.
    var declaresSubstitutes = false

    /// Whether nothing was reported and nothing left out: a piece of a
    /// large file is only kept when it is (the driver's `PieceJoin`).
    package var isClean: Bool {
        diagnostics.isEmpty && stockDiagnostics.isEmpty && leftOut.isEmpty && leftOutStock.isEmpty
            && uncountedIDs.isEmpty && uncountedStock.isEmpty && !stockIncomplete
    }

    /// Takes from the stock entries the right to name recipes, as a
    /// `version: 1` file does: for a piece of a large file that did not see
    /// the file's `version: 1` and so read as version 2.
    package mutating func readStockAsVersionOne() {
        for entry in stock.indices { stock[entry].mayNameRecipe = false }
    }

    /// Where the declaration was written.
    func range(of definition: Definition) -> SourceRange {
        definition.kind == .fruit ? fruits[definition.index].range : blends[definition.index].range
    }

    /// Composes a stock file and collects its entries (`version` and `stock` only).
    static func collectStock(file: SourceFile) -> DeclarationCollector {
        var composer = YAMLComposer()
        var collector = DeclarationCollector()
        let diagnostics = composer.compose(bytes: file.bytes, file: file.path) { collector.collectStockFile($0) }
        collector.diagnostics = diagnostics + collector.diagnostics
        let start = SourcePosition(line: 1, column: 1)
        collector.stockSection = collector.stockSection ?? SourceRange(file: file.path, start: start, end: start)
        return collector
    }

    package mutating func collect(_ document: YAMLDocument) {
        guard document.status == .complete else { return collectUncounted(document) }
        guard let root = document.root, !document[root].isNull else { return }
        readVersion(document, root)
        guard document[root].kind == .mapping else {
            report(.invalidType, document, root,
                   "a recipe document must be a mapping, found \(document[root].kindDescription)",
                   help: "use the keys " + Self.topLevelKeys.map { "'\($0)'" }.joined(separator: ", "))
            return
        }
        forEachPair(document, root) { collector, document, key, value, _ in
            guard let name = collector.keyText(document, key) else { return }
            if !collector.collectTopLevel(name, document, value) {
                collector.reportUnknownKey(document, key, name, expected: Self.topLevelKeys, in: "a recipe document", mapping: root)
            }
        }
    }

    /// Reads the value of the top-level key `name`; false when no such key
    /// exists. A piece of a file that holds only a section's entries is read
    /// here too, its whole mapping standing for the section's value.
    package mutating func collectTopLevel(_ name: String, _ document: YAMLDocument, _ value: YAMLNode.ID) -> Bool {
        guard let section = BookSection(rawValue: name) else { return false }
        switch section {
        case .version: checkVersion(document, value)
        case .fruits: forEachEntry(document, value, section: .fruits) { $0.collectFruit(document, $1, $2, $3) }
        case .stock: forEachEntry(document, value, section: .stock) { $0.collectStock(document, $1, $2, $3) }
        case .recipes: forEachEntry(document, value, section: .recipes) { $0.collectRecipe(document, $1, $2, $3) }
        case .menu: forEachEntry(document, value, section: .menu) { $0.collectMenuItem(document, $1, $2, $3) }
        }
        return true
    }

    /// Reads one document of a stock file.
    private mutating func collectStockFile(_ document: YAMLDocument) {
        guard document.status == .complete else { return collectUncounted(document) }
        guard let root = document.root, !document[root].isNull else { return }
        readVersion(document, root)
        guard document[root].kind == .mapping else {
            report(.invalidType, document, root,
                   "a stock file must be a mapping, found \(document[root].kindDescription)",
                   help: "write 'stock: { FRUIT: COUNT, ... }'")
            return
        }
        forEachPair(document, root) { collector, document, key, value, _ in
            guard let name = collector.keyText(document, key) else { return }
            switch BookSection(rawValue: name) {
            case .version: collector.checkVersion(document, value)
            case .stock:
                if collector.stockSection == nil { collector.stockSection = document.range(of: key) }
                collector.forEachEntry(document, value, section: .stock) { $0.collectStock(document, $1, $2, $3) }
            case .fruits, .recipes, .menu, nil: collector.reportUnknownKey(document, key, name, expected: Self.stockFileKeys, in: "a stock file", mapping: root)
            }
        }
    }

    /// Takes from a document that does not count only what it meant to
    /// declare and stock, and reports nothing: the problem that dropped it is
    /// reported, and anything else in it would be reported against a null
    /// standing in for an alias, or against half a document.
    private mutating func collectUncounted(_ document: YAMLDocument) {
        if document.status == .cutShort { stockIncomplete = true }
        guard let root = document.root, document[root].kind == .mapping else { return }
        for (key, value) in document.pairs(of: root) where document[key].kind == .scalar {
            switch BookSection(rawValue: document.text(of: key)) {
            case .fruits, .recipes, .menu:
                guard document[value].kind == .mapping else { continue }
                for (id, _) in document.pairs(of: value) where document[id].kind == .scalar { uncountedIDs.insert(document.text(of: id)) }
            case .stock:
                guard document[value].kind == .mapping else {
                    stockIncomplete = true
                    continue
                }
                for (fruit, _) in document.pairs(of: value) where document[fruit].kind == .scalar { uncountedStock.insert(document.text(of: fruit)) }
            case .version, nil:
                continue
            }
        }
    }
}
