/// Fruit stock, densely indexed by a `RecipeBook`'s fruit indices.
///
/// Every change is checked: stock never goes below zero and never overflows,
/// and a change that would break either rule leaves the stock as it was.
public struct FruitStore: Sendable, Hashable {
    /// Why a change was refused; the stock is then as it was.
    public enum ChangeError: Error, Equatable, Sendable {
        /// The amount was below the least the change allows.
        case amountTooSmall(minimum: Int)
        /// The result would not fit in an `Int`.
        case overflow
        /// The fruit index is not one of the book's fruits.
        case unknownFruit
        /// Taking the amount would leave less than zero; `have` is the count there is.
        case notEnough(have: Int)
    }

    public private(set) var counts: [Int]

    /// A stock of `counts` by fruit index.
    public init(counts: [Int]) {
        self.counts = counts
    }

    /// The opening stock of a book.
    public init(book: RecipeBook) {
        self.init(counts: book.openingStock)
    }

    public subscript(fruit: Int) -> Int { counts.indices.contains(fruit) ? counts[fruit] : 0 }

    /// Adds `amount` (at least 1) and returns the new count.
    @discardableResult
    public mutating func restock(_ fruit: Int, by amount: Int) throws(ChangeError) -> Int {
        guard counts.indices.contains(fruit) else { throw .unknownFruit }
        guard amount >= 1 else { throw .amountTooSmall(minimum: 1) }
        let (sum, overflow) = counts[fruit].addingReportingOverflow(amount)
        guard !overflow else { throw .overflow }
        counts[fruit] = sum
        return sum
    }

    /// Sets the count to `amount` (at least 0).
    public mutating func set(_ fruit: Int, to amount: Int) throws(ChangeError) {
        guard counts.indices.contains(fruit) else { throw .unknownFruit }
        guard amount >= 0 else { throw .amountTooSmall(minimum: 0) }
        counts[fruit] = amount
    }

    /// The fruits short for `needs`, with how much each needs and has; empty
    /// when every need is met.
    public func shortages(for needs: [RecipeBook.FruitAmount]) -> [Shortage] {
        var short: [Shortage] = []
        collectShortages(for: needs, into: &short)
        return short
    }

    /// Appends each short fruit to `short`, so a caller can reuse one list.
    private func collectShortages(for needs: [RecipeBook.FruitAmount], into short: inout [Shortage]) {
        for need in needs where self[need.fruit] < need.amount {
            short.append(Shortage(fruit: need.fruit, need: need.amount, have: self[need.fruit]))
        }
    }

    /// Takes every need and returns true, or takes nothing, lists the short
    /// fruits in `short` (emptied first, its storage reused) and returns false.
    mutating func take(_ needs: [RecipeBook.FruitAmount], shortages short: inout [Shortage]) -> Bool {
        short.removeAll(keepingCapacity: true)
        collectShortages(for: needs, into: &short)
        guard short.isEmpty else { return false }
        for need in needs { counts[need.fruit] -= need.amount }
        return true
    }

    /// Takes every need and returns true, or takes nothing and returns false.
    /// Allocates nothing, for runs that only count refusals.
    mutating func takeIfAvailable(_ needs: [RecipeBook.FruitAmount]) -> Bool {
        for need in needs where self[need.fruit] < need.amount { return false }
        for need in needs { counts[need.fruit] -= need.amount }
        return true
    }

    /// Takes every need, or nothing when any fruit is short; returns the short fruits.
    mutating func take(_ needs: [RecipeBook.FruitAmount]) -> [Shortage] {
        var short: [Shortage] = []
        _ = take(needs, shortages: &short)
        return short
    }
}

/// One fruit an order lacked.
public struct Shortage: Sendable, Hashable {
    public let fruit: Int
    public let need: Int
    public let have: Int
}
