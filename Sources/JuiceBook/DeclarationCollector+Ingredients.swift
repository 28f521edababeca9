@_spi(Internals) import JuiceYAML
/// A recipe's or a menu item's ingredients: the one place an ingredient
/// is read (`ingredientName`, `readIngredients`).
extension DeclarationCollector {
    /// An ingredient's name, as `keyText` gives it, and its `hashValue`,
    /// which the namespace (`NameTable`) is probed with.
    private mutating func ingredientName(_ document: YAMLDocument, _ key: YAMLNode.ID) -> (String, Int)? {
        guard isScalarKey(document, key) else { return nil }
        let name = document.text(of: key)
        return (name, name.hashValue)
    }

    /// Reads `{ingredient: amount}` into `ingredients` and returns where they
    /// went. Returns nil when the shape is wrong (already reported);
    /// ingredients whose amount is invalid are reported and left out.
    mutating func readIngredients(
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
            guard let (name, nameHash) = ingredientName(document, ingredientKey) else { continue }
            guard let amount = Self.amount(
                document, amountNode, allowZero: false, what: "amount of '\(name)' in \(owner())", into: &diagnostics
            ) else { continue }
            ingredients.append(IngredientDeclaration(
                name: name, nameHash: nameHash, range: document.range(of: ingredientKey), amount: amount,
                spelling: NameSpelling(document, ingredientKey)
            ))
        }
        // The linker renames a misspelt name only to one its recipe does not
        // list; it sees only what is kept here, so where a key was dropped
        // (an invalid amount, a repeat) no name of the recipe gets a fix.
        if ingredients.count - first != node.childCount / 2 || !document.repeats(of: value).isEmpty {
            for index in first..<ingredients.count { ingredients[index].spelling = .other }
        }
        // A repeated ingredient is not added up with the first: its amount is
        // checked and reported, as the rest of a repeat is, and dropped.
        if !document.repeats.isEmpty {
            checkRepeats(document, value) { collector, document, key, amountNode, _ in
                guard let name = collector.keyText(document, key) else { return }
                _ = Self.amount(document, amountNode, allowZero: false, what: "amount of '\(name)' in \(owner())", into: &collector.diagnostics)
            }
        }
        return first..<ingredients.count
    }
}
