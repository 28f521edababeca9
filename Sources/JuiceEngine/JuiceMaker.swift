@_spi(Internals) import JuiceSupport
import JuiceDiagnostics
@_spi(Internals) import JuiceYAML
import JuiceBook
/// Makes menu items from a `FruitStore`, all fruit or none.
///
/// It works on a compiled `RecipeBook`: each menu item's need is already
/// flattened to whole fruits, so making one is a check over a short array
/// followed by the take, with no recursion and no string lookups.
///
/// This is the one answer to "what does this order take, and can it be
/// made": the simulation, the counter, capacity and the editor's hover ask
/// it (or `Capacity` and `ShortfallLedger`, which read the same `OrderNeeds`).
public struct JuiceMaker: Sendable {
    /// What became of one order.
    public enum Outcome: Sendable, Hashable {
        case served
        /// Nothing was taken; every short fruit is listed, in fruit order.
        case refused([Shortage])
    }

    public let book: RecipeBook
    public var store: FruitStore
    /// What an order of each menu item takes.
    @usableFromInline let orders: OrderNeeds
    /// The batches the last order served made, by recipe index in recipe
    /// order (only in a book that keeps servings; empty otherwise). Read
    /// from the last plan when asked: a quiet run never asks.
    public var batchesMade: [BatchPlanner.Part] {
        guard lastServed else { return [] }
        return scratch.walked.filter { scratch.batches[$0] > 0 }.sorted().map { BatchPlanner.Part(index: $0, amount: scratch.batches[$0]) }
    }
    /// Whether orders plan batches (the book keeps servings).
    @inlinable public var keepsServings: Bool { orders.keepsServings }
    /// Whether the last planned order was served: its plan is then in
    /// `scratch`, for a `ShortfallLedger` that follows the same stock.
    public private(set) var lastServed = false
    /// Working space for planning orders in a book that keeps servings.
    private(set) var scratch: BatchPlanner.Scratch
    /// The fruit the orders served took, batches included, by fruit index,
    /// saturating at `Int.max`; counted only in a book that declares costs
    /// (empty otherwise), for the run's `fruitCost`.
    public private(set) var fruitTaken: [Int]

    /// A maker for `book` with `store`, the opening stock by default.
    public init(book: RecipeBook, store: FruitStore? = nil) {
        self.book = book
        self.store = store ?? FruitStore(book: book)
        orders = OrderNeeds(book: book)
        scratch = BatchPlanner.Scratch(recipes: book.planner == nil ? 0 : book.recipes.count, fruits: book.planner == nil ? 0 : book.fruits.count)
        fruitTaken = book.costs == nil ? [] : Array(repeating: 0, count: book.fruits.count)
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

    /// An order in a book that keeps servings (planned) or counts fruit.
    @usableFromInline mutating func makeOther(_ menuIndex: Int, shortages short: inout [Shortage]) -> Bool {
        if orders.keepsServings { return makePlanned(menuIndex, shortages: &short) }
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
    /// (nothing made) when a need is not a positive amount.
    @inlinable public mutating func makeIfAvailable(_ menuIndex: Int, times: Int) -> Int? {
        if !orders.isPlain { return makeOther(menuIndex, times: times) }
        return store.take(upTo: times, orders.parts, orders.spans[menuIndex])
    }

    /// `times` orders in a book that keeps servings or counts fruit.
    @usableFromInline mutating func makeOther(_ menuIndex: Int, times: Int) -> Int? {
        if orders.keepsServings { return makePlanned(menuIndex, times: times) }
        let served = store.take(upTo: times, orders.parts, orders.spans[menuIndex])
        if let served, served > 0 { count(menuIndex, times: served) }
        return served
    }

    /// The fruits short for one order of the menu item at `menuIndex` from
    /// the stock as it is, in fruit order; empty when it can be made now.
    public func shortages(_ menuIndex: Int) -> [Shortage] {
        guard orders.keepsServings, let planner = book.planner else { return store.shortages(for: orders.parts, orders.spans[menuIndex]) }
        var scratch = scratch
        planner.plan(menu: menuIndex, onHand: store.servings, into: &scratch)
        return Self.shortages(scratch, store)
    }

    /// The fruits a plan takes beyond `store`, in fruit order.
    private static func shortages(_ scratch: BatchPlanner.Scratch, _ store: FruitStore) -> [Shortage] {
        scratch.touched.sorted().compactMap { fruit in
            scratch.fruit[fruit] > store[fruit] ? Shortage(fruit: fruit, need: scratch.fruit[fruit], have: store[fruit]) : nil
        }
    }

    /// One order in a book that keeps servings: planned on the servings on
    /// hand (`BatchPlanner`), all fruit and batches or nothing.
    @usableFromInline mutating func makePlanned(_ menuIndex: Int, shortages short: inout [Shortage]) -> Bool {
        if !short.isEmpty { short.removeAll(keepingCapacity: true) }
        lastServed = false
        guard let planner = book.planner else { return false }
        planner.plan(menu: menuIndex, onHand: store.servings, into: &scratch)
        // Most orders are served: the list of short fruits is made only for a refusal.
        guard scratch.fits(in: store.counts) else {
            short += Self.shortages(scratch, store)
            return false
        }
        take(planner)
        return true
    }

    /// Up to `times` orders in a row in a book that keeps servings: as many
    /// as the planner's capacity says, planned and taken as one.
    @usableFromInline mutating func makePlanned(_ menuIndex: Int, times: Int) -> Int? {
        lastServed = false
        guard let planner = book.planner, times > 0 else { return 0 }
        let served = planner.capacity(menu: menuIndex, stock: store.counts, onHand: store.servings, limit: times, scratch: &scratch) ?? times
        guard served > 0 else { return 0 }
        planner.plan(menu: menuIndex, times: served, onHand: store.servings, into: &scratch)
        take(planner)
        return served
    }

    /// Takes the plan in `scratch` from the store and notes its batches.
    private mutating func take(_ planner: BatchPlanner) {
        store.takePlanned(scratch)
        if !fruitTaken.isEmpty {
            scratch.forEachFruit { fruit, amount in
                if fruitTaken.indices.contains(fruit) { fruitTaken[fruit] = BatchPlanner.Scratch.saturating(fruitTaken[fruit], plus: amount) }
            }
        }
        planner.apply(scratch, to: &store.servings)
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
}
