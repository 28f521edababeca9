/// A bound that lets a lint run skip summing most menu items (see
/// `Linker.flatten`).
///
/// Whether a blend nothing else uses surely takes less than the
/// opening stock of every fruit, shown without summing its need.
///
/// For each fruit, a blend's total over the fruit's stock is a sum
/// over its edges of amount × (the ingredient's need of that fruit over
/// its stock), and no term is more than amount × the ingredient's
/// largest *share*: the most any part of its need takes of its fruit's
/// stock. When those bounds add up to under `clearBound`, no fruit is
/// short and no total can overflow (each stays under its stock), which
/// is what summing would find, so `flatten` skips the summing. The
/// margin below 1 is far wider than the rounding of adding up even
/// millions of terms. Anything else (an unknown need, a fruit with no
/// stock, a large amount) is summed in full.
///
/// Most menu items of a stocked shop can be made at least once, and
/// they have a few ingredients each against dozens of parts. Measured
/// side by side (callgrind, release): `juice-lint` on lint-deep took
/// 3.75 G instructions without it and 3.53 G with it (6%, most of
/// `flatten`), and 1.14× cf0d643's wall time without it (the link is
/// the serial tail of a run; see docs/benchmarks.md).
struct StockBound {
    private let stock: [Int]
    /// Each blend's largest share, once its need is known;
    /// infinity until then, or where a part's fruit has no stock.
    private var shares: [Double]

    static let clearBound = 0.999

    init(stock: [Int], count: Int) {
        self.stock = stock
        shares = Array(repeating: .infinity, count: count)
    }

    /// Records blend `node`'s need, in full, for those that use it.
    mutating func note(_ node: Int, parts: UnsafeBufferPointer<RecipeBook.FruitAmount>) {
        var largest = 0.0
        for part in parts {
            guard stock.indices.contains(part.fruit), stock[part.fruit] > 0 else { return }
            largest = max(largest, Double(part.amount) / Double(stock[part.fruit]))
        }
        shares[node] = largest
    }

    func surelyCovers(_ node: Int, _ edges: Linker.EdgeTable) -> Bool {
        var bound = 0.0
        for edge in edges[node] {
            let share: Double
            switch edge.target {
            case .fruit(let fruit):
                guard stock.indices.contains(fruit), stock[fruit] > 0 else { return false }
                share = 1 / Double(stock[fruit])
            case .blend(let child):
                guard shares.indices.contains(child) else { return false }
                share = shares[child]
            }
            bound += Double(edge.amount) * share
            // Written so that infinity and NaN fail it too.
            guard bound < Self.clearBound else { return false }
        }
        return true
    }
}
