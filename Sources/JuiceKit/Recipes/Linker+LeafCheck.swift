/// Checking what nothing else uses against the stock: a lint run's last
/// step of flattening (`flatten(_:order:skip:shortOnly:)`).
extension Linker {
    /// Checks the composites nothing else uses against the stock, once the
    /// needs of everything they use are in the table. Each is checked on its
    /// own, so runs of them are shared out over the cores, each core with
    /// its own totals; what the runs found is applied here in order, so the
    /// table and the diagnostics are what checking them one by one gives.
    /// One that surely fits the stock (`isClearlyCovered`) is not summed.
    mutating func checkLeaves(_ leaves: [Int], _ edges: EdgeTable, stock: [Int], into needs: inout NeedTable) {
        let table = needs
        let shares = Self.stockShares(table, count: edges.count, stock: stock)
        let runLength = max(Self.leafRunMinimum, leaves.count / (4 * ParallelFiles.cores))
        let runs = stride(from: 0, to: leaves.count, by: runLength).map { $0..<min($0 + runLength, leaves.count) }
        var found: [(node: Int, outcome: LeafOutcome)] = []
        ParallelFiles.forEach(
            runs, inParallel: runs.count > 1 && ParallelFiles.cores > 1, worker: { LeafCheck(stock: stock) },
            work: { check, run -> [(node: Int, outcome: LeafOutcome)] in
                // Only what is not "complete, nothing short": on a clean book, nothing.
                var found: [(node: Int, outcome: LeafOutcome)] = []
                for node in leaves[run] {
                    if Self.isClearlyCovered(node, edges, shares: shares, stock: stock) { continue }
                    let outcome = check.check(node, edges, table)
                    if case .complete(let short) = outcome, short.isEmpty { continue }
                    found.append((node, outcome))
                }
                return found
            }
        ) {
            found += $0
            return true
        }
        // Written only now, and only where something was found: the table
        // is shared with the runs while they read it, and a write then would
        // copy it whole.
        for (node, outcome) in found {
            switch outcome {
            case .complete(let short): needs.set(node, parts: short)
            case .overflow(let edge, let fruit):
                needs.forget(node)
                reportOverflow(of: node, fruit: fruit, at: edge)
            case .unknown: needs.forget(node)
            }
        }
    }

    /// Each composite's largest share of one fruit's stock: over the parts
    /// of its need, the most any part takes of its fruit's opening stock,
    /// as a fraction. Infinity where the need is unknown or a part's fruit
    /// has no stock, so that whatever uses it is summed in full.
    static func stockShares(_ needs: NeedTable, count: Int, stock: [Int]) -> [Double] {
        var shares = [Double](repeating: .infinity, count: count)
        for node in 0..<count {
            guard let span = needs.span(of: node) else { continue }
            shares[node] = needs.withParts(span) { parts in
                var largest = 0.0
                for part in parts {
                    guard stock.indices.contains(part.fruit), stock[part.fruit] > 0 else { return .infinity }
                    largest = max(largest, Double(part.amount) / Double(stock[part.fruit]))
                }
                return largest
            }
        }
        return shares
    }

    /// Whether composite `node` is sure to take less than the stock of every
    /// fruit, shown without summing its need: for each fruit, its total over
    /// its stock is a sum over the edges of amount × (the child's need of it
    /// over its stock), and no term is more than amount × the child's
    /// largest share. When those bounds add up to under `clearBound`, no
    /// fruit is short and no total can overflow (each stays under its
    /// stock), which is the summing's outcome when nothing is found, so the
    /// summing is skipped. The margin below 1 is far wider than the
    /// rounding of adding up even millions of terms. Anything else, an
    /// unknown or unstocked part included, is summed in full by `check`.
    ///
    /// Most menu items of a stocked shop can be made at least once, and
    /// they have a few ingredients each against dozens of parts: on
    /// lint-deep this took the leaf check from 5.8 to 1.0 ms (clock stamps,
    /// medians of 5), lint-single and lint-clean from about 2 to under 1.
    static func isClearlyCovered(_ node: Int, _ edges: EdgeTable, shares: [Double], stock: [Int]) -> Bool {
        var bound = 0.0
        for index in edges.edgeRange(of: node) {
            let edge = edges.edge(at: index)
            let share: Double
            switch edge.target {
            case .fruit(let fruit):
                guard stock.indices.contains(fruit), stock[fruit] > 0 else { return false }
                share = 1 / Double(stock[fruit])
            case .composite(let child):
                guard shares.indices.contains(child) else { return false }
                share = shares[child]
            }
            bound += Double(edge.amount) * share
            // Written so that infinity and NaN fail it too.
            guard bound < clearBound else { return false }
        }
        return true
    }

