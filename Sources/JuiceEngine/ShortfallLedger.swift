import JuiceBook

/// How much more fruit a run needed at its worst moment: the stock of the
/// same run with every order served, kept beside the real one. It answers
/// "what to buy so that no substitute is needed": each order takes what
/// the planner decides without substitutes. Each fruit's
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
    /// The planner's flat needs, for the inlined plain path.
    @usableFromInline let orders: OrderNeeds
    /// In a book that keeps servings: the all-served run's servings on hand,
    /// on which its batches are planned; nil while it follows the real run
    /// (`serve(_:times:alongside:served:)`), whose servings are then these
    /// too. Applying each plan to a second copy was 5% of the batch
    /// benchmark's replay (100,000 orders: 389 M → 370 M instructions),
    /// and it puts "do the two runs still agree" in one place.
    private var servings: [Int]?
    private let planner: OrderPlanner
    private var draft: OrderPlanner.Draft

    /// Follows `maker`'s run from its stock as it is now.
    public init(following maker: JuiceMaker) {
        levels = maker.store.counts.map { Level(count: $0, lowest: $0) }
        orders = maker.orders
        servings = nil
        planner = maker.planner
        draft = planner.makeDraft()
    }

    /// Serves `times` orders of menu item `menu`, short or not, just after
    /// `maker` (the real run) served the first `served` of them: while
    /// this run has served what the real one served, their servings agree,
    /// and the real run's plan is this run's too (planning it again cost as
    /// much as the replay itself in a batch book). From the first refusal
    /// on, this run plans on servings of its own.
    @inlinable public mutating func serve(_ menu: Int, times: Int = 1, alongside maker: borrowing JuiceMaker, served: Int) {
        if orders.keepsServings { return servePlanned(menu, times: times, alongside: maker, served: served) }
        for index in orders.spans[menu] {
            let need = orders.parts[index]
            if times == 1 { levels[need.fruit].take(need.amount) } else { levels[need.fruit].take(need.amount, times: times) }
        }
    }

    @usableFromInline mutating func servePlanned(_ menu: Int, times: Int, alongside maker: borrowing JuiceMaker, served: Int) {
        guard let batches = planner.batches, times > 0 else { return }
        var left = times
        if servings == nil {
            if served > 0 && maker.lastServed {
                // The real run's batch plan, before any substitute stood in.
                take(maker.draft.scratch, batches)
                left -= served
            }
            guard left > 0 else { return }
            // The real run refused the rest: its servings are where this
            // run's stand (planning n orders at once is planning them one
            // after another), and the two part here.
            servings = maker.store.servings
        }
        guard let onHand = servings else { return }
        batches.plan(menu: menu, times: left, onHand: onHand, into: &draft.scratch)
        take(draft.scratch, batches)
    }

    /// Takes a plan's fruit, every fruit at once (its count only falls, so
    /// its lowest is where it ends), and its batches from this run's own
    /// servings, if it has parted from the real run.
    private mutating func take(_ plan: BatchPlanner.Scratch, _ planner: BatchPlanner) {
        plan.forEachFruit { fruit, amount in if levels.indices.contains(fruit) { levels[fruit].take(amount) } }
        guard var own = servings else { return }
        servings = nil  // so that `own` is the array's one reference, changed in place
        planner.apply(plan, to: &own)
        servings = own
    }

    /// Adds `amount` servings of `recipe`, saturating at `Int.max`.
    /// (While this run follows the real one, the real run's is this one's.)
    public mutating func restock(recipe: Int, by amount: Int) {
        guard let have = servings.flatMap({ $0.indices.contains(recipe) ? $0[recipe] : nil }) else { return }
        let (sum, overflow) = have.addingReportingOverflow(amount)
        servings?[recipe] = overflow ? Int.max : sum
    }

    /// Sets `recipe`'s servings on hand to `amount`.
    public mutating func set(recipe: Int, to amount: Int) {
        guard servings?.indices.contains(recipe) == true else { return }
        servings?[recipe] = amount
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
