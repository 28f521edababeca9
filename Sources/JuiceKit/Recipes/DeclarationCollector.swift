/// What a book declares, before names are resolved.
struct DeclarationCollector {
    enum Kind: String {
        case fruit
        case recipe
        case menuItem = "menu item"
    }

    /// Which declaration an id names. Its place is the declaration's own
    /// (`range(of:)`), not stored twice: a book can define 100,000 ids.
    struct Definition {
        var kind: Kind
        /// Index into `fruits` or `composites`.
        var index: Int
    }

    /// Where the declaration an id names was written.
    func range(of definition: Definition) -> SourceRange {
        definition.kind == .fruit ? fruits[definition.index].range : composites[definition.index].range
    }

    struct FruitDeclaration {
        var id: String
        var range: SourceRange
        var label: String?
        var emoji: String?
    }

    struct IngredientDeclaration {
        var name: String
        var range: SourceRange
        var amount: Int
    }

    /// A recipe or a menu item: both have ingredients and can be ingredients.
    struct CompositeDeclaration {
        var id: String
        var kind: Kind
        var range: SourceRange
        var label: String?
        var price: Int?
        /// This composite's ingredients in the collector's `ingredients`.
        var ingredients: Range<Int> = 0..<0
    }

    struct StockDeclaration {
        var fruit: String
        var range: SourceRange
        var amount: Int
    }

    static let topLevelKeys = ["version", "fruits", "stock", "recipes", "menu"]
    static let stockFileKeys = ["version", "stock"]
    static let fruitKeys = ["label", "emoji"]
    static let menuKeys = ["label", "price", "recipe"]

    var diagnostics: [Diagnostic] = []
    var definitions: [String: Definition] = [:]
    var fruits: [FruitDeclaration] = []
    var composites: [CompositeDeclaration] = []
    /// Every composite's ingredients, one composite after another: one array
    /// for the book rather than one per recipe and menu item.
    var ingredients: [IngredientDeclaration] = []
    var stock: [StockDeclaration] = []
    /// Every stock entry written, valid or not, by fruit name.
    private(set) var stockRanges: [String: SourceRange] = [:]

    mutating func collect(_ document: YAMLDocument) {
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

    /// Reads a stock file's documents; their entries replace every stock entry
    /// the book declared.
    mutating func replaceStock(with documents: [YAMLDocument]) {
        stock = []
        stockRanges = [:]
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
                case "stock": forEachEntry(document, value, section: "stock") { $0.collectStock(document, $1, $2, $3) }
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
        if define(id, as: .fruit, index: fruits.count, document, key) {
            fruits.append(fruit)
        }
    }

    private mutating func collectStock(_ document: YAMLDocument, _ fruit: String, _ key: YAMLNode.ID, _ value: YAMLNode.ID) {
        let range = document.range(of: key)
        if let first = stockRanges[fruit] {
            diagnostics.append(Diagnostic(
                .duplicateDefinition, at: range, "stock for '\(fruit)' is set twice",
                notes: [.init(range: first, message: "stock for '\(fruit)' is first set here")],
                help: "keep one stock entry per fruit"
            ))
            return
        }
        stockRanges[fruit] = range
        guard let amount = AmountReader.read(document, value, allowZero: true, what: "stock of '\(fruit)'", into: &diagnostics) else {
            return
        }
        stock.append(StockDeclaration(fruit: fruit, range: range, amount: amount))
    }

    private mutating func collectRecipe(_ document: YAMLDocument, _ id: String, _ key: YAMLNode.ID, _ value: YAMLNode.ID) {
        let ingredients = readIngredients(document, value, owner: "recipe '\(id)'", ownerKey: key)
        if define(id, as: .recipe, index: composites.count, document, key) {
            composites.append(CompositeDeclaration(
                id: id, kind: .recipe, range: document.range(of: key), ingredients: ingredients ?? 0..<0
            ))
        }
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
        if define(id, as: .menuItem, index: composites.count, document, key) {
            composites.append(item)
        }
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
            ingredients.append(IngredientDeclaration(name: name, range: document.range(of: ingredientKey), amount: amount))
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
        definitions.reserveCapacity(definitions.count + entries)
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
                report(.invalidName, document, key, problem,
                       help: RecipeValues.reservedIDs.contains(id) ? "choose another id" : "ids are single words such as 'mango' or 'mango-juice'")
            }
            body(&self, id, key, value)
        }
    }

    /// Registers an id in the one namespace of fruits, recipes and menu items.
    /// Returns false, after reporting, when the id is already taken.
    private mutating func define(_ id: String, as kind: Kind, index: Int, _ document: YAMLDocument, _ key: YAMLNode.ID) -> Bool {
        let range = document.range(of: key)
        if let first = definitions[id] {
            diagnostics.append(Diagnostic(
                .duplicateDefinition, at: range, "'\(id)' is already defined as a \(first.kind.rawValue)",
                notes: [.init(range: self.range(of: first), message: "'\(id)' is first defined here")],
                help: "fruits, recipes and menu items share one namespace; rename one of them"
            ))
            return false
        }
        definitions[id] = Definition(kind: kind, index: index)
        return true
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
