import JuiceBook

/// What a run's served orders cost and earned, exactly, in a book that
/// declares costs (`RecipeBook.costs`); each figure is nil when a cost it
/// needs is unknown, or past what `Money` holds.
public struct RunMoney: Sendable, Hashable {
    /// The fruit the served orders took, batches included, at each fruit's cost.
    /// Unknown when a fruit that was taken has no cost.
    public var fruitCost: Money?
    /// The change in servings on hand from the start of the run to its end
    /// (restocks of recipes included), at each recipe's cost per serving:
    /// batches made now and used later count for this run, not the next.
    /// Unknown when a recipe whose servings changed has an unknown cost.
    public var leftoverValue: Money?
    /// Revenue − fruit cost + leftover value; unknown when any of them is
    /// (no menu item has a price, or a cost is unknown).
    public var grossMargin: Money?

    /// The money of a run that took `fruitTaken`, left `servings` from
    /// `openingServings`, and earned `revenue`.
    init(costs: CostTable, book: RecipeBook, fruitTaken: [Int], openingServings: [Int], servings: [Int], revenue: Revenue?) {
        var fruitCost: Money? = .zero
        for (fruit, taken) in fruitTaken.enumerated() where taken > 0 {
            let cost = book.fruits.indices.contains(fruit) ? book.fruits[fruit].cost : nil
            fruitCost = fruitCost.flatMap { total in cost.flatMap { Money($0).multiplied(by: taken) }.flatMap { total.adding($0) } }
        }
        var leftover: Money? = .zero
        for recipe in servings.indices {
            let opening = openingServings.indices.contains(recipe) ? openingServings[recipe] : 0
            let (change, overflow) = servings[recipe].subtractingReportingOverflow(opening)
            guard change != 0 || overflow else { continue }
            let perServing = costs.recipes.indices.contains(recipe) ? costs.recipes[recipe] : nil
            leftover = overflow ? nil : leftover.flatMap { total in perServing?.multiplied(by: change).flatMap { total.adding($0) } }
        }
        self.fruitCost = fruitCost
        leftoverValue = leftover
        if let revenue = revenue?.exactInt, let fruitCost, let leftover {
            grossMargin = Money(revenue).subtracting(fruitCost).flatMap { $0.adding(leftover) }
        }
    }
}
