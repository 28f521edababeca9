import JuiceDiagnostics
/// Flattening: every blend's need in whole fruits, in one table.
extension Linker {
    /// Each blend's need in whole fruits, or nil where it cannot be computed
    /// (a cycle, or an overflow, reported once where it happens).
    ///
    /// - Parameter shortOnly: when set (the book is not assembled), a
    ///   blend no other blend uses keeps only the fruits that
    ///   `openingStock` cannot cover: all that `never-makeable` asks of it.
    ///   The rest of its need is summed, checked for overflow and dropped:
    ///   on a book of nested recipes, keeping every menu item's need was
    ///   most of a lint run's memory, for a run that reads none of it.
    mutating func flatten(_ edges: EdgeTable, order: [Int], skip: [Bool], shortOnly openingStock: [Int]?) -> NeedTable {
        let kept = openingStock.map { _ in Self.usedAsIngredient(edges) }
        var needs = NeedTable(
            count: edges.count, parts: Self.partsBound(edges, order: order, fruits: declarations.fruits.count, kept: kept)
        )
        var sum = NeedSum(fruits: declarations.fruits.count)
        var bound = openingStock.map { StockBound(stock: $0, count: edges.count) }
        for node in order where !skip[node] {
            if let kept, !kept[node], bound?.surelyCovers(node, edges) == true {
                // Nothing short and no overflow: what summing would find.
                needs.set(node, fruits: [], amounts: sum.totals)
                continue
            }
            var complete = true
            var overflow: (edge: Int, fruit: Int)?
            edgeLoop: for index in edges.edgeRange(of: node) {
                let edge = edges.edge(at: index)
                switch edge.target {
                case .fruit(let fruit):
                    // A fruit ingredient is one part of itself: no array for it.
                    guard sum.add(fruit, 1, times: edge.amount) else {
                        overflow = (index, fruit)
                        break edgeLoop
                    }
                case .blend(let child):
                    guard let span = needs.span(of: child) else {
                        complete = false
                        break edgeLoop
                    }
                    if let fruit = needs.withParts(span, { sum.add($0, times: edge.amount) }) {
                        overflow = (index, fruit)
                        break edgeLoop
                    }
                }
            }
            if let (edge, fruit) = overflow {
                complete = false
                reportOverflow(of: node, fruit: fruit, atEdge: edge, in: edges)
            }
            if complete {
                if let openingStock, let kept, !kept[node] {
                    // Only the few short fruits are put in order, not every one touched.
                    var short = sum.touched.filter { openingStock.indices.contains($0) && sum.totals[$0] > openingStock[$0] }
                    if short.count > 1 { short.sort() }
                    needs.set(node, fruits: short, amounts: sum.totals)
                } else {
                    sum.sortTouched()
                    needs.set(node, fruits: sum.touched, amounts: sum.totals)
                    if let span = needs.span(of: node) { needs.withParts(span) { bound?.note(node, parts: $0) } }
                }
            }
            sum.clear()
        }
        return needs
    }

    /// `total` + `amount` × `times`, or nil where that cannot be counted:
    /// the one overflow-checked step of every way of flattening.
    static func adding(_ amount: Int, times: Int, to total: Int) -> Int? {
        let (scaled, overflowA) = amount.multipliedReportingOverflow(by: times)
        let (sum, overflowB) = total.addingReportingOverflow(scaled)
        return overflowA || overflowB ? nil : sum
    }

    /// One blend's need while it is summed: a total per fruit, and the
    /// fruits touched, so that clearing it costs what was touched, not the
    /// number of fruits in the book.
    struct NeedSum {
        private(set) var totals: [Int]
        private(set) var touched: [Int] = []

        init(fruits: Int) {
            totals = Array(repeating: 0, count: fruits)
        }

        /// Adds `amount` × `times` of `fruit`; false on overflow.
        package mutating func add(_ fruit: Int, _ amount: Int, times: Int) -> Bool {
            guard let sum = Linker.adding(amount, times: times, to: totals[fruit]) else { return false }
            if totals[fruit] == 0 {
                touched.append(fruit)
            }
            totals[fruit] = sum
            return true
        }

        /// Adds each of a child's parts `times` over; the fruit that
        /// overflowed, or nil.
        package mutating func add(_ parts: UnsafeBufferPointer<RecipeBook.FruitAmount>, times: Int) -> Int? {
            for part in parts where !add(part.fruit, part.amount, times: times) { return part.fruit }
            return nil
        }

        /// Puts `touched` in fruit order.
        mutating func sortTouched() {
            if touched.count > 1 { touched.sort() }
        }

