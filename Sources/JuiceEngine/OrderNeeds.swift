import JuiceBook

/// What one order of each menu item needs from the stock, in whole fruits:
/// every item's flattened need end to end, read by index. The order
/// planner's fast path for a plain book (`OrderPlanner.decide`): a plain
/// book's order that the stock covers takes exactly this. Nothing outside
/// the engine reads it.
@usableFromInline struct OrderNeeds: Sendable {
    /// Every menu item's needs end to end. The store's takes read them by
    /// index (`parts`, `spans[menu]`): reaching into the book for an item's
    /// own array retained and released it around every order.
    @usableFromInline let parts: [RecipeBook.FruitAmount]
    /// Where each menu item's needs are in `parts`.
    @usableFromInline let spans: [Range<Int>]
    /// Whether orders are planned in batches instead (`OrderPlanner.batches`).
    @usableFromInline let keepsServings: Bool
    /// Whether the maker counts the fruit each order takes, for the run's
    /// money (a book that declares costs).
    @usableFromInline let countsFruit: Bool
    /// Whether some fruit may stand in for another: a refusal then asks
    /// the substitutes rule first (`SubstituteCover`).
    @usableFromInline let substitutes: Bool
    /// Whether an order goes another way than the flattened take: a plain
    /// book's orders pay for one test of it.
    @usableFromInline var isPlain: Bool { !keepsServings && !countsFruit && !substitutes }

    init(book: RecipeBook) {
        keepsServings = book.keepsServings
        countsFruit = book.declaresCost
        substitutes = book.declaresSubstitutes
        var parts: [RecipeBook.FruitAmount] = []
        spans = book.menu.map { item in
            let start = parts.count
            parts.append(contentsOf: item.needs)
            return start..<parts.count
        }
        self.parts = parts
    }
}
