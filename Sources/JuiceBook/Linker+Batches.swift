@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics
@_spi(Internals) import JuiceYAML
/// The book's edges as recipes and menu items, for the assembly and for
/// planning batches before there is a book.
extension Linker {
    /// Each composite's index among the recipes, or among the menu items.
    static func localIndices(_ kinds: [DeclarationKind]) -> [Int] {
        var local = [Int](repeating: 0, count: kinds.count)
        var recipes = 0, menuItems = 0
        for (index, kind) in kinds.enumerated() {
            if kind == .recipe {
                local[index] = recipes
                recipes += 1
            } else {
                local[index] = menuItems
                menuItems += 1
            }
        }
        return local
    }

    /// Composite `index`'s edges as the book's ingredients.
    static func ingredients(of index: Int, _ edges: EdgeTable, kinds: [DeclarationKind], local: [Int]) -> [RecipeBook.Ingredient] {
        edges[index].map { edge in
            switch edge.target {
            case .fruit(let fruit):
                return RecipeBook.Ingredient(component: .fruit(fruit), amount: edge.amount)
            case .composite(let child):
                let component: RecipeBook.Component = kinds[child] == .recipe ? .recipe(local[child]) : .menuItem(local[child])
                return RecipeBook.Ingredient(component: component, amount: edge.amount)
            }
        }
    }

    /// What one order of each menu item takes from the opening stock in a
    /// book that keeps servings: its `BatchPlanner` plan from the opening
    /// servings, in fruit order, by composite index; nil where the
    /// flattened need is unknown (a cycle or an overflow, already reported).
    func plannedNeeds(_ edges: EdgeTable, kinds: [DeclarationKind], needs: NeedTable, opening: OpeningStock) -> [[RecipeBook.FruitAmount]?] {
        let local = Self.localIndices(kinds)
        var yields: [Int] = [], servings: [Int] = []
        var recipeIngredients: [[RecipeBook.Ingredient]] = [], menuIngredients: [[RecipeBook.Ingredient]] = []
        for (index, composite) in declarations.composites.enumerated() {
            let ingredients = Self.ingredients(of: index, edges, kinds: kinds, local: local)
            if kinds[index] == .recipe {
                yields.append(composite.yield ?? 1)
                servings.append(opening.servings.indices.contains(index) ? opening.servings[index] : 0)
                recipeIngredients.append(ingredients)
            } else {
                menuIngredients.append(ingredients)
            }
        }
        let planner = BatchPlanner(yields: yields, recipeIngredients: recipeIngredients, menuIngredients: menuIngredients)
        var scratch = BatchPlanner.Scratch(recipes: yields.count, fruits: declarations.fruits.count)
        return kinds.indices.map { index in
            guard kinds[index] == .menuItem, needs.span(of: index) != nil else { return nil }
            planner.plan(menu: local[index], onHand: servings, into: &scratch)
            return scratch.touched.sorted().map { RecipeBook.FruitAmount(fruit: $0, amount: scratch.fruit[$0]) }
        }
    }
}