        mutating func clear() {
            for fruit in touched {
                totals[fruit] = 0
            }
            touched.removeAll(keepingCapacity: true)
        }
    }

    mutating func reportOverflow(of node: Int, fruit: Int, atEdge index: Int, in edges: EdgeTable) {
        let blend = declarations.blends[node]
        let edge = edges.edge(at: index)
        let ingredient = declaration(ofEdge: index, in: edges)
        diagnostics.append(Diagnostic(
            .amountOverflow, at: ingredient.range,
            "\(blend.kind.rawValue) '\(blend.id)' needs more '\(declarations.fruits[fruit].id)' than can be counted (over \(Int.max))",
            help: {
                if case .fruit = edge.target { return "use a smaller amount of '\(ingredient.name)'" }
                return "use smaller amounts in '\(ingredient.name)' or the recipes it contains"
            }()
        ))
    }

    /// Each blend's need in whole fruits, or nil where it could not be
    /// computed, all in one array: one allocation for the book rather than
    /// one per recipe and menu item.
    struct NeedTable {
        private var parts: [RecipeBook.FruitAmount] = []
        /// Where each blend's parts are in `parts`; nil while unknown.
        private var spans: [Range<Int>?]

        /// `parts`: room to start with; a book of flat recipes needs one part
        /// per edge, and nested recipes need more. Room that is never used
        /// costs address space, not memory (the pages are never touched),
        /// while growing by doubling copies the table and briefly holds it
        /// three times over: on a book of 100,000 items with recipes nested
        /// three deep that was 58 MB at the peak and a sixth of the link.
        init(count: Int, parts expected: Int) {
            spans = Array(repeating: nil, count: count)
            parts.reserveCapacity(expected)
        }

        subscript(node: Int) -> ArraySlice<RecipeBook.FruitAmount>? {
            spans[node].map { parts[$0] }
        }

        /// Where blend `node`'s parts are, for `withParts`: reading by
        /// range holds no slice of `parts` while `set` appends to it.
        func span(of node: Int) -> Range<Int>? { spans[node] }

        /// Calls `body` with the parts in `span` in place.
        func withParts<Result>(_ span: Range<Int>, _ body: (UnsafeBufferPointer<RecipeBook.FruitAmount>) -> Result) -> Result {
            parts.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[span])) }
        }

        /// Blend `node` needs `amounts[fruit]` of each of `fruits`.
        mutating func set(_ node: Int, fruits: [Int], amounts: [Int]) {
            let start = parts.count
            for fruit in fruits { parts.append(RecipeBook.FruitAmount(fruit: fruit, amount: amounts[fruit])) }
            spans[node] = start..<parts.count
        }
    }

    /// At most how many parts the flattened needs take: each blend has
    /// at most one per fruit, and at most the sum of its ingredients' own.
    /// (Nested recipes that share fruits need fewer: the rest is room never
    /// used.) The room is capped, since sums of sums overestimate a deep
    /// book without limit: past the cap, the table grows as arrays do.
    /// Only the blends in `kept` count, when it is given: the others
    /// keep so few parts (none, on a clean book) that growing for them is
    /// cheaper than room for them all.
    static func partsBound(_ edges: EdgeTable, order: [Int], fruits: Int, kept: [Bool]? = nil) -> Int {
        let (perEdge, overflow) = edges.edgeCount.multipliedReportingOverflow(by: 8)
        let cap = max(edges.edgeCount, min(overflow ? Int.max : perEdge, [RecipeBook.FruitAmount].maximumRoomAhead))
        return min(sumOfBounds(edges, order: order, fruits: fruits, kept: kept), cap)
    }

    /// Which blends another blend names as an ingredient.
    static func usedAsIngredient(_ edges: EdgeTable) -> [Bool] {
        var used = [Bool](repeating: false, count: edges.count)
        for index in 0..<edges.edgeCount {
            if case .blend(let child) = edges.edge(at: index).target { used[child] = true }
        }
        return used
    }

    private static func sumOfBounds(_ edges: EdgeTable, order: [Int], fruits: Int, kept: [Bool]?) -> Int {
        var bound = [Int](repeating: 0, count: edges.count)
        var total = 0
        for node in order {
            // What nothing else uses keeps few parts, if any, and passes no bound on.
            if kept?[node] == false { continue }
            var sum = 0
            for edge in edges[node] {
                switch edge.target {
                case .fruit: sum = min(sum + 1, fruits)
                case .blend(let child): sum = min(sum + bound[child], fruits)
                }
            }
            bound[node] = sum
            total = min(total + sum, Int.max / 2)
        }
        return total
    }
}
