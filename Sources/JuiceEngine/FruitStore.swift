import JuiceBook
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

    public internal(set) var counts: [Int]
    /// Servings on hand by recipe index, in a book that keeps them
    /// (`RecipeBook.keepsServings`); empty otherwise.
    public internal(set) var servings: [Int]

    /// A stock of `counts` by fruit index, and `servings` by recipe index.
    public init(counts: [Int], servings: [Int] = []) {
        self.counts = counts
        self.servings = servings
    }

    /// The opening stock of a book.
    public init(book: RecipeBook) {
        self.init(counts: book.openingStock, servings: book.keepsServings ? book.openingServings : [])
    }

    /// Adds `amount` (at least 1) servings of a recipe and returns the new count.
    @discardableResult
    public mutating func restock(recipe: Int, by amount: Int) throws(ChangeError) -> Int {
        guard servings.indices.contains(recipe) else { throw .unknownFruit }
        guard amount >= 1 else { throw .amountTooSmall(minimum: 1) }
        let (sum, overflow) = servings[recipe].addingReportingOverflow(amount)
        guard !overflow else { throw .overflow }
        servings[recipe] = sum
        return sum
    }

    /// Sets a recipe's servings on hand to `amount` (at least 0).
    public mutating func set(recipe: Int, to amount: Int) throws(ChangeError) {
        guard servings.indices.contains(recipe) else { throw .unknownFruit }
        guard amount >= 0 else { throw .amountTooSmall(minimum: 0) }
        servings[recipe] = amount
    }

    /// Takes a plan's fruit (`BatchPlanner.Scratch`, already checked to fit).
    mutating func takePlanned(_ scratch: BatchPlanner.Scratch) {
        scratch.forEachFruit { fruit, amount in if counts.indices.contains(fruit) { counts[fruit] -= amount } }
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
        shortages(for: needs, needs.indices)
    }

    /// The fruits short for `needs[span]`.
    func shortages(for needs: [RecipeBook.FruitAmount], _ span: Range<Int>) -> [Shortage] {
        var short: [Shortage] = []
        collectShortages(for: needs, span, into: &short)
        return short
    }

    /// Appends each short fruit of `needs[span]` to `short`, so a caller can reuse one list.
    private func collectShortages(for needs: [RecipeBook.FruitAmount], _ span: Range<Int>, into short: inout [Shortage]) {
        for index in span where self[needs[index].fruit] < needs[index].amount {
            short.append(Shortage(fruit: needs[index].fruit, need: needs[index].amount, have: self[needs[index].fruit]))
        }
    }

    /// Takes every need of `needs[span]` and returns true, or takes nothing,
    /// lists the short fruits in `short` (emptied first, its storage reused)
    /// and returns false.
    @usableFromInline mutating func take(_ needs: [RecipeBook.FruitAmount], _ span: Range<Int>, shortages short: inout [Shortage]) -> Bool {
        // Emptying an empty list still went through `replaceSubrange`, and
        // most orders are served: the list is only touched for a refusal.
        if !short.isEmpty { short.removeAll(keepingCapacity: true) }
        if takeIfAvailable(needs, span) { return true }
        collectShortages(for: needs, span, into: &short)
        return false
    }

    /// Takes every need of `needs[span]` and returns true, or takes nothing
    /// and returns false. Allocates nothing, for runs that only count refusals.
    ///
    /// The needs are a table and a span rather than one item's array: a maker
    /// passes every menu item's needs end to end (`JuiceMaker.needs`), read by
    /// index, where reaching into the book for an item's own array retained
    /// and released it around every order.
    @usableFromInline mutating func takeIfAvailable(_ needs: [RecipeBook.FruitAmount], _ span: Range<Int>) -> Bool {
        for index in span where self[needs[index].fruit] < needs[index].amount { return false }
        for index in span { counts[needs[index].fruit] -= needs[index].amount }
        return true
    }

    /// Takes `needs[span]` up to `times` times over, as `times` calls of
    /// `takeIfAvailable` would, and returns how many were taken: each call
    /// takes until a fruit runs short, and every call after that takes
    /// nothing, since a refusal changes no stock. So the count is the least,
    /// over the needs, of stock ÷ need, at most `times`. Needs name each fruit
    /// once, as a compiled book's do; nil (nothing taken) when a need is not
    /// a positive amount, for the caller to take one at a time.
    @usableFromInline mutating func take(upTo times: Int, _ needs: [RecipeBook.FruitAmount], _ span: Range<Int>) -> Int? {
        var taken = times
        for index in span {
            let need = needs[index]
            guard need.amount > 0 else { return nil }
            taken = min(taken, self[need.fruit] / need.amount)
        }
        guard taken > 0 else { return 0 }
        // Each product is at most the fruit's stock, so it cannot overflow.
        for index in span { counts[needs[index].fruit] -= needs[index].amount * taken }
        return taken
    }
}
