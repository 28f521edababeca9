import JuiceDiagnostics
import JuiceBook
/// What version 2 asks of the pass: one order's plan from the opening
/// servings, for `never-makeable` (`BatchPlanner`), and the cost rules
/// `price-below-cost`, `missing-cost` and `cost-too-large` (`CostTable`).
extension OpeningStockAnalysis {
    /// By blend index, what one order of each menu item takes from the
    /// opening stock in a book that keeps servings: its plan from the opening
    /// servings, in fruit order; nil where the flattened need is unknown (a
    /// cycle or an overflow, already reported).
    func plannedNeeds(_ lists: RecipeLists, _ link: LinkFacts) -> [[RecipeBook.FruitAmount]?] {
        let planner = BatchPlanner(yields: lists.yields, recipeIngredients: lists.recipeIngredients, menuIngredients: lists.menuIngredients)
        var scratch = BatchPlanner.Scratch(recipes: lists.yields.count, fruits: link.fruitCount)
        let kinds = link.kinds
        return kinds.indices.map { index in
            guard kinds[index] == .menuItem, link.needIsKnown(index) else { return nil }
            planner.plan(menu: lists.local[index], onHand: lists.servings, into: &scratch)
            return scratch.touched.sorted().map { RecipeBook.FruitAmount(fruit: $0, amount: scratch.fruit[$0]) }
        }
    }

    func reportCosts(_ link: LinkFacts, _ lists: RecipeLists, into diagnostics: inout [Diagnostic]) {
        let rulesOff = link.rulesOff
        let table = CostTable(
            fruitCosts: link.fruitCosts(), yields: lists.yields, recipeIngredients: lists.recipeIngredients,
            menuIngredients: lists.menuIngredients
        )
        for (item, index) in lists.menuBlends.enumerated() {
            // Priced or not: the menu card shows every item's cost.
            if table.menuCost(item) == .tooLarge {
                if !rulesOff.contains(.costTooLarge) {
                    diagnostics.append(Diagnostic(
                        .costTooLarge, at: link.blendRange(index),
                        "the cost of menu item '\(link.blendID(index))' is too large to count",
                        help: "costs are counted exactly up to \(Int.max) of the smallest currency unit; check the fruits' costs and the amounts the item uses"
                    ))
                }
                continue
            }
            guard let price = link.blendPrice(index) else { continue }
            if let cost = table.menu[item] {
                guard !rulesOff.contains(.priceBelowCost), Money(price) < cost else { continue }
                diagnostics.append(Diagnostic(
                    .priceBelowCost, at: link.blendRange(index),
                    "menu item '\(link.blendID(index))' is priced \(price), below its cost per serving of \(cost)",
                    help: "raise the price, or check the fruits' costs and the recipes' yields"
                ))
            } else if !rulesOff.contains(.missingCost), !table.menuMissing[item].isEmpty {
                let names = table.menuMissing[item].map { "'\(link.fruitID($0))'" }
                diagnostics.append(Diagnostic(
                    .missingCost, at: link.blendRange(index),
                    "the cost of menu item '\(link.blendID(index))' is unknown: \(names.joined(separator: ", ")) \(names.count == 1 ? "has" : "have") no cost",
                    help: "give each fruit it uses a 'cost:'"
                ))
            }
        }
    }
}
