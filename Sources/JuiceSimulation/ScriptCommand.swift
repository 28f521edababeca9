/// One line of an order script, resolved against a recipe book.
public enum ScriptCommand: Sendable, Hashable {
    /// `MENU-ID` or `MENU-ID xN`: `count` orders, each all-or-nothing.
    case order(menu: Int, count: Int)
    /// `restock FRUIT N`: add N (at least 1).
    case restock(fruit: Int, amount: Int)
    /// `set FRUIT N`: set the stock to N (at least 0), like the app's stepper.
    case set(fruit: Int, amount: Int)
    /// `restock RECIPE N`: add N (at least 1) servings on hand (a book that keeps servings).
    case restockRecipe(recipe: Int, amount: Int)
    /// `set RECIPE N`: set the servings on hand to N (at least 0).
    case setRecipe(recipe: Int, amount: Int)
    /// `stock`: show the stock at this point.
    case stock
}
