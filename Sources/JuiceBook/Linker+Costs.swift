@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics
@_spi(Internals) import JuiceYAML
/// The cost rules of version 2: `price-below-cost` and `missing-cost`,
/// judged by the one costing rule (`CostTable`).
extension Linker {
    mutating func reportCosts(_ edges: EdgeTable, kinds: [DeclarationKind], rulesOff: Set<Rule>) {
        let local = Self.localIndices(kinds)
        var yields: [Int] = []
        var recipeIngredients: [[RecipeBook.Ingredient]] = [], menuIngredients: [[RecipeBook.Ingredient]] = []
        var menuComposites: [Int] = []
        for (index, composite) in declarations.composites.enumerated() {
            let ingredients = Self.ingredients(of: index, edges, kinds: kinds, local: local)
            if kinds[index] == .recipe {
                yields.append(composite.yield ?? 1)
                recipeIngredients.append(ingredients)
            } else {
                menuIngredients.append(ingredients)
                menuComposites.append(index)
            }
        }
        let fruits = declarations.fruits
        let table = CostTable(
            fruitCosts: fruits.map(\.cost), yields: yields, recipeIngredients: recipeIngredients, menuIngredients: menuIngredients
        )
        for (item, index) in menuComposites.enumerated() {
            let composite = declarations.composites[index]
            guard let price = composite.price else { continue }
            if let cost = table.menu[item] {
                guard !rulesOff.contains(.priceBelowCost), Money(price) < cost else { continue }
                diagnostics.append(Diagnostic(
                    .priceBelowCost, at: composite.range,
                    "menu item '\(composite.id)' is priced \(price), below its cost per serving of \(cost)",
                    help: "raise the price, or check the fruits' costs and the recipes' yields"
                ))
            } else if !rulesOff.contains(.missingCost), !table.menuMissing[item].isEmpty {
                let names = table.menuMissing[item].map { "'\(fruits[$0].id)'" }
                diagnostics.append(Diagnostic(
                    .missingCost, at: composite.range,
                    "the cost of menu item '\(composite.id)' is unknown: \(names.joined(separator: ", ")) \(names.count == 1 ? "has" : "have") no cost",
                    help: "give each fruit it uses a 'cost:'"
                ))
            }
        }
    }
}
