import JuiceBook

/// How many of each menu item a stock could make on its own, and what an
/// order or a batch takes: the engine's answers for the capacity report
/// and the editor's hover.
public enum Capacity {
    /// One menu item's capacity.
    public struct Row: Sendable, Hashable {
        public let menu: Int
        /// The minimum over the item's fruits of stock ÷ need.
        public let count: Int
        /// The fruit that gives that minimum (the first in fruit order on a tie).
        public let limitingFruit: Int?
    }

    /// A row per menu item, in menu order.
    public static func of(_ book: RecipeBook, stock: FruitStore) -> [Row] {
        let planner = OrderPlanner(book: book)
        if planner.declaresSubstitutes { return substituted(book, planner, stock: stock) }
        if planner.keepsServings { return planned(book, planner, stock: stock) }
        return book.menu.indices.map { index in
            let limit = limit(of: book.menu[index].needs, stock: stock.counts)
            return Row(menu: index, count: limit?.count ?? 0, limitingFruit: limit?.fruit)
        }
    }

    /// Capacity where servings are kept: the exact count of orders in a
    /// row, leftovers included (`BatchPlanner.capacity`), and the fruit the
    /// next order would lack first, in fruit order.
    private static func planned(_ book: RecipeBook, _ planner: OrderPlanner, stock: FruitStore) -> [Row] {
        var draft = planner.makeDraft()
        // Items with the same ingredients have the same capacity: each search
        // is dozens of plans, and a plan of an item over a deep chain of
        // recipes reads all of it, so a generated menu of look-alikes is
        // searched once.
        var known: [[RecipeBook.Ingredient]: (count: Int, limiting: Int?)] = [:]
        return book.menu.indices.map { index in
            if let row = known[book.menu[index].ingredients] { return Row(menu: index, count: row.count, limitingFruit: row.limiting) }
            guard let count = planner.capacity(index, counts: stock.counts, servings: stock.servings, draft: &draft) else {
                return Row(menu: index, count: 0, limitingFruit: nil)
            }
            let (next, overflow) = count.addingReportingOverflow(1)
            _ = planner.decide(index, times: overflow ? count : next, counts: stock.counts, servings: stock.servings, substituting: false, into: &draft)
            let limiting = planner.shortages(draft).first?.fruit
            known[book.menu[index].ingredients] = (count, limiting)
            return Row(menu: index, count: count, limitingFruit: limiting)
        }
    }

    /// Capacity where substitutes may stand in: the orders in a row, each
    /// decided on the stock the one before left, and the first fruit the
    /// next order lacks even with its substitutes.
    private static func substituted(_ book: RecipeBook, _ planner: OrderPlanner, stock: FruitStore) -> [Row] {
        var draft = planner.makeDraft()
        return book.menu.indices.map { index in
            let (count, after) = planner.capacityAndStock(index, counts: stock.counts, servings: stock.servings, draft: &draft)
            guard let count else { return Row(menu: index, count: 0, limitingFruit: nil) }
            let next = after ?? stock
            _ = planner.decide(index, times: 1, counts: next.counts, servings: next.servings, substituting: true, into: &draft)
            return Row(menu: index, count: count, limitingFruit: planner.shortages(draft).first?.fruit)
        }
    }

    /// What one order of a menu item, or one batch of a recipe, takes in
    /// whole fruits, in fruit order, made fresh with each serving its own
    /// batch and no substitute: the most it can take, whatever is on hand
    /// (batches with leftovers only lower it). Hover shows it, and the par
    /// level search starts from it. Nil for a fruit.
    public static func need(of component: RecipeBook.Component, in book: RecipeBook) -> [RecipeBook.FruitAmount]? {
        switch component {
        case .recipe(let index): book.recipes.indices.contains(index) ? book.recipes[index].needs : nil
        case .menuItem(let index): book.menu.indices.contains(index) ? book.menu[index].needs : nil
        case .fruit: nil
        }
    }

    /// How many of a menu item or recipe `stock` (by fruit) makes one after
    /// another, and the fruit that runs out first (the first in fruit order
    /// on a tie); nil when it takes no fruit.
    public static func limit(of component: RecipeBook.Component, in book: RecipeBook, stock: [Int]) -> (count: Int, fruit: Int)? {
        need(of: component, in: book).flatMap { limit(of: $0, stock: stock) }
    }

    /// The menu items an order of which takes `fruit`, directly or through
    /// recipes, in menu order.
    public static func menuItems(taking fruit: Int, in book: RecipeBook) -> [Int] {
        book.menu.indices.filter { book.menu[$0].needs.contains { $0.fruit == fruit } }
    }

    /// The least, over the needs, of stock ÷ need, and its fruit.
    private static func limit(of needs: [RecipeBook.FruitAmount], stock: [Int]) -> (count: Int, fruit: Int)? {
        var best: (count: Int, fruit: Int)?
        for need in needs where need.amount > 0 {
            let have = stock.indices.contains(need.fruit) ? stock[need.fruit] : 0
            let count = have / need.amount
            if let current = best, current.count <= count { continue }
            best = (count, need.fruit)
        }
        return best
    }
}
