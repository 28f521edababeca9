import JuiceBook

/// The one author of what an order takes: `decide` is the only function
/// that says whether an order can be made from a stock and what it takes,
/// and `plan` hands that answer out as an `OrderPlan`.
///
/// The decision, in the order it is made:
/// 1. What the order needs of each fruit: in a book that keeps servings,
///    the batch rule's plan from the servings on hand (`BatchPlanner`);
///    otherwise the item's flattened need × the number of orders (the
///    flat needs, `OrderNeeds`: the plain book's fast path).
/// 2. If the stock holds all of it, that is what the order takes.
/// 3. Otherwise the substitutes rule covers what is short, or lists it
///    (`SubstituteCover`): the order is refused, all or nothing.
///
/// Built once per maker from its book. Everything outside the engine asks
/// a `JuiceMaker` (make, can-make, shortages, plans), `Capacity` or a
/// `ShortfallLedger`, which all decide through here.
public struct OrderPlanner: Sendable {
    /// Every menu item's flattened need, for the plain book's fast path.
    @usableFromInline let needs: OrderNeeds
    /// The batch rule, in a book that keeps servings.
    @usableFromInline let batches: BatchPlanner?
    /// By fruit index, the fruits that may stand in for it; empty when the
    /// book declares no substitutes.
    let substitutes: [[RecipeBook.Substitute]]
    /// Servings per batch, by recipe index.
    let yields: [Int]
    /// Each fruit's cost of one unit, for a plan's cost.
    let fruitCosts: [Int?]
    let fruitCount: Int
    /// Cost per serving of every recipe and menu item, when some fruit
    /// declares a cost (`RecipeBook.declaresCost`); nil otherwise, so a book
    /// without costs pays nothing for them. Made once per book, here.
    public let costs: CostTable?

    public init(book: RecipeBook) {
        needs = OrderNeeds(book: book)
        batches = book.keepsServings ? BatchPlanner(book: book) : nil
        costs = CostTable(book: book)
        substitutes = book.declaresSubstitutes ? book.fruits.map(\.substitutes) : []
        yields = book.recipes.map(\.yield)
        fruitCosts = book.fruits.map(\.cost)
        fruitCount = book.fruits.count
    }

    /// Whether some fruit of the book may stand in for another.
    @inlinable public var declaresSubstitutes: Bool { needs.substitutes }
    /// Whether orders plan batches (the book keeps servings).
    @inlinable public var keepsServings: Bool { needs.keepsServings }

    /// Working space for decisions, reused order after order.
    struct Draft: Sendable {
        var scratch: BatchPlanner.Scratch
        var cover: SubstituteCover
        /// Whether the last decision went through the cover: the stock did
        /// not hold all the order's own fruit.
        var covered = false
        var fits = false
        var menu = 0
        var times = 0
    }

    func makeDraft() -> Draft {
        Draft(
            scratch: BatchPlanner.Scratch(recipes: batches == nil ? 0 : yields.count, fruits: batches == nil ? 0 : fruitCount),
            cover: SubstituteCover(fruits: fruitCount)
        )
    }

    /// Decides `times` orders of menu item `menu` (planned as one, which is
    /// what as many orders one after another take when no substitute is
    /// drawn) against the stock `counts` (by fruit) and `servings` (by
    /// recipe), with substitutes when `substituting`; the answer is left in
    /// `draft`. Returns whether the stock serves them.
    func decide(_ menu: Int, times: Int, counts: [Int], servings: [Int], substituting: Bool, into draft: inout Draft) -> Bool {
        draft.menu = menu
        draft.times = times
        draft.covered = false
        if let batches {
            batches.plan(menu: menu, times: times, onHand: servings, into: &draft.scratch)
            if draft.scratch.fits(in: counts) {
                draft.fits = true
                return true
            }
            draft.cover.begin()
            draft.scratch.forEachFruit { fruit, amount in draft.cover.require(fruit, amount) }
        } else {
            let span = needs.spans.indices.contains(menu) ? needs.spans[menu] : 0..<0
            var fits = true
            for index in span {
                let need = needs.parts[index]
                if SubstituteCover.saturating(need.amount, times: times) > (counts.indices.contains(need.fruit) ? counts[need.fruit] : 0) {
                    fits = false
                    break
                }
            }
            if fits {
                draft.fits = true
                return true
            }
            draft.cover.begin()
            for index in span {
                let need = needs.parts[index]
                draft.cover.require(need.fruit, SubstituteCover.saturating(need.amount, times: times))
            }
        }
        draft.covered = true
        draft.fits = draft.cover.cover(stock: counts, substitutes: substituting ? substitutes : [])
        return draft.fits
    }

