import JuiceBook
import JuiceShop
import JuiceEngine

/// What a run's served orders cost and earned, exactly, in a book that
/// declares costs (`OrderPlanner.costs`); each figure is unknown when a cost
/// it needs is, and too large when it is past what `Money` holds (`CostFigure`).
public struct RunMoney: Sendable, Hashable {
    /// The fruit the served orders took, batches included, at each fruit's cost.
    /// Unknown when a fruit that was taken has no cost.
    public var fruitCost: CostFigure
    /// The change in servings on hand from the start of the run to its end
    /// (restocks of recipes included), at each recipe's cost per serving:
    /// batches made now and used later count for this run, not the next.
    /// Unknown when a recipe whose servings changed has an unknown cost.
    public var leftoverValue: CostFigure
    /// Revenue − fruit cost + leftover value; unknown when any of them is
    /// (no menu item has a price, or a cost is unknown).
    public var grossMargin: CostFigure

    /// The money of a run that took `fruitTaken`, left `servings` from
    /// `openingServings`, and earned `revenue`.
    init(costs: CostTable, book: RecipeBook, fruitTaken: [Int], openingServings: [Int], servings: [Int], revenue: Revenue?) {
        var fruitCost = CostFigure.exact(.zero)
        for (fruit, taken) in fruitTaken.enumerated() where taken > 0 {
            let cost = book.fruits.indices.contains(fruit) ? book.fruits[fruit].cost : nil
            let each = cost.map { CostFigure.exact(Money($0)) } ?? .unknown
            fruitCost = fruitCost.combined(with: each.map { $0.multiplied(by: taken) }) { $0.adding($1) }
        }
        var leftover = CostFigure.exact(.zero)
        for recipe in servings.indices {
            let opening = openingServings.indices.contains(recipe) ? openingServings[recipe] : 0
            let (change, overflow) = servings[recipe].subtractingReportingOverflow(opening)
            guard change != 0 || overflow else { continue }
            let perServing = costs.recipeCost(recipe)
            // A change past 64 bits cannot be counted in Money.
            let value = overflow ? perServing.map { _ in nil } : perServing.map { $0.multiplied(by: change) }
            leftover = leftover.combined(with: value) { $0.adding($1) }
        }
        self.fruitCost = fruitCost
        leftoverValue = leftover
        // No price at all: unknown. A revenue past 64 bits is more than Money holds.
        let earned = revenue.map { CostFigure(checked: $0.exactInt.map { Money($0) }) } ?? .unknown
        grossMargin = earned.combined(with: fruitCost) { $0.subtracting($1) }.combined(with: leftover) { $0.adding($1) }
    }
}
