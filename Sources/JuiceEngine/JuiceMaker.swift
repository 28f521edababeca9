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

    /// A maker for `book` with `store`, the opening stock by default.
    public init(book: RecipeBook, store: FruitStore? = nil) {
        self.book = book
        self.store = store ?? FruitStore(book: book)
        orders = OrderNeeds(book: book)
    }

    /// Makes one of the menu item at `menuIndex`.
    public mutating func make(_ menuIndex: Int) -> Outcome {
        var short: [Shortage] = []
        return make(menuIndex, shortages: &short) ? .served : .refused(short)
    }

    /// Makes one of the menu item at `menuIndex`; on a refusal the short fruits
    /// are in `short`, whose storage a long run reuses order after order.
    @inlinable public mutating func make(_ menuIndex: Int, shortages short: inout [Shortage]) -> Bool {
        store.take(orders.parts, orders.spans[menuIndex], shortages: &short)
    }

    /// Makes one of the menu item at `menuIndex`, saying only whether it was
    /// served: no list of short fruits is built for a refusal.
    @inlinable public mutating func makeIfAvailable(_ menuIndex: Int) -> Bool {
        store.takeIfAvailable(orders.parts, orders.spans[menuIndex])
    }

    /// Makes up to `times` of the menu item at `menuIndex`, one after another
    /// as `makeIfAvailable(_:)` would, and returns how many were served; nil
    /// (nothing made) when a need is not a positive amount.
    @inlinable public mutating func makeIfAvailable(_ menuIndex: Int, times: Int) -> Int? {
        store.take(upTo: times, orders.parts, orders.spans[menuIndex])
    }

    /// The fruits short for one order of the menu item at `menuIndex` from
    /// the stock as it is, in fruit order; empty when it can be made now.
    public func shortages(_ menuIndex: Int) -> [Shortage] {
        store.shortages(for: orders.parts, orders.spans[menuIndex])
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