    static let clearBound = 0.999

    /// Fewest composites a run of `checkLeaves` takes, so that a run's own
    /// costs (totals as long as the book's fruits, a hand-over) stay small.
    static let leafRunMinimum = 4096

    /// How summing a composite that nothing else uses ended.
    enum LeafOutcome: Sendable {
        /// Summed; the fruits the stock cannot cover and their totals, in fruit order.
        case complete([RecipeBook.FruitAmount])
        /// An ingredient's own need is unknown (a cycle, or an overflow).
        case unknown
        case overflow(Edge, fruit: Int)
    }

    /// Sums the need of a composite nothing else uses, when all that is
    /// asked of it is which fruits the stock cannot cover (a lint run), in
    /// two passes over its ingredients' parts: one adds each part to its
    /// fruit's total, the next notes each total over the stock and zeroes
    /// it. That keeps no list of the fruits touched, which `NeedSum` must
    /// (it puts them in order for the table), and each pass is a plain
    /// loop over totals written in place. With the runs on both cores,
    /// flattening took 19.8 → 9.3 ms on lint-deep and 17.4 → 8.2 ms on
    /// lint-single, whose menu items sum 1.8 and 1.4 million parts, and
    /// 6.2 → 3.4 ms on lint-clean (medians of 7, timed around `flatten`).
    struct LeafCheck {
        private var totals: [Int]
        private let stock: [Int]

        init(stock: [Int]) {
            self.stock = stock
            totals = Array(repeating: 0, count: stock.count)
        }

        mutating func check(_ node: Int, _ edges: EdgeTable, _ needs: NeedTable) -> LeafOutcome {
            let stock = self.stock
            return totals.withUnsafeMutableBufferPointer { totals in
                Self.check(node, edges, needs, totals: totals, stock: stock)
            }
        }

        /// `check`, on the totals in place: a write through the array would
        /// ask whether it is shared, once per part.
        private static func check(
            _ node: Int, _ edges: EdgeTable, _ needs: NeedTable, totals: UnsafeMutableBufferPointer<Int>, stock: [Int]
        ) -> LeafOutcome {
            /// Adds `amount` × `times` to `fruit`'s total; false on overflow
            /// (or on a fruit out of range, which the linker never makes).
            func add(_ fruit: Int, _ amount: Int, times: Int) -> Bool {
                guard totals.indices.contains(fruit), let sum = Linker.adding(amount, times: times, to: totals[fruit]) else { return false }
                totals[fruit] = sum
                return true
            }
            /// Notes `fruit`'s total if the stock cannot cover it, once (a
            /// fruit can be a part of several ingredients), and zeroes it.
            func take(_ fruit: Int, into short: inout [RecipeBook.FruitAmount]) {
                guard totals.indices.contains(fruit), stock.indices.contains(fruit) else { return }
                let total = totals[fruit]
                guard total != 0 else { return }
                if total > stock[fruit] { short.append(RecipeBook.FruitAmount(fruit: fruit, amount: total)) }
                totals[fruit] = 0
            }
            var outcome = LeafOutcome.complete([])
            // Edges are read by index: a slice of the table per pass would
            // retain and release it, from every core at once.
            let range = edges.edgeRange(of: node)
            adding: for index in range {
                let edge = edges.edge(at: index)
                switch edge.target {
                case .fruit(let fruit):
                    // A fruit ingredient is one part of itself.
                    guard add(fruit, 1, times: edge.amount) else {
                        outcome = .overflow(edge, fruit: fruit)
                        break adding
                    }
                case .composite(let child):
                    guard let span = needs.span(of: child) else {
                        outcome = .unknown
                        break adding
                    }
                    let overflowed: Int? = needs.withParts(span) { parts in
                        for part in parts where !add(part.fruit, part.amount, times: edge.amount) { return part.fruit }
                        return nil
                    }
                    if let overflowed {
                        outcome = .overflow(edge, fruit: overflowed)
                        break adding
                    }
                }
            }
            // Every part's fruit again, whether or not the adding got to it:
            // a total is zero unless it was added to.
            var short: [RecipeBook.FruitAmount] = []
            for index in range {
                let edge = edges.edge(at: index)
                switch edge.target {
                case .fruit(let fruit):
                    take(fruit, into: &short)
                case .composite(let child):
                    guard let span = needs.span(of: child) else { continue }
                    needs.withParts(span) { parts in
                        for part in parts { take(part.fruit, into: &short) }
                    }
                }
            }
            guard case .complete = outcome else { return outcome }
            if short.count > 1 { short.sort { $0.fruit < $1.fruit } }
            return .complete(short)
        }
    }
}
