/// What one file declares, before names are resolved.
///
/// A collector sees one file and nothing else, so files can be collected in
/// parallel. Every fact that depends on other files (whether an id or a stock
/// entry was already taken) is left to `BookDeclarations.merge`, which takes
/// files in order: the collector records every declaration it finds, in the
/// order written, and `merge` keeps the first of each id.
struct DeclarationCollector: Sendable {
    enum Kind: String, Sendable {
        case fruit
        case recipe
        case menuItem = "menu item"
    }

    /// Which declaration an id names: index into `fruits` or `composites`.
    /// Its place is the declaration's own (`range(of:)`), not stored twice:
    /// a book can define 100,000 ids.
    struct Definition: Sendable {
        var kind: Kind
        var index: Int
    }

    struct FruitDeclaration: Sendable {
        var id: String
        var range: SourceRange
        var label: String?
        var emoji: String?
    }

    struct IngredientDeclaration: Sendable {
        var name: String
        /// `name.hashValue`, computed here, on the worker, for `NameTable`.
        var nameHash: Int
        var range: SourceRange
        var amount: Int
    }

    /// A recipe or a menu item: both have ingredients and can be ingredients.
    struct CompositeDeclaration: Sendable {
        var id: String
        var kind: Kind
        var range: SourceRange
        var label: String?
        var price: Int?
        /// This composite's ingredients in the collector's `ingredients`.
        var ingredients: Range<Int> = 0..<0
    }

    struct StockDeclaration: Sendable {
        var fruit: String
        var range: SourceRange
        var amount: Int
    }

    /// A stock entry as written. Whether it counts depends on earlier files:
    /// a repeated entry is reported as a repeat only, and its amount's
    /// problems are not reported, so they wait in `stockDiagnostics` until
    /// `merge` knows. (The worker reads every amount; that is cheaper than
    /// asking first.)
    struct StockEntry: Sendable {
        var fruit: String
        var range: SourceRange
        /// Nil when the amount is not a valid count.
        var amount: Int?
        /// This entry's problems in `stockDiagnostics`.
        var diagnostics: Range<Int>
    }

    /// A fruit, recipe or menu item as declared, and its id's `hashValue`.
    struct Declared: Sendable {
        var definition: Definition
        var idHash: Int
    }

    static let topLevelKeys = ["version", "fruits", "stock", "recipes", "menu"]
    static let stockFileKeys = ["version", "stock"]
    static let fruitKeys = ["label", "emoji"]
    static let menuKeys = ["label", "price", "recipe"]

    /// Problems that stand whatever the other files say.
    var diagnostics: [Diagnostic] = []
    /// Every fruit, recipe and menu item declared, in the order written,
    /// repeats included: `merge` decides which ones stand.
    var declarations: [Declared] = []
    var fruits: [FruitDeclaration] = []
    var composites: [CompositeDeclaration] = []
    /// Every composite's ingredients, one composite after another: one array
    /// for the file rather than one per recipe and menu item.
    var ingredients: [IngredientDeclaration] = []
    var stock: [StockEntry] = []
    var stockDiagnostics: [Diagnostic] = []
    /// A stock file's first `stock:` key, or an empty range at its start
    /// when it has none: where a fruit it leaves out is reported.
    var stockSection: SourceRange?

    /// Where the declaration was written.
    func range(of definition: Definition) -> SourceRange {
        definition.kind == .fruit ? fruits[definition.index].range : composites[definition.index].range
    }

    /// What one thread keeps from file to file: a composer, and the arrays a
    /// file's ingredients and composites are collected into, which grow once
    /// and are then reused. Each file's lists are copied out at their exact
    /// size, since the book keeps them: one fresh allocation per list, rather
    /// than the doublings of a new array per file (memory the kernel must
    /// hand over page by page) and their slack kept to the end.
    struct Worker {
        private var composer = YAMLComposer()
        private var ingredients: [IngredientDeclaration] = []
        private var composites: [CompositeDeclaration] = []

