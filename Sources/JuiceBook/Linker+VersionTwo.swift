import JuiceDiagnostics
/// What version 2 asks of the link: one order's plan from the opening
/// servings, for `never-makeable` (`BatchPlanner`), and the cost rules
/// `price-below-cost`, `missing-cost` and `cost-too-large` (`CostTable`).
extension Linker {
    /// By blend index, what one order of each menu item takes from the
    /// opening stock in a book that keeps servings: its plan from the opening
    /// servings, in fruit order; nil where the flattened need is unknown (a
    /// cycle or an overflow, already reported).
    func plannedNeeds(_ lists: RecipeLists, kinds: [DeclarationKind], needs: NeedTable) -> [[RecipeBook.FruitAmount]?] {
        let planner = BatchPlanner(yields: lists.yields, recipeIngredients: lists.recipeIngredients, menuIngredients: lists.menuIngredients)
        var scratch = BatchPlanner.Scratch(recipes: lists.yields.count, fruits: declarations.fruits.count)
        return kinds.indices.map { index in
            guard kinds[index] == .menuItem, needs.span(of: index) != nil else { return nil }
            planner.plan(menu: lists.local[index], onHand: lists.servings, into: &scratch)
            return scratch.touched.sorted().map { RecipeBook.FruitAmount(fruit: $0, amount: scratch.fruit[$0]) }
        }
    }

    /// The rules `reportCosts` judges.
    static let costRules: [Rule] = [.priceBelowCost, .missingCost, .costTooLarge]

    mutating func reportCosts(_ lists: RecipeLists, rulesOff: Set<Rule>) {
        let fruits = declarations.fruits
        let table = CostTable(
            fruitCosts: fruits.map(\.cost), yields: lists.yields, recipeIngredients: lists.recipeIngredients,
            menuIngredients: lists.menuIngredients
        )
        for (item, index) in lists.menuBlends.enumerated() {
            let blend = declarations.blends[index]
            // Priced or not: the menu card shows every item's cost.
            if table.menuCost(item) == .tooLarge {
                if !rulesOff.contains(.costTooLarge) {
                    diagnostics.append(Diagnostic(
                        .costTooLarge, at: blend.range,
                        "the cost of menu item '\(blend.id)' is too large to count",
                        help: "costs are counted exactly up to \(Int.max) of the smallest currency unit; check the fruits' costs and the amounts the item uses"
                    ))
                }
                continue
            }
            guard let price = blend.price else { continue }
            if let cost = table.menu[item] {
                guard !rulesOff.contains(.priceBelowCost), Money(price) < cost else { continue }
                diagnostics.append(Diagnostic(
                    .priceBelowCost, at: blend.range,
                    "menu item '\(blend.id)' is priced \(price), below its cost per serving of \(cost)",
                    help: "raise the price, or check the fruits' costs and the recipes' yields"
                ))
            } else if !rulesOff.contains(.missingCost), !table.menuMissing[item].isEmpty {
                let names = table.menuMissing[item].map { "'\(fruits[$0].id)'" }
                diagnostics.append(Diagnostic(
                    .missingCost, at: blend.range,
                    "the cost of menu item '\(blend.id)' is unknown: \(names.joined(separator: ", ")) \(names.count == 1 ? "has" : "have") no cost",
                    help: "give each fruit it uses a 'cost:'"
                ))
            }
        }
    }
}
