/// A recipe file's path, as shown to people, and its bytes.
public struct SourceFile: Sendable {
    public let path: String
    public let bytes: [UInt8]

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }
}

/// What compiling a book produced: every diagnostic, and the book when there
/// were no errors.
public struct Compilation: Sendable {
    /// Nil whenever any diagnostic is an error: no graph is built from an invalid book.
    public let book: RecipeBook?
    /// Sorted for output: path, line, column.
    public let diagnostics: [Diagnostic]
    public let fileCount: Int
}

/// Compiles recipe files into a validated `RecipeBook`.
///
/// It runs in stages: YAML documents → declarations (shape, names, amounts) →
/// resolved ingredients → cycle check → flattened needs. Each stage reports every
/// problem it can see and goes on, so one run shows all of them.
public enum RecipeCompiler {
    /// - Parameter analysis: also run the lint analyses (`unused-fruit`,
    ///   `unused-recipe`, `never-makeable`, `missing-stock`), which only ever
    ///   warn or inform. juice-lint wants them; running orders does not.
    /// - Parameter stock: a stock file (`version` and `stock` only) whose
    ///   entries replace the book's opening stock, checked like the book's.
    /// - Parameter book: assemble the `RecipeBook`; the linter, which only
    ///   reports, leaves it out and skips that work.
    public static func compile(_ files: [SourceFile], stock: SourceFile? = nil, analysis: Bool = false, book wantsBook: Bool = true) -> Compilation {
        var collector = DeclarationCollector()
        for file in files {
            let composed = YAMLComposer.compose(bytes: file.bytes, file: file.path)
            collector.diagnostics += composed.diagnostics
            for document in composed.documents {
                collector.collect(document)
            }
        }
        if let stock {
            let composed = YAMLComposer.compose(bytes: stock.bytes, file: stock.path)
            collector.diagnostics += composed.diagnostics
            collector.replaceStock(with: composed.documents)
        }
        var linker = Linker(declarations: collector)
        let book = linker.link(analysis: analysis, assemble: wantsBook)
        let diagnostics = collector.diagnostics + linker.diagnostics
        return Compilation(
            book: diagnostics.containsErrors ? nil : book,
            diagnostics: Diagnostic.sortedForOutput(diagnostics),
            fileCount: files.count + (stock == nil ? 0 : 1)
        )
    }
}

// MARK: - Declarations

/// What a book declares, before names are resolved.
struct DeclarationCollector {
    enum Kind: String {
        case fruit
        case recipe
        case menuItem = "menu item"
    }

    struct Definition {
        var kind: Kind
        /// Index into `fruits` or `composites`.
        var index: Int
        var range: SourceRange
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
        var ingredients: [IngredientDeclaration]
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
                id: id, kind: .recipe, range: document.range(of: key), ingredients: ingredients ?? []
            ))
        }
    }

    private mutating func collectMenuItem(_ document: YAMLDocument, _ id: String, _ key: YAMLNode.ID, _ value: YAMLNode.ID) {
        var item = CompositeDeclaration(id: id, kind: .menuItem, range: document.range(of: key), ingredients: [])
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
                    item.ingredients = readIngredients(document, fieldValue, owner: "menu item '\(id)'", ownerKey: fieldKey) ?? []
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

    /// Reads `{ingredient: amount}`. Returns nil when the shape is wrong (already
    /// reported); ingredients whose amount is invalid are reported and left out.
    private mutating func readIngredients(
        _ document: YAMLDocument, _ value: YAMLNode.ID, owner: @autoclosure () -> String, ownerKey: YAMLNode.ID
    ) -> [IngredientDeclaration]? {
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
        var ingredients: [IngredientDeclaration] = []
        for (ingredientKey, amountNode) in document.pairs(of: value) {
            guard let name = keyText(document, ingredientKey) else { continue }
            guard let amount = AmountReader.read(
                document, amountNode, allowZero: false, what: "amount of '\(name)' in \(owner())", into: &diagnostics
            ) else { continue }
            ingredients.append(IngredientDeclaration(name: name, range: document.range(of: ingredientKey), amount: amount))
        }
        return ingredients
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
        // A section can hold thousands of ids; grow the table once, not by doubling.
        definitions.reserveCapacity(definitions.count + node.childCount / 2)
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
                notes: [.init(range: first.range, message: "'\(id)' is first defined here")],
                help: "fruits, recipes and menu items share one namespace; rename one of them"
            ))
            return false
        }
        definitions[id] = Definition(kind: kind, index: index, range: range)
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

// MARK: - Amounts

/// Reads amounts: whole decimal numbers written plainly, nothing YAML would
/// read as anything else.
enum AmountReader {
    static let intTag = "tag:yaml.org,2002:int"

    /// The amount in `node`, or nil after reporting why it is not one.
    static func read(
        _ document: YAMLDocument, _ value: YAMLNode.ID, allowZero: Bool, what describe: @autoclosure () -> String,
        into diagnostics: inout [Diagnostic]
    ) -> Int? {
        let node = document[value]
        // The fast path, a plain untagged number, builds no message text at all.
        if node.kind == .scalar, node.style == .plain, node.tag == nil,
           case .value(let number) = RecipeValues.wholeNumber(node.value), number > 0 || allowZero {
            return number
        }
        let what = describe()
        let range = document.range(of: value)
        func fail(_ rule: Rule, _ message: String, _ help: String?) -> Int? {
            diagnostics.append(Diagnostic(rule, at: range, message, help: help))
            return nil
        }
        let minimum = allowZero ? "0" : "1"
        guard node.kind == .scalar else {
            return fail(.invalidType, "\(what) must be a whole number, found \(node.kindDescription)", nil)
        }
        if node.isNull {
            return fail(.invalidAmount, "\(what) is missing", "write a whole number of at least \(minimum)")
        }
        let shown = node.value
        if let tag = node.tag, tag != intTag {
            return fail(.invalidAmount, "\(what) is tagged '\(tag)', not a whole number", "remove the tag")
        }
        let parsed = RecipeValues.wholeNumber(node.value)
        if node.tag == nil && node.style != .plain {
            let help: String? = if case .value(let number) = parsed { "remove the quotes: \(number)" } else { nil }
            return fail(.invalidAmount, "\(what) is quoted text '\(shown)', not a number", help ?? "write a whole number without quotes")
        }
        switch parsed {
        case .value(0) where !allowZero:
            return fail(.zeroAmount, "\(what) is 0", "use at least 1, or remove the ingredient")
        case .value(let number):
            return number
        case .negative:
            return fail(.negativeAmount, "\(what) is negative: '\(shown)'", "use a whole number of at least \(minimum)")
        case .leadingZero:
            let digits = node.value.drop { $0 == "0" }
            return fail(.invalidAmount, "\(what) is '\(shown)', with a leading zero that YAML 1.1 reads as octal",
                        "write \(digits.isEmpty ? "0" : String(digits))")
        case .tooLarge:
            return fail(.invalidAmount, "\(what) is '\(shown)', which is too large", "the largest amount is \(Int.max)")
        case .notANumber:
            return fail(.invalidAmount, "\(what) is '\(shown)', not a whole number",
                        "write a whole decimal number of at least \(minimum), with no sign, '_', '.' or exponent")
        }
    }
}
