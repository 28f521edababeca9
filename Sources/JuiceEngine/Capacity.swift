import JuiceSupport
import JuiceSource
import JuiceDiagnostics
import JuiceYAML
import JuiceBook
/// How many of each menu item a stock could make on its own.
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
        book.menu.indices.map { index in
            var best: (count: Int, fruit: Int)?
            for need in book.menu[index].needs where need.amount > 0 {
                let count = stock[need.fruit] / need.amount
                if let current = best, current.count <= count { continue }
                best = (count, need.fruit)
            }
            return Row(menu: index, count: best?.count ?? 0, limitingFruit: best?.fruit)
        }
    }
}