    /// The fruit the last decision (which fit) takes from `counts`, in
    /// fruit order.
    func fruitTaken(_ draft: Draft, from counts: [Int]) -> [RecipeBook.FruitAmount] {
        if draft.covered { return draft.cover.taken(from: counts) }
        if batches != nil {
            let scratch = draft.scratch
            return scratch.touched.sorted().map { RecipeBook.FruitAmount(fruit: $0, amount: scratch.fruit[$0]) }
        }
        guard needs.spans.indices.contains(draft.menu) else { return [] }
        return needs.spans[draft.menu].map { index in
            let need = needs.parts[index]
            return RecipeBook.FruitAmount(fruit: need.fruit, amount: need.amount * draft.times)  // it fit, so no overflow
        }
    }

    /// Takes what the last decision (which fit) says from `store`: its
    /// fruit, and in a book that keeps servings, its batches and servings.
    /// Each fruit taken is added to `taken` (by fruit, saturating), unless
    /// it is empty.
    func apply(_ draft: Draft, to store: inout FruitStore, counting taken: inout [Int]) {
        if draft.covered {
            draft.cover.apply(to: &store.counts, counting: &taken)
        } else if batches != nil {
            store.takePlanned(draft.scratch)
            if !taken.isEmpty { draft.scratch.forEachFruit { fruit, amount in Self.count(fruit, amount, into: &taken) } }
        } else if needs.spans.indices.contains(draft.menu) {
            for index in needs.spans[draft.menu] {
                let need = needs.parts[index]
                store.counts[need.fruit] -= need.amount * draft.times  // it fit, so no overflow
                Self.count(need.fruit, need.amount * draft.times, into: &taken)
            }
        }
        batches?.apply(draft.scratch, to: &store.servings)
    }

    private static func count(_ fruit: Int, _ amount: Int, into taken: inout [Int]) {
        guard taken.indices.contains(fruit) else { return }
        taken[fruit] = SubstituteCover.saturating(taken[fruit], plus: amount)
    }

    /// The shortages of the last decision: empty when it fit.
    func shortages(_ draft: Draft) -> [Shortage] {
        draft.fits ? [] : draft.cover.shortages
    }

    /// The last decision as a value, made against `store` (the stock before it).
    func plan(_ draft: Draft, against store: FruitStore) -> OrderPlan {
        guard draft.fits else {
            return OrderPlan(
                menu: draft.menu, times: draft.times, fruit: [], batches: [], servings: [], substitutions: [],
                shortages: draft.cover.shortages, cost: nil)
        }
        let fruit = fruitTaken(draft, from: store.counts)
        var batchList: [OrderPlan.Batch] = []
        var servings: [OrderPlan.Servings] = []
        if batches != nil {
            let scratch = draft.scratch
            for recipe in scratch.walked.sorted() {
                let made = SubstituteCover.saturating(scratch.batches[recipe], times: yields.indices.contains(recipe) ? yields[recipe] : 1)
                if scratch.batches[recipe] > 0 { batchList.append(OrderPlan.Batch(recipe: recipe, count: scratch.batches[recipe])) }
                let before = store.servings.indices.contains(recipe) ? store.servings[recipe] : 0
                let left = SubstituteCover.saturating(before, plus: made) - scratch.demand[recipe]
                servings.append(OrderPlan.Servings(recipe: recipe, used: scratch.demand[recipe], made: made, left: left))
            }
        }
        return OrderPlan(
            menu: draft.menu, times: draft.times, fruit: fruit, batches: batchList, servings: servings,
            substitutions: draft.covered ? draft.cover.substitutions : [], shortages: [], cost: cost(of: fruit))
    }

