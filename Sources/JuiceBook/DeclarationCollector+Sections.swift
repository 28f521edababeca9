@_spi(Internals) import JuiceYAML
/// The sections of a book file: the version, fruits, stock, recipes and
/// menu items, each entry read into the collector's lists.
///
/// Version 2 adds a fruit's `cost:`, `pack:` and `substitutes:`, a recipe's long form
/// (`recipe:`, `yield:`, `label:`) and stock that names recipes. A file that
/// says `version: 1` keeps version 1's meaning: the new keys are errors that
/// say so, a recipe body is always its ingredient map, and stock names fruits
/// only. A file with no version line may use everything.
extension DeclarationCollector {
    /// The versions of the recipe language this collector reads.
    static let versions = ["1", "2"]

    /// Whether the file lets new keys and recipe stock through.
    var allowsVersionTwo: Bool { languageVersion != 1 }

    /// Notes the file's version before its sections are read, since
    /// `version:` may come after them; an invalid one is reported by
    /// `checkVersion` when its turn comes, and counts as none here.
    mutating func readVersion(_ document: YAMLDocument, _ root: YAMLNode.ID) {
        guard document[root].kind == .mapping else { return }
        for (key, value) in document.pairs(of: root) where document.hasText(key, "version") {
            languageVersion = Self.versionNumber(document, value)
        }
    }

    /// 1 or 2 when the node is a plain (or `!!int`) `1` or `2`, else nil.
    private static func versionNumber(_ document: YAMLDocument, _ value: YAMLNode.ID) -> Int? {
        let node = document[value]
        guard (node.style == .plain && !node.hasTag) || document.tag(of: value) == AmountReader.intTag else { return nil }
        for (offset, version) in versions.enumerated() where document.hasText(value, equalTo: version) { return offset + 1 }
        return nil
    }

    mutating func checkVersion(_ document: YAMLDocument, _ value: YAMLNode.ID) {
        guard Self.versionNumber(document, value) == nil else { return }
        let node = document[value]
        let shown = node.kind == .scalar && !node.isNull ? "'\(document.text(of: value))'" : node.kindDescription
        report(.unsupportedVersion, document, value, "unsupported version \(shown)",
               help: "this juice-maker reads recipe language versions 1 and 2; write 'version: 2' or leave it out")
    }

    /// Reports a version 2 key in a `version: 1` file, as an unknown key
    /// whose help says what it needs.
    private mutating func reportNeedsVersionTwo(_ document: YAMLDocument, _ key: YAMLNode.ID, in place: String) {
        let name = document.text(of: key)
        report(.unknownKey, document, key, "unknown key '\(name)' in \(place)",
               help: "'\(name)' is a version 2 key; this file says 'version: 1': write 'version: 2' to use it")
    }

