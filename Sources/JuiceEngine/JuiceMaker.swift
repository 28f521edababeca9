import JuiceSupport
import JuiceSource
import JuiceDiagnostics
import JuiceYAML
import JuiceBook
/// Makes menu items from a `FruitStore`, all fruit or none.
///
/// It works on a compiled `RecipeBook`: each menu item's need is already
/// flattened to whole fruits, so making one is a check over a short array
/// followed by the take, with no recursion and no string lookups.
public struct JuiceMaker: Sendable {
    /// What became of one order.
    public enum Outcome: Sendable, Hashable {
        case served
        /// Nothing was taken; every short fruit is listed, in fruit order.
        case refused([Shortage])
    }

    public let book: RecipeBook
    public var store: FruitStore
    /// Every menu item's `needs` end to end, and where each item's are, so
    /// the engine and the simulation read an order's needs by index (see
    /// `FruitStore.takeIfAvailable(_:_:)`).
    package let needs: [RecipeBook.FruitAmount]
    package let needSpans: [Range<Int>]

    /// A maker for `book` with `store`, the opening stock by default.
    public init(book: RecipeBook, store: FruitStore? = nil) {
        self.book = book
        self.store = store ?? FruitStore(book: book)
        var needs: [RecipeBook.FruitAmount] = []
        needSpans = book.menu.map { item in
            let start = needs.count
            needs.append(contentsOf: item.needs)
            return start..<needs.count
        }
        self.needs = needs
    }

    /// Makes one of the menu item at `menuIndex`.
    public mutating func make(_ menuIndex: Int) -> Outcome {
        let short = store.take(book.menu[menuIndex].needs)
        return short.isEmpty ? .served : .refused(short)
    }

    /// Makes one of the menu item at `menuIndex`; on a refusal the short fruits
    /// are in `short`, whose storage a long run reuses order after order.
    public mutating func make(_ menuIndex: Int, shortages short: inout [Shortage]) -> Bool {
        store.take(needs, needSpans[menuIndex], shortages: &short)
    }

    /// Makes one of the menu item at `menuIndex`, saying only whether it was
    /// served: no list of short fruits is built for a refusal.
    public mutating func makeIfAvailable(_ menuIndex: Int) -> Bool {
        store.takeIfAvailable(needs, needSpans[menuIndex])
    }

    /// Makes up to `times` of the menu item at `menuIndex`, one after another
    /// as `makeIfAvailable(_:)` would, and returns how many were served; nil
    /// (nothing made) when a need is not a positive amount.
    public mutating func makeIfAvailable(_ menuIndex: Int, times: Int) -> Int? {
        store.take(upTo: times, needs, needSpans[menuIndex])
    }

    /// Makes one of the menu item named `id`, or returns nil when the menu has no such item.
    public mutating func make(_ id: String) -> Outcome? {
        book.menuIndex(id).map { make($0) }
    }
}
