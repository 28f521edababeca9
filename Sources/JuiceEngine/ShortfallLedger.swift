import JuiceBook

/// How much more fruit a run needed at its worst moment: the stock of the
/// same run with every order served, kept beside the real one. Each fruit's
/// count may fall below zero; the lowest it reaches, below zero, is its
/// shortfall. Restocks and `set`s move it as they move the real stock.
public struct ShortfallLedger: Sendable {
    /// One fruit's count in the all-served run and the lowest it has been,
    /// side by side, so an order's need touches one array.
    @usableFromInline struct Level: Sendable {
        @usableFromInline var count: Int
        @usableFromInline var lowest: Int

        @inlinable init(count: Int, lowest: Int) {
            self.count = count
            self.lowest = lowest
        }

        /// Takes `amount` as if it were served; the count saturates at `Int.min`.
        @inlinable mutating func take(_ amount: Int) {
            let (value, overflow) = count.subtractingReportingOverflow(amount)
            count = overflow ? Int.min : value
            lowest = min(lowest, count)
        }

        /// Takes a positive `amount` `times` times over, as that many `take`s
        /// would: the count only falls, so its lowest is where it ends.
        @inlinable mutating func take(_ amount: Int, times: Int) {
            let (total, tooMuch) = amount.multipliedReportingOverflow(by: times)
            guard !tooMuch else {
                // Beyond `Int`, the count may still end above `Int.min`: one at a time.
                for _ in 0..<times { take(amount) }
                return
            }
            let (value, overflow) = count.subtractingReportingOverflow(total)
            count = overflow ? Int.min : value
            lowest = min(lowest, count)
        }
    }

    @usableFromInline var levels: [Level]
    @usableFromInline let orders: OrderNeeds
    /// In a book that keeps servings: the all-served run's servings on hand,
    /// on which its batches are planned.
    private var servings: [Int]
    private let planner: BatchPlanner?
    private var scratch: BatchPlanner.Scratch

    /// Follows `maker`'s run from its stock as it is now.
    public init(following maker: JuiceMaker) {
        levels = maker.store.counts.map { Level(count: $0, lowest: $0) }
        orders = maker.orders
        servings = maker.store.servings
        planner = maker.book.planner
        scratch = BatchPlanner.Scratch(recipes: planner?.recipeCount ?? 0, fruits: planner == nil ? 0 : levels.count)
    }

    /// Serves `times` orders of menu item `menu`, short or not.
    @inlinable public mutating func serve(_ menu: Int, times: Int = 1) {
        if orders.keepsServings { return servePlanned(menu, times: times) }
        for index in orders.spans[menu] {
            let need = orders.parts[index]
            if times == 1 { levels[need.fruit].take(need.amount) } else { levels[need.fruit].take(need.amount, times: times) }
        }
    }

    /// `serve` in a book that keeps servings: the orders' plan on this
    /// run's own servings, every fruit taken at once (its count only falls,
    /// so its lowest is where it ends).
    @usableFromInline mutating func servePlanned(_ menu: Int, times: Int) {
        guard let planner, times > 0 else { return }
        planner.plan(menu: menu, times: times, onHand: servings, into: &scratch)
        take(scratch, planner)
    }

    /// `serve` of one order that the real run served from the same
    /// servings, by its plan (`JuiceMaker.scratch`): planning it again would
    /// give the same plan, at twice the cost of a batch book's replay.
    /// Right only while this run and the real one have served the same
    /// orders, which `Simulation` tracks (`isFollowingServed`).
    public mutating func serve(sameAs maker: borrowing JuiceMaker) {
        guard let planner, maker.lastServed else { return }
        take(maker.scratch, planner)
    }

    private mutating func take(_ plan: BatchPlanner.Scratch, _ planner: BatchPlanner) {
        for fruit in plan.touched where levels.indices.contains(fruit) { levels[fruit].take(plan.fruit[fruit]) }
        planner.apply(plan, to: &servings)
    }

    /// Adds `amount` servings of `recipe`, saturating at `Int.max`.
    public mutating func restock(recipe: Int, by amount: Int) {
        guard servings.indices.contains(recipe) else { return }
        let (sum, overflow) = servings[recipe].addingReportingOverflow(amount)
        servings[recipe] = overflow ? Int.max : sum
    }

    /// Sets `recipe`'s servings on hand to `amount`.
    public mutating func set(recipe: Int, to amount: Int) {
        guard servings.indices.contains(recipe) else { return }
        servings[recipe] = amount
    }

    /// Adds `amount` of `fruit`, saturating at `Int.max`.
    public mutating func restock(_ fruit: Int, by amount: Int) {
        let (sum, overflow) = levels[fruit].count.addingReportingOverflow(amount)
        levels[fruit].count = overflow ? (amount > 0 ? Int.max : Int.min) : sum
    }

    /// Sets `fruit`'s count to `amount`.
    public mutating func set(_ fruit: Int, to amount: Int) {
        levels[fruit].count = amount
        levels[fruit].lowest = min(levels[fruit].lowest, amount)
    }

    /// By fruit, how much more the run needed at its worst moment (0 when
    /// it never ran short; `Int.max` past what can be counted).
    public var amounts: [Int] {
        levels.map { $0.lowest >= 0 ? 0 : ($0.lowest == Int.min ? Int.max : -$0.lowest) }
    }
}