    mutating func collectFruit(_ document: YAMLDocument, _ id: String, _ key: YAMLNode.ID, _ value: YAMLNode.ID) {
        // The record joins the list first and its fields are set there. A
        // local record, captured by the closure below, was copied into the
        // list through its value witness and then destroyed: 100,000 unused
        // fruits with both rules off took 679.2 M instructions, now 651.8 M
        // (callgrind; docs/benchmarks.md).
        let index = fruits.count
        declarations.append(Declared(definition: Definition(kind: .fruit, index: index), idHash: id.hashValue))
        fruits.append(FruitDeclaration(id: id, range: document.range(of: key)))
        var restockNodes: RestockDeclaration?
        let node = document[value]
        if node.kind == .mapping {
            forEachPair(document, value) { collector, document, fieldKey, fieldValue, counts in
                guard collector.isScalarKey(document, fieldKey) else { return }
                if document.hasText(fieldKey, "label") {
                    let label = collector.shown(document, fieldValue, field: "label")
                    if counts { collector.fruits[index].label = label }
                } else if document.hasText(fieldKey, "emoji") {
                    let emoji = collector.shown(document, fieldValue, field: "emoji")
                    if counts { collector.fruits[index].emoji = emoji }
                } else if document.hasText(fieldKey, "cost") || document.hasText(fieldKey, "pack") {
                    guard collector.allowsVersionTwo else {
                        return collector.reportNeedsVersionTwo(document, fieldKey, in: "fruit '\(id)'")
                    }
                    collector.usesVersionTwo = true
                    let isCost = document.hasText(fieldKey, "cost")
                    let amount = Self.amount(
                        document, fieldValue, allowZero: isCost, what: "\(isCost ? "cost" : "pack") of '\(id)'", into: &collector.diagnostics
                    )
                    if counts { if isCost { collector.fruits[index].cost = amount } else { collector.fruits[index].pack = amount } }
                    if counts && isCost { collector.declaresCost = true }
                } else if document.hasText(fieldKey, "substitutes") {
                    guard collector.allowsVersionTwo else { return collector.reportNeedsVersionTwo(document, fieldKey, in: "fruit '\(id)'") }
                    collector.usesVersionTwo = true
                    let substitutes = SubstituteReader.read(document, fieldValue, fruit: id, into: &collector.diagnostics)
                    if counts && !substitutes.isEmpty { (collector.fruits[index].substitutes, collector.declaresSubstitutes) = (substitutes, true) }
                } else if document.hasText(fieldKey, "keeps") || document.hasText(fieldKey, "restock") {
                    guard collector.allowsVersionTwo else {
                        return collector.reportNeedsVersionTwo(document, fieldKey, in: "fruit '\(id)'")
                    }
                    collector.usesVersionTwo = true
                    if document.hasText(fieldKey, "keeps") {
                        let days = Self.amount(document, fieldValue, allowZero: false, what: "keeps of '\(id)'", into: &collector.diagnostics)
                        if counts { collector.fruits[index].keeps = days }
                    } else {
                        let restock = collector.readRestock(document, fieldKey, fieldValue, fruit: id)
                        if counts { restockNodes = restock }
                    }
                } else {
                    let expected = collector.allowsVersionTwo ? Self.fruitKeys : Self.fruitKeys.filter { !Self.versionTwoKeys.contains($0) }
                    collector.reportUnknownKey(
                        document, fieldKey, document.text(of: fieldKey), expected: expected, in: "fruit '\(id)'", mapping: value
                    )
                }
            }
        } else if !node.isNull {
            report(.invalidType, document, value,
                   "fruit '\(id)' must be a mapping or empty, found \(node.kindDescription)",
                   help: "write '\(id): { label: ..., emoji: ... }' or just '\(id):'")
        }
        if let restockNodes { fruits[index].restock = checkRestock(document, restockNodes, fruit: id, pack: fruits[index].pack ?? 1) }
    }

    mutating func collectStock(_ document: YAMLDocument, _ name: String, _ key: YAMLNode.ID, _ value: YAMLNode.ID) {
        let first = stockDiagnostics.count
        let amount = Self.amount(document, value, allowZero: true, what: "stock of '\(name)'", into: &stockDiagnostics)
        stock.append(StockEntry(
            fruit: name, range: document.range(of: key), amount: amount, mayNameRecipe: allowsVersionTwo,
            diagnostics: first..<stockDiagnostics.count
        ))
    }

    mutating func collectRecipe(_ document: YAMLDocument, _ id: String, _ key: YAMLNode.ID, _ value: YAMLNode.ID) {
        var recipe = BlendDeclaration(id: id, kind: .recipe, range: document.range(of: key))
        if allowsVersionTwo && document[value].kind == .mapping
            && document.pairs(of: value).contains(where: { document.hasText($0.0, "recipe") }) {
            usesVersionTwo = true
            collectLongRecipe(document, id, value, into: &recipe)
        } else {
            recipe.ingredients = readIngredients(document, value, owner: "recipe '\(id)'", ownerKey: key) ?? 0..<0
        }
        declarations.append(Declared(definition: Definition(kind: .recipe, index: blends.count), idHash: id.hashValue))
        blends.append(recipe)
    }

