/// The linked blends as the recipes and menu items a `RecipeBook` will
/// have, with their ingredients as the book's: what the engine's batch and
/// costing rules read, so that its pass after linking (`BookAnalysisPass`)
/// can judge `never-makeable` and the cost rules without a book.
package struct RecipeLists: Sendable {
    /// Each blend's index among the recipes, or among the menu items.
    package let local: [Int]
    /// Per recipe: its servings per batch and opening servings on hand.
    package var yields: [Int] = []
    package var servings: [Int] = []
    package var recipeIngredients: [[RecipeBook.Ingredient]] = []
    package var menuIngredients: [[RecipeBook.Ingredient]] = []
    /// Each menu item's blend index.
    package var menuBlends: [Int] = []

    init(_ declarations: BookDeclarations, _ edges: Linker.EdgeTable, kinds: [DeclarationKind], servings opening: [Int]) {
        local = Self.localIndices(kinds)
        for (index, blend) in declarations.blends.enumerated() {
            let ingredients = Self.ingredients(of: index, edges, kinds: kinds, local: local)
            if kinds[index] == .recipe {
                yields.append(blend.yield ?? 1)
                servings.append(opening.indices.contains(index) ? opening[index] : 0)
                recipeIngredients.append(ingredients)
            } else {
                menuIngredients.append(ingredients)
                menuBlends.append(index)
            }
        }
    }

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

    /// Blend `index`'s edges as the book's ingredients.
    static func ingredients(of index: Int, _ edges: Linker.EdgeTable, kinds: [DeclarationKind], local: [Int]) -> [RecipeBook.Ingredient] {
        edges[index].map { edge in
            switch edge.target {
            case .fruit(let fruit):
                return RecipeBook.Ingredient(component: .fruit(fruit), amount: edge.amount)
            case .blend(let child):
                let component: RecipeBook.Component = kinds[child] == .recipe ? .recipe(local[child]) : .menuItem(local[child])
                return RecipeBook.Ingredient(component: component, amount: edge.amount)
            }
        }
    }
}

/// The linker's opening stock: fruit by fruit index, servings by blend index.
struct OpeningStock {
    var fruits: [Int]
    var servings: [Int]
    /// Whether some recipe declares a yield or is stocked (`RecipeBook.keepsServings`).
    var keepsServings: Bool
}