    /// What `fruit` costs, exactly; nil when a fruit in it has no cost or
    /// the sum is past what `Money` holds.
    func cost(of fruit: [RecipeBook.FruitAmount]) -> Money? {
        var total: Money? = .zero
        for taken in fruit {
            let each = fruitCosts.indices.contains(taken.fruit) ? fruitCosts[taken.fruit] : nil
            total = total.flatMap { sum in each.flatMap { Money($0).multiplied(by: taken.amount) }.flatMap { sum.adding($0) } }
        }
        return total
    }

    /// The plan of `times` orders of `menu` (at least 1) one after another
    /// against `store`: the one answer to "what do these orders take",
    /// served all together or refused all together.
    ///
    /// With substitutes, each order is planned on the stock the one before
    /// left (which fruit is short, and so what stands in, can change from
    /// one order to the next); without, the orders are one decision.
    public func plan(_ menu: Int, times: Int = 1, against store: FruitStore) -> OrderPlan {
        var draft = makeDraft()
        let times = max(times, 1)
        guard declaresSubstitutes && times > 1 else {
            _ = decide(menu, times: times, counts: store.counts, servings: store.servings, substituting: true, into: &draft)
            return plan(draft, against: store)
        }
        var after = store
        var plans: [OrderPlan] = []
        for _ in 0..<times {
            guard decide(menu, times: 1, counts: after.counts, servings: after.servings, substituting: true, into: &draft) else {
                let refused = plan(draft, against: after)
                return OrderPlan(
                    menu: menu, times: times, fruit: [], batches: [], servings: [], substitutions: [], shortages: refused.shortages, cost: nil)
            }
            plans.append(plan(draft, against: after))
            var none: [Int] = []
            apply(draft, to: &after, counting: &none)
        }
        return OrderPlan(combining: plans, menu: menu, times: times, from: store, to: after, cost: cost(of:))
    }
}

extension OrderPlan {
    /// Orders one after another as one plan: their fruit, batches and
    /// servings added up, their substitutions in order.
    init(combining plans: [OrderPlan], menu: Int, times: Int, from before: FruitStore, to after: FruitStore,
         cost: ([RecipeBook.FruitAmount]) -> Money?) {
        var fruit: [Int: Int] = [:], batches: [Int: Int] = [:], used: [Int: Int] = [:], made: [Int: Int] = [:]
        var substitutions: [Substitution] = []
        for plan in plans {
            for taken in plan.fruit { fruit[taken.fruit, default: 0] += taken.amount }
            for batch in plan.batches { batches[batch.recipe, default: 0] += batch.count }
            for serving in plan.servings {
                used[serving.recipe, default: 0] += serving.used
                made[serving.recipe, default: 0] += serving.made
            }
            substitutions += plan.substitutions
        }
        let fruitList = fruit.keys.sorted().map { RecipeBook.FruitAmount(fruit: $0, amount: fruit[$0] ?? 0) }
        self.init(
            menu: menu, times: times, fruit: fruitList,
            batches: batches.keys.sorted().map { OrderPlan.Batch(recipe: $0, count: batches[$0] ?? 0) },
            servings: used.keys.sorted().map { recipe in
                OrderPlan.Servings(recipe: recipe, used: used[recipe] ?? 0, made: made[recipe] ?? 0, left: after.servings.indices.contains(recipe) ? after.servings[recipe] : 0)
            },
            substitutions: substitutions, shortages: [], cost: cost(fruitList))
    }
}
