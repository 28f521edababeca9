import JuiceBook
/// Makes menu items from a `FruitStore`, all fruit or none.
///
/// Every order is decided by the maker's `OrderPlanner`, the one author of
/// what an order takes (batches and substitutes included); the maker takes
/// what it decides. A plain book's order is a check over the item's
/// flattened need followed by the take, with no recursion and no string
/// lookups: the planner's fast path, inlined here.
///
/// The simulation, the counter, the planner's days and the editor's hover
/// ask it, `Capacity` or `ShortfallLedger`, which decide through the same
/// planner.
public struct JuiceMaker: Sendable {
    /// What became of one order.
    public enum Outcome: Sendable, Hashable {
        case served
        /// Nothing was taken; every short fruit is listed, in fruit order
        /// (each followed by its substitutes that ran short).
        case refused([Shortage])
    }

    public let book: RecipeBook
    public var store: FruitStore
    /// The one author of what an order takes.
    public let planner: OrderPlanner
    /// The planner's flat needs, for the inlined plain path: stored, not
    /// read through `planner`, whose copy retained and released the tables
    /// around every order (the quiet replay of orders-1m.txt: 40 M
    /// instructions, 4.5%, callgrind).
    @usableFromInline let orders: OrderNeeds
    /// The batches the last order served made, by recipe index in recipe
    /// order (only in a book that keeps servings; empty otherwise). Read
    /// from the last decision when asked: a quiet run never asks.
    public var batchesMade: [OrderPlan.Batch] {
        guard lastServed, planner.batches != nil else { return [] }
        let scratch = draft.scratch
        return scratch.walked.filter { scratch.batches[$0] > 0 }.sorted().map { OrderPlan.Batch(recipe: $0, count: scratch.batches[$0]) }
    }
    /// The substitutes that stood in for the last order served, in the
    /// order drawn; empty when none did.
    public var substitutionsMade: [Substitution] {
        guard lastServed, draft.covered else { return [] }
        return draft.cover.substitutions
    }
    /// Whether orders plan batches (the book keeps servings).
    @inlinable public var keepsServings: Bool { orders.keepsServings }
    /// Whether the last decided order was served: its plan is then in
    /// `draft`, for a `ShortfallLedger` that follows the same stock.
    public private(set) var lastServed = false
    /// Working space for decisions in a book that keeps servings or has
    /// substitutes.
    private(set) var draft: OrderPlanner.Draft
    /// The fruit the orders served took, batches and substitutes included,
    /// by fruit index, saturating at `Int.max`; counted only in a book that
    /// declares costs (empty otherwise), for the run's `fruitCost`.
    public private(set) var fruitTaken: [Int]

    /// A maker for `book` with `store`, the opening stock by default, and
    /// `planner`, the book's (made once per book and shared by every maker
    /// of it, as the planner's runs do) or one made here.
    public init(book: RecipeBook, store: FruitStore? = nil, planner: OrderPlanner? = nil) {
        self.book = book
        self.store = store ?? FruitStore(book: book)
        self.planner = planner ?? OrderPlanner(book: book)
        orders = self.planner.needs
        draft = self.planner.makeDraft()
        fruitTaken = book.declaresCost ? Array(repeating: 0, count: book.fruits.count) : []
    }

    /// Makes one of the menu item at `menuIndex`.
    public mutating func make(_ menuIndex: Int) -> Outcome {
        var short: [Shortage] = []
        return make(menuIndex, shortages: &short) ? .served : .refused(short)
    }

    /// Makes one of the menu item at `menuIndex`; on a refusal the short fruits
    /// are in `short`, whose storage a long run reuses order after order.
    ///
    /// Always inlined into a replay's loop: a plain book's order is a check
    /// and a take, and the call around it was 2% of a JSON Lines replay
    /// (callgrind, orders-1m.txt) once the test for other books was added.
    @inlinable @inline(__always) public mutating func make(_ menuIndex: Int, shortages short: inout [Shortage]) -> Bool {
        if !orders.isPlain { return makeOther(menuIndex, shortages: &short) }
        return store.take(orders.parts, orders.spans[menuIndex], shortages: &short)
    }