    /// A recipe's long form: its ingredients under `recipe:`, with `yield:`
    /// and `label:` beside them.
    private mutating func collectLongRecipe(
        _ document: YAMLDocument, _ id: String, _ value: YAMLNode.ID, into recipe: inout BlendDeclaration
    ) {
        forEachPair(document, value) { collector, document, fieldKey, fieldValue, counts in
            guard collector.isScalarKey(document, fieldKey) else { return }
            if document.hasText(fieldKey, "recipe") {
                let ingredients = collector.readIngredients(document, fieldValue, owner: "recipe '\(id)'", ownerKey: fieldKey)
                if counts {
                    recipe.ingredients = ingredients ?? 0..<0
                } else if let ingredients {
                    collector.leftOut.append(LeftOutDeclaration(
                        blend: BlendDeclaration(id: id, kind: .recipe, range: document.range(of: fieldKey), ingredients: ingredients),
                        notes: []
                    ))
                }
            } else if document.hasText(fieldKey, "yield") {
                let amount = Self.amount(document, fieldValue, allowZero: false, what: "yield of '\(id)'", into: &collector.diagnostics)
                if counts {
                    recipe.yield = amount
                    collector.declaresYield = true
                }
            } else if document.hasText(fieldKey, "label") {
                let label = collector.shown(document, fieldValue, field: "label")
                if counts { recipe.label = label }
            } else if document.hasText(fieldKey, "keeps") {
                let days = Self.amount(document, fieldValue, allowZero: false, what: "keeps of '\(id)'", into: &collector.diagnostics)
                if counts { recipe.keeps = days }
            } else {
                collector.reportUnknownKey(
                    document, fieldKey, document.text(of: fieldKey), expected: Self.recipeKeys, in: "recipe '\(id)'", mapping: value
                )
            }
        }
    }

    mutating func collectMenuItem(_ document: YAMLDocument, _ id: String, _ key: YAMLNode.ID, _ value: YAMLNode.ID) {
        var item = BlendDeclaration(id: id, kind: .menuItem, range: document.range(of: key))
        let node = document[value]
        if node.kind == .mapping {
            var sawRecipe = false
            forEachPair(document, value) { collector, document, fieldKey, fieldValue, counts in
                guard collector.isScalarKey(document, fieldKey) else { return }
                // Keys are told apart by their bytes, making no `String`.
                if document.hasText(fieldKey, "label") {
                    let label = collector.shown(document, fieldValue, field: "label")
                    if counts { item.label = label }
                } else if document.hasText(fieldKey, "price") {
                    let price = Self.amount(document, fieldValue, allowZero: true, what: "price of '\(id)'", into: &collector.diagnostics)
                    if counts { item.price = price }
                } else if document.hasText(fieldKey, "recipe") {
                    let ingredients = collector.readIngredients(document, fieldValue, owner: "menu item '\(id)'", ownerKey: fieldKey)
                    if counts {
                        sawRecipe = true
                        item.ingredients = ingredients ?? 0..<0
                    } else if let ingredients {
                        // Its names are still resolved, as a shadow's.
                        collector.leftOut.append(LeftOutDeclaration(
                            blend: BlendDeclaration(id: id, kind: .menuItem, range: document.range(of: fieldKey), ingredients: ingredients),
                            notes: []
                        ))
                    }
                } else if collector.allowsVersionTwo && document.hasText(fieldKey, "yield") {
                    collector.report(.unknownKey, document, fieldKey, "unknown key 'yield' in menu item '\(id)'",
                                     help: "a menu item has no yield: each order is one serving; put the yield on a recipe it uses")
                } else if collector.allowsVersionTwo && document.hasText(fieldKey, "keeps") {
                    collector.report(.unknownKey, document, fieldKey, "unknown key 'keeps' in menu item '\(id)'",
                                     help: "a menu item is made to order and never kept; put 'keeps' on the fruits and recipes it uses")
                } else {
                    collector.reportUnknownKey(
                        document, fieldKey, document.text(of: fieldKey), expected: Self.menuKeys, in: "menu item '\(id)'", mapping: value
                    )
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
        declarations.append(Declared(definition: Definition(kind: .menuItem, index: blends.count), idHash: id.hashValue))
        blends.append(item)
    }
}
