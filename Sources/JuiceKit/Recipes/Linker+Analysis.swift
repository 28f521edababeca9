/// The checks that find no error but something a shop should know: fruit and
/// recipes nothing uses, menu items the opening stock can never make, fruit
/// with no stock entry.
///
/// They run on the linker's resolved graph rather than on a `RecipeBook`, so
/// the ones that do not depend on the whole graph are reported even when the
/// book has errors elsewhere.
extension Linker {
    mutating func analyse(edges: EdgeTable, needs: NeedTable, openingStock: [Int]) {
        // Reachability needs the whole graph: an ingredient dropped for an error
        // (a zero amount, an unreadable recipe) would make its fruit look unused.
        // Report unused things once the book has no errors.
        if !(declarations.diagnostics + diagnostics).containsErrors {
            reportUnused(edges: edges)
        }
        reportNeverMakeable(needs: needs, openingStock: openingStock)
        reportMissingStock()
    }

    /// Walks from every menu item through recipes, with an explicit stack.
    private mutating func reportUnused(edges: EdgeTable) {
        let composites = declarations.composites
        var usedFruit = [Bool](repeating: false, count: declarations.fruits.count)
        var reached = [Bool](repeating: false, count: composites.count)
        var pending = composites.indices.filter { composites[$0].kind == .menuItem }
        for item in pending { reached[item] = true }
        while let node = pending.popLast() {
            for edge in edges[node] {
                switch edge.target {
                case .fruit(let fruit):
                    usedFruit[fruit] = true
                case .composite(let child) where !reached[child]:
                    reached[child] = true
                    pending.append(child)
                case .composite:
                    break
                }
            }
        }
        for (index, fruit) in declarations.fruits.enumerated() where !usedFruit[index] {
            diagnostics.append(Diagnostic(
                .unusedFruit, at: fruit.range, "fruit '\(fruit.id)' is not used by any menu item",
                help: "use it in a recipe, or remove it from 'fruits'"
            ))
        }
        for index in composites.indices where composites[index].kind == .recipe && !reached[index] {
            let recipe = composites[index]
            diagnostics.append(Diagnostic(
                .unusedRecipe, at: recipe.range, "recipe '\(recipe.id)' is not used by any menu item",
                help: "use it as an ingredient of a menu item, or remove it"
            ))
        }
    }

    private mutating func reportNeverMakeable(needs: NeedTable, openingStock: [Int]) {
        for index in declarations.composites.indices where declarations.composites[index].kind == .menuItem {
            guard let itemNeeds = needs[index], itemNeeds.contains(where: { $0.amount > openingStock[$0.fruit] }) else { continue }
            let item = declarations.composites[index]
            // A fruit whose stock another error hid is not known to be short.
            let short = itemNeeds.filter {
                $0.amount > openingStock[$0.fruit] && !declarations.stockIsUnknown(declarations.fruits[$0.fruit].id)
            }
            if short.isEmpty { continue }
            let detail = short.map { "\($0.amount) '\(declarations.fruits[$0.fruit].id)' (stock \(openingStock[$0.fruit]))" }
            diagnostics.append(Diagnostic(
                .neverMakeable, at: item.range,
                "menu item '\(item.id)' needs \(detail.joined(separator: ", ")), more than the opening stock holds",
                help: "it can be served only after a restock; raise the stock or lower the recipe if that is not intended"
            ))
        }
    }

    private mutating func reportMissingStock() {
        for fruit in declarations.fruits where declarations.stockRanges[fruit.id] == nil && !declarations.stockIsUnknown(fruit.id) {
            diagnostics.append(Diagnostic(
                .missingStock, at: fruit.range, "fruit '\(fruit.id)' has no stock entry, so it starts at 0",
                help: "add '\(fruit.id): 0' under 'stock:' to say so explicitly"
            ))
        }
    }
}