    /// An order in a book that keeps servings, has substitutes or counts fruit.
    @usableFromInline mutating func makeOther(_ menuIndex: Int, shortages short: inout [Shortage]) -> Bool {
        if orders.keepsServings || orders.substitutes { return makeDecided(menuIndex, shortages: &short) }
        guard store.take(orders.parts, orders.spans[menuIndex], shortages: &short) else { return false }
        count(menuIndex, times: 1)
        return true
    }

    /// Adds a plain book's order of `menuIndex`, `times` over, to `fruitTaken`.
    private mutating func count(_ menuIndex: Int, times: Int) {
        guard !fruitTaken.isEmpty else { return }
        for index in orders.spans[menuIndex] {
            let part = orders.parts[index]
            fruitTaken[part.fruit] = BatchPlanner.Scratch.saturating(fruitTaken[part.fruit], plus: BatchPlanner.Scratch.saturating(part.amount, times: times))
        }
    }

    /// Makes one of the menu item at `menuIndex`, saying only whether it was
    /// served: no list of short fruits is built for a refusal.
    /// Always inlined, as `make(_:shortages:)` is: a quiet replay's loop.
    @inlinable @inline(__always) public mutating func makeIfAvailable(_ menuIndex: Int) -> Bool {
        if !orders.isPlain {
            var short: [Shortage] = []
            return makeOther(menuIndex, shortages: &short)
        }
        return store.takeIfAvailable(orders.parts, orders.spans[menuIndex])
    }

    /// Makes up to `times` of the menu item at `menuIndex`, one after another
    /// as `makeIfAvailable(_:)` would, and returns how many were served; nil
    /// (nothing made) when the caller must make them one at a time: a need
    /// is not a positive amount, or substitutes may stand in (each order is
    /// then decided on the stock the one before left).
    @inlinable public mutating func makeIfAvailable(_ menuIndex: Int, times: Int) -> Int? {
        if !orders.isPlain { return makeOther(menuIndex, times: times) }
        return store.take(upTo: times, orders.parts, orders.spans[menuIndex])
    }

    /// `times` orders in a book that keeps servings, has substitutes or counts fruit.
    @usableFromInline mutating func makeOther(_ menuIndex: Int, times: Int) -> Int? {
        if orders.substitutes { return nil }
        if orders.keepsServings { return makePlanned(menuIndex, times: times) }
        let served = store.take(upTo: times, orders.parts, orders.spans[menuIndex])
        if let served, served > 0 { count(menuIndex, times: served) }
        return served
    }

    /// The fruits short for one order of the menu item at `menuIndex` from
    /// the stock as it is, in fruit order (each followed by its substitutes
    /// that ran short); empty when it can be made now.
    public func shortages(_ menuIndex: Int) -> [Shortage] {
        var draft = draft
        guard !planner.decide(menuIndex, times: 1, counts: store.counts, servings: store.servings, substituting: true, into: &draft) else { return [] }
        return planner.shortages(draft)
    }

    /// One order decided by the planner: all fruit and batches or nothing.
    @usableFromInline mutating func makeDecided(_ menuIndex: Int, shortages short: inout [Shortage]) -> Bool {
        if !short.isEmpty { short.removeAll(keepingCapacity: true) }
        lastServed = false
        guard planner.decide(menuIndex, times: 1, counts: store.counts, servings: store.servings, substituting: true, into: &draft) else {
            // Most orders are served: the list of short fruits is made only for a refusal.
            short += planner.shortages(draft)
            return false
        }
        take()
        return true
    }

    /// Up to `times` orders in a row in a book that keeps servings (and
    /// has no substitutes): as many as the planner's capacity says,
    /// decided and taken as one.
    @usableFromInline mutating func makePlanned(_ menuIndex: Int, times: Int) -> Int? {
        lastServed = false
        guard times > 0 else { return 0 }
        let served = planner.capacity(menuIndex, counts: store.counts, servings: store.servings, limit: times, draft: &draft) ?? times
        guard served > 0 else { return 0 }
        guard planner.decide(menuIndex, times: served, counts: store.counts, servings: store.servings, substituting: false, into: &draft) else { return 0 }
        take()
        return served
    }

