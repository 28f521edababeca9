
/// Making and undoing an `OrderPlan`: the only changes of stock an order
/// makes, and their exact inverse, which a journal that voids an order needs.
extension FruitStore {
    /// Takes what `plan` says: its fruit, and the servings it uses less
    /// those its batches make. All or nothing: a plan that is refused, or
    /// that this stock no longer serves (it was made against another),
    /// throws and changes nothing.
    public mutating func apply(_ plan: OrderPlan) throws(ChangeError) {
        guard plan.isServable else { throw .notEnough(have: plan.shortages.first?.have ?? 0) }
        var next = self
        for taken in plan.fruit {
            guard next.counts.indices.contains(taken.fruit) else { throw .unknownFruit }
            guard taken.amount >= 0 else { throw .amountTooSmall(minimum: 0) }
            let have = next.counts[taken.fruit]
            guard taken.amount <= have else { throw .notEnough(have: have) }
            next.counts[taken.fruit] = have - taken.amount
        }
        for change in plan.servings {
            guard next.servings.indices.contains(change.recipe) else { throw .unknownFruit }
            let have = next.servings[change.recipe]
            let (gained, overflow) = have.addingReportingOverflow(change.made)
            guard !overflow else { throw .overflow }
            guard change.used <= gained else { throw .notEnough(have: have) }
            next.servings[change.recipe] = gained - change.used
        }
        self = next
    }

    /// Puts back what applying `plan` took: its fruit, and the servings it
    /// used less those its batches made. After `apply(plan)`, `undo(plan)`
    /// gives the stock before exactly (a property test holds it so). All or
    /// nothing: a change past `Int` or below zero throws and changes nothing.
    public mutating func undo(_ plan: OrderPlan) throws(ChangeError) {
        guard plan.isServable else { return }
        var next = self
        for taken in plan.fruit {
            guard next.counts.indices.contains(taken.fruit) else { throw .unknownFruit }
            let (sum, overflow) = next.counts[taken.fruit].addingReportingOverflow(taken.amount)
            guard !overflow else { throw .overflow }
            next.counts[taken.fruit] = sum
        }
        for change in plan.servings {
            guard next.servings.indices.contains(change.recipe) else { throw .unknownFruit }
            let (restored, overflow) = next.servings[change.recipe].addingReportingOverflow(change.used)
            guard !overflow else { throw .overflow }
            guard change.made <= restored else { throw .notEnough(have: next.servings[change.recipe]) }
            next.servings[change.recipe] = restored - change.made
        }
        self = next
    }
}