        /// Composes one file and collects what it declares: the whole of a
        /// file's work that needs no other file.
        mutating func collect(_ file: SourceFile) -> DeclarationCollector {
            var collector = DeclarationCollector()
            swap(&collector.ingredients, &ingredients)
            swap(&collector.composites, &composites)
            let diagnostics = composer.compose(bytes: file.bytes, file: file.path) { collector.collect($0) }
            collector.diagnostics += diagnostics
            swap(&collector.ingredients, &ingredients)
            swap(&collector.composites, &composites)
            collector.ingredients = ingredients.exactCopy()
            collector.composites = composites.exactCopy()
            ingredients.removeAll(keepingCapacity: true)
            composites.removeAll(keepingCapacity: true)
            return collector
        }
    }

    /// Composes a stock file and collects its entries (`version` and `stock` only).
    static func collectStock(file: SourceFile) -> DeclarationCollector {
        let composed = YAMLComposer.compose(bytes: file.bytes, file: file.path)
        var collector = DeclarationCollector()
        collector.diagnostics = composed.diagnostics
        collector.collectStockFile(composed.documents)
        let start = SourcePosition(line: 1, column: 1)
        collector.stockSection = collector.stockSection ?? SourceRange(file: file.path, start: start, end: start)
        return collector
    }

    private mutating func collect(_ document: YAMLDocument) {
        guard let root = document.root, !document[root].isNull else { return }
        guard document[root].kind == .mapping else {
            report(.invalidType, document, root,
                   "a recipe document must be a mapping, found \(document[root].kindDescription)",
                   help: "use the keys " + Self.topLevelKeys.map { "'\($0)'" }.joined(separator: ", "))
            return
        }
        for (key, value) in document.pairs(of: root) {
            guard let name = keyText(document, key) else { continue }
            switch name {
            case "version": checkVersion(document, value)
            case "fruits": forEachEntry(document, value, section: "fruits") { $0.collectFruit(document, $1, $2, $3) }
            case "stock": forEachEntry(document, value, section: "stock") { $0.collectStock(document, $1, $2, $3) }
            case "recipes": forEachEntry(document, value, section: "recipes") { $0.collectRecipe(document, $1, $2, $3) }
            case "menu": forEachEntry(document, value, section: "menu") { $0.collectMenuItem(document, $1, $2, $3) }
            default: reportUnknownKey(document, key, name, expected: Self.topLevelKeys, in: "a recipe document")
            }
        }
    }

    /// Reads a stock file's documents.
    private mutating func collectStockFile(_ documents: [YAMLDocument]) {
        for document in documents {
            guard let root = document.root, !document[root].isNull else { continue }
            guard document[root].kind == .mapping else {
                report(.invalidType, document, root,
                       "a stock file must be a mapping, found \(document[root].kindDescription)",
                       help: "write 'stock: { FRUIT: COUNT, ... }'")
                continue
            }
            for (key, value) in document.pairs(of: root) {
                guard let name = keyText(document, key) else { continue }
                switch name {
                case "version": checkVersion(document, value)
                case "stock":
                    if stockSection == nil { stockSection = document.range(of: key) }
                    forEachEntry(document, value, section: "stock") { $0.collectStock(document, $1, $2, $3) }
                default: reportUnknownKey(document, key, name, expected: Self.stockFileKeys, in: "a stock file")
                }
            }
        }
    }

    // MARK: Sections

    private mutating func checkVersion(_ document: YAMLDocument, _ value: YAMLNode.ID) {
        let node = document[value]
        let isOne = node.kind == .scalar && node.value == "1"
            && ((node.style == .plain && node.tag == nil) || node.tag == AmountReader.intTag)
        if !isOne {
            let shown = node.kind == .scalar && !node.isNull ? "'\(node.value)'" : node.kindDescription
            report(.unsupportedVersion, document, value, "unsupported version \(shown)",
                   help: "this juice-maker reads recipe language version 1; write 'version: 1' or leave it out")
        }
    }