    /// Takes the last decision from the store and notes what it took.
    private mutating func take() {
        if fruitTaken.isEmpty {
            var none: [Int] = []
            planner.apply(draft, to: &store, counting: &none)
        } else {
            planner.apply(draft, to: &store, counting: &fruitTaken)
        }
        lastServed = true
    }

    /// Whether one order of the menu item at `menuIndex` can be made now.
    public func canMake(_ menuIndex: Int) -> Bool {
        shortages(menuIndex).isEmpty
    }

    /// Makes one of the menu item named `id`, or returns nil when the menu has no such item.
    public mutating func make(_ id: String) -> Outcome? {
        book.menuIndex(id).map { make($0) }
    }

    /// What the order of `menu` just served took, read from its decision:
    /// `fruit` hears each fruit taken and how much (substitutes included),
    /// `servings` each recipe whose servings it used or made. Only right
    /// straight after `make` served an order of `menu`; the planner's days
    /// read it to age their lots.
    ///
    /// Inlinable, so that a plain book's order (the flat need) costs the
    /// planner's day a loop over one short array: through two closures
    /// called across the module boundary, `juice-run plan` on the canonical
    /// book took 12.6% more instructions than reading the day's use from
    /// stock differences did (callgrind, docs/benchmarks.md).
    @inlinable public func forEachTaken(
        justServed menu: Int, fruit: (_ fruit: Int, _ amount: Int) -> Void,
        servings: (_ recipe: Int, _ used: Int, _ made: Int) -> Void
    ) {
        guard orders.keepsServings || orders.substitutes else {
            for index in orders.spans[menu] { fruit(orders.parts[index].fruit, orders.parts[index].amount) }
            return
        }
        forEachDecidedTaken(justServed: menu, fruit: fruit, servings: servings)
    }

    /// `forEachTaken` for an order the planner decided (batches or substitutes).
    @usableFromInline func forEachDecidedTaken(
        justServed menu: Int, fruit: (_ fruit: Int, _ amount: Int) -> Void,
        servings: (_ recipe: Int, _ used: Int, _ made: Int) -> Void
    ) {
        if lastServed && draft.covered {
            draft.cover.forEachTaken(fruit)
        } else if lastServed && planner.batches != nil {
            draft.scratch.forEachFruit(fruit)
        } else if orders.spans.indices.contains(menu) {
            for index in orders.spans[menu] { fruit(orders.parts[index].fruit, orders.parts[index].amount) }
        }
        guard lastServed, planner.batches != nil else { return }
        let scratch = draft.scratch
        for recipe in scratch.walked {
            let yield = book.recipes.indices.contains(recipe) ? book.recipes[recipe].yield : 1
            servings(recipe, scratch.demand[recipe], BatchPlanner.Scratch.saturating(scratch.batches[recipe], times: yield))
        }
    }

    /// What `times` orders of the menu item at `menuIndex` take from the
    /// stock as it is now (`OrderPlanner.plan`); nothing is taken.
    public func plan(_ menuIndex: Int, times: Int = 1) -> OrderPlan {
        planner.plan(menuIndex, times: times, against: store)
    }

    /// Makes what `plan` says, all or nothing (`FruitStore.apply`), and
    /// counts its fruit for the run's money.
    public mutating func make(_ plan: OrderPlan) throws(FruitStore.ChangeError) {
        try store.apply(plan)
        lastServed = false
        guard !fruitTaken.isEmpty else { return }
        for taken in plan.fruit where fruitTaken.indices.contains(taken.fruit) {
            fruitTaken[taken.fruit] = BatchPlanner.Scratch.saturating(fruitTaken[taken.fruit], plus: taken.amount)
        }
    }
}
