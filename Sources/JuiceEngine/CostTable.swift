import JuiceBook
/// What one serving of each recipe and menu item costs, exactly, from the
/// fruits' `cost:`: the one home of the costing rule, which the engine, the
/// lint rules (`price-below-cost`, `missing-cost`), the menu card, the run's
/// money and the editor's hover read.
///
/// - A recipe: the sum over its ingredients of amount × the ingredient's
///   cost (a recipe ingredient's cost per serving), divided by its yield.
/// - A menu item: the sum over its ingredients of amount × cost.
///
/// A cost that depends on a fruit with no `cost:` is unknown (nil), never 0
/// and never that fruit left out; `missingFruits` says which fruits. A cost
/// past what `Money` holds is unknown too, with no fruit to blame; the table
/// keeps the two apart, and `recipeCost(_:)` and `menuCost(_:)` say which
/// (`CostFigure`: exact, unknown, or too large to count).
public struct CostTable: Sendable {
    /// Cost per serving by recipe index, and per order by menu index; nil
    /// when unknown for either reason.
    public let recipes: [Money?]
    public let menu: [Money?]
    /// By recipe and by menu index: the fruits without a cost it depends on, in fruit order.
    public let recipeMissing: [[Int]]
    public let menuMissing: [[Int]]
    /// `recipes` and `menu` with the reason for each nil.
    private let recipeFigures: [CostFigure]
    private let menuFigures: [CostFigure]

    /// A recipe's cost per serving: exact, unknown (a fruit it uses has no
    /// cost; `recipeMissing` names them), or too large to count.
    public func recipeCost(_ recipe: Int) -> CostFigure {
        recipeFigures.indices.contains(recipe) ? recipeFigures[recipe] : .unknown
    }

    /// A menu item's cost per order, as `recipeCost(_:)` tells a recipe's.
    public func menuCost(_ item: Int) -> CostFigure {
        menuFigures.indices.contains(item) ? menuFigures[item] : .unknown
    }

    /// - Parameters:
    ///   - fruitCosts: each fruit's cost of one unit, nil where undeclared.
    ///   - yields: each recipe's servings per batch.
    ///   - recipeIngredients, menuIngredients: ingredients per batch and per order.
    public init(
        fruitCosts: [Int?], yields: [Int], recipeIngredients: [[RecipeBook.Ingredient]], menuIngredients: [[RecipeBook.Ingredient]]
    ) {
        // Unknown until worked out; a recipe on a cycle stays so.
        var recipeCosts = [CostFigure](repeating: .unknown, count: yields.count)
        var recipeMissing = [[Int]](repeating: [], count: yields.count)
        // Recipes in an order where each comes after those it uses: a
        // depth-first walk with an explicit stack (a deep book must not
        // exhaust the call stack); a recipe met again while open is on a
        // cycle, which a valid book has none of, and stays unknown.
        var state = [UInt8](repeating: 0, count: yields.count)  // 0 new, 1 open, 2 done
        for root in yields.indices where state[root] == 0 {
            var stack: [(recipe: Int, next: Int)] = [(root, 0)]
            state[root] = 1
            while let top = stack.last {
                let ingredients = recipeIngredients[top.recipe]
                if top.next < ingredients.count {
                    stack[stack.count - 1].next += 1
                    if case .recipe(let child) = ingredients[top.next].component, state.indices.contains(child), state[child] == 0 {
                        state[child] = 1
                        stack.append((child, 0))
                    }
                    continue
                }
                stack.removeLast()
                state[top.recipe] = 2
                let (batch, missing) = Self.sum(ingredients, fruitCosts: fruitCosts, recipes: recipeCosts, recipeMissing: recipeMissing)
                recipeMissing[top.recipe] = missing
                recipeCosts[top.recipe] = batch.map { $0.divided(by: max(yields[top.recipe], 1)) }
            }
        }
        let menu = menuIngredients.map { Self.sum($0, fruitCosts: fruitCosts, recipes: recipeCosts, recipeMissing: recipeMissing) }
        recipeFigures = recipeCosts
        recipes = recipeCosts.map(\.money)
        self.recipeMissing = recipeMissing
        menuFigures = menu.map(\.cost)
        self.menu = menuFigures.map(\.money)
        menuMissing = menu.map(\.missing)
    }

    /// Σ amount × cost over `ingredients`, and the fruits without a cost
    /// behind it; the sum is unknown when any cost is, and too large when it
    /// overflows.
    private static func sum(
        _ ingredients: [RecipeBook.Ingredient], fruitCosts: [Int?], recipes: [CostFigure], recipeMissing: [[Int]]
    ) -> (cost: CostFigure, missing: [Int]) {
        var total = CostFigure.exact(.zero)
        var missing: Set<Int> = []
        for ingredient in ingredients {
            let each: CostFigure
            switch ingredient.component {
            case .fruit(let fruit):
                let cost = fruitCosts.indices.contains(fruit) ? fruitCosts[fruit] : nil
                if cost == nil { missing.insert(fruit) }
                each = cost.map { .exact(Money($0)) } ?? .unknown
            case .recipe(let recipe):
                each = recipes.indices.contains(recipe) ? recipes[recipe] : .unknown
                if recipeMissing.indices.contains(recipe) { missing.formUnion(recipeMissing[recipe]) }
            case .menuItem:
                each = .unknown
            }
            total = total.combined(with: each.map { $0.multiplied(by: ingredient.amount) }) { $0.adding($1) }
        }
        return (missing.isEmpty ? total : .unknown, missing.sorted())
    }
}

extension CostTable {
    /// The table of `book`, when some fruit declares a cost; nil otherwise.
    /// A maker's planner has one (`OrderPlanner.costs`); this is for what
    /// makes no order (the menu card, the editor's hover).
    public init?(book: RecipeBook) {
        guard book.declaresCost else { return nil }
        self.init(
            fruitCosts: book.fruits.map(\.cost), yields: book.recipes.map(\.yield),
            recipeIngredients: book.recipes.map(\.ingredients), menuIngredients: book.menu.map(\.ingredients)
        )
    }
}