    private mutating func collectFruit(_ document: YAMLDocument, _ id: String, _ key: YAMLNode.ID, _ value: YAMLNode.ID) {
        var fruit = FruitDeclaration(id: id, range: document.range(of: key))
        let node = document[value]
        if node.kind == .mapping {
            for (fieldKey, fieldValue) in document.pairs(of: value) {
                guard let field = keyText(document, fieldKey) else { continue }
                switch field {
                case "label": fruit.label = text(document, fieldValue, field: "label")
                case "emoji": fruit.emoji = text(document, fieldValue, field: "emoji")
                default: reportUnknownKey(document, fieldKey, field, expected: Self.fruitKeys, in: "fruit '\(id)'")
                }
            }
        } else if !node.isNull {
            report(.invalidType, document, value,
                   "fruit '\(id)' must be a mapping or empty, found \(node.kindDescription)",
                   help: "write '\(id): { label: ..., emoji: ... }' or just '\(id):'")
        }
        declarations.append(Declared(definition: Definition(kind: .fruit, index: fruits.count), idHash: id.hashValue))
        fruits.append(fruit)
    }

    private mutating func collectStock(_ document: YAMLDocument, _ fruit: String, _ key: YAMLNode.ID, _ value: YAMLNode.ID) {
        let first = stockDiagnostics.count
        let amount = AmountReader.read(document, value, allowZero: true, what: "stock of '\(fruit)'", into: &stockDiagnostics)
        stock.append(StockEntry(fruit: fruit, range: document.range(of: key), amount: amount, diagnostics: first..<stockDiagnostics.count))
    }

    private mutating func collectRecipe(_ document: YAMLDocument, _ id: String, _ key: YAMLNode.ID, _ value: YAMLNode.ID) {
        let ingredients = readIngredients(document, value, owner: "recipe '\(id)'", ownerKey: key)
        declarations.append(Declared(definition: Definition(kind: .recipe, index: composites.count), idHash: id.hashValue))
        composites.append(CompositeDeclaration(
            id: id, kind: .recipe, range: document.range(of: key), ingredients: ingredients ?? 0..<0
        ))
    }

    private mutating func collectMenuItem(_ document: YAMLDocument, _ id: String, _ key: YAMLNode.ID, _ value: YAMLNode.ID) {
        var item = CompositeDeclaration(id: id, kind: .menuItem, range: document.range(of: key))
        let node = document[value]
        if node.kind == .mapping {
            var sawRecipe = false
            for (fieldKey, fieldValue) in document.pairs(of: value) {
                guard let field = keyText(document, fieldKey) else { continue }
                switch field {
                case "label":
                    item.label = text(document, fieldValue, field: "label")
                case "price":
                    item.price = AmountReader.read(document, fieldValue, allowZero: true, what: "price of '\(id)'", into: &diagnostics)
                case "recipe":
                    sawRecipe = true
                    item.ingredients = readIngredients(document, fieldValue, owner: "menu item '\(id)'", ownerKey: fieldKey) ?? 0..<0
                default:
                    reportUnknownKey(document, fieldKey, field, expected: Self.menuKeys, in: "menu item '\(id)'")
                }
            }
            if !sawRecipe {
                report(.emptyRecipe, document, key, "menu item '\(id)' has no recipe",
                       help: "add 'recipe: { FRUIT: AMOUNT, ... }'")
            }
        } else if node.isNull {
            report(.emptyRecipe, document, key, "menu item '\(id)' has no recipe",
                   help: "add 'recipe: { FRUIT: AMOUNT, ... }'")
        } else {
            report(.invalidType, document, value,
                   "menu item '\(id)' must be a mapping, found \(node.kindDescription)",
                   help: "write '\(id): { label: ..., price: ..., recipe: { FRUIT: AMOUNT } }'")
        }
        declarations.append(Declared(definition: Definition(kind: .menuItem, index: composites.count), idHash: id.hashValue))
        composites.append(item)
    }

    /// Reads `{ingredient: amount}` into `ingredients` and returns where they
    /// went. Returns nil when the shape is wrong (already reported);
    /// ingredients whose amount is invalid are reported and left out.
    private mutating func readIngredients(
        _ document: YAMLDocument, _ value: YAMLNode.ID, owner: @autoclosure () -> String, ownerKey: YAMLNode.ID
    ) -> Range<Int>? {
        let node = document[value]
        if node.isNull || (node.kind == .mapping && node.childCount == 0) {
            report(.emptyRecipe, document, node.isNull ? ownerKey : value, "\(owner()) has no ingredients",
                   help: "list at least one ingredient, such as '{ mango: 1 }'")
            return nil
        }
        guard node.kind == .mapping else {
            report(.invalidType, document, value,
                   "the ingredients of \(owner()) must be a mapping of ingredient to amount, found \(node.kindDescription)",
                   help: "write '{ mango: 2, kiwi: 1 }'")
            return nil
        }
        let first = ingredients.count
        ingredients.reserve(node.childCount / 2)
        for (ingredientKey, amountNode) in document.pairs(of: value) {
            guard let name = keyText(document, ingredientKey) else { continue }
            guard let amount = AmountReader.read(
                document, amountNode, allowZero: false, what: "amount of '\(name)' in \(owner())", into: &diagnostics
            ) else { continue }
            ingredients.append(IngredientDeclaration(name: name, nameHash: name.hashValue, range: document.range(of: ingredientKey), amount: amount))
        }
        return first..<ingredients.count
    }

    // MARK: Helpers

    /// Calls `body` with each id of a section mapping. An empty section is fine.
    private mutating func forEachEntry(
        _ document: YAMLDocument, _ section: YAMLNode.ID, section name: String,
        _ body: (inout Self, String, YAMLNode.ID, YAMLNode.ID) -> Void
    ) {
        let node = document[section]
        if node.isNull { return }
        guard node.kind == .mapping else {
            report(.invalidType, document, section, "'\(name)' must be a mapping, found \(node.kindDescription)",
                   help: name == "stock" ? "write 'stock: { FRUIT: COUNT, ... }'" : "write each entry as 'ID: ...' under '\(name):'")
            return
        }
        // A section can hold thousands of ids; grow the tables once, not by doubling.
        let entries = node.childCount / 2
        declarations.reserve(entries)
        switch name {
        case "fruits": fruits.reserve(entries)
        case "stock": stock.reserve(entries)
        default: composites.reserve(entries)
        }
        for (key, value) in document.pairs(of: section) {
            guard let id = keyText(document, key) else { continue }
            if document[key].isNull && !id.isEmpty {
                report(.invalidName, document, key, "'\(id)' is YAML's null, not an id",
                       help: "quote it, '\(id)', if you mean it as a name")
            } else if name != "stock", let problem = RecipeValues.problem(withID: id) {
                report(.invalidName, document, key, problem, help: RecipeValues.help(forInvalidID: id))
            }
            body(&self, id, key, value)
        }
    }

    /// A mapping key's text; a key that is not a scalar is reported.
    private mutating func keyText(_ document: YAMLDocument, _ key: YAMLNode.ID) -> String? {
        let node = document[key]
        guard node.kind == .scalar else {
            report(.invalidType, document, key, "a key must be a scalar, found \(node.kindDescription)")
            return nil
        }
        return node.value
    }

    /// A scalar field such as a label.
    private mutating func text(_ document: YAMLDocument, _ value: YAMLNode.ID, field: String) -> String? {
        let node = document[value]
        guard node.kind == .scalar, !node.isNull else {
            report(.invalidType, document, value, "'\(field)' must be text, found \(node.kindDescription)")
            return nil
        }
        return node.value
    }

    private mutating func reportUnknownKey(
        _ document: YAMLDocument, _ key: YAMLNode.ID, _ name: String, expected: [String], in place: String
    ) {
        let help = Suggestion.didYouMean(name, in: expected)
            ?? "expected one of " + expected.map { "'\($0)'" }.joined(separator: ", ")
        report(.unknownKey, document, key, "unknown key '\(name)' in \(place)", help: help)
    }

    private mutating func report(_ rule: Rule, _ document: YAMLDocument, _ node: YAMLNode.ID, _ message: String, help: String? = nil) {
        diagnostics.append(Diagnostic(rule, at: document.range(of: node), message, help: help))
    }
}
