/// The flattened needs' table, and the room it starts with.
extension Linker {
    /// Each composite's need in whole fruits, or nil where it could not be
    /// computed, all in one array: one allocation for the book rather than
    /// one per recipe and menu item.
    struct NeedTable {
        private var parts: [RecipeBook.FruitAmount] = []
        /// Where each composite's parts are in `parts`; nil while unknown.
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

        /// Where composite `node`'s parts are, for `part(_:)`: reading by
        /// index holds no slice of `parts` while `set` appends to it.
        func span(of node: Int) -> Range<Int>? { spans[node] }

        func part(_ index: Int) -> RecipeBook.FruitAmount { parts[index] }

        /// Composite `node` needs `amounts[fruit]` of each of `fruits`.
        mutating func set(_ node: Int, fruits: [Int], amounts: [Int]) {
            let start = parts.count
            for fruit in fruits { parts.append(RecipeBook.FruitAmount(fruit: fruit, amount: amounts[fruit])) }
            spans[node] = start..<parts.count
        }
    }

    /// At most how many parts the flattened needs take: each composite has
    /// at most one per fruit, and at most the sum of its ingredients' own.
    /// (Nested recipes that share fruits need fewer: the rest is room never
    /// used.) The room is capped, since sums of sums overestimate a deep
    /// book without limit: past the cap, the table grows as arrays do.
    static func partsBound(_ edges: EdgeTable, order: [Int], fruits: Int) -> Int {
        let (perEdge, overflow) = edges.edgeCount.multipliedReportingOverflow(by: 8)
        let cap = max(edges.edgeCount, min(overflow ? Int.max : perEdge, maximumRoom))
        return min(sumOfBounds(edges, order: order, fruits: fruits), cap)
    }

    /// 16 M parts, 256 MB of address space: a room no book has needed.
    static let maximumRoom = 1 << 24

    private static func sumOfBounds(_ edges: EdgeTable, order: [Int], fruits: Int) -> Int {
        var bound = [Int](repeating: 0, count: edges.count)
        var total = 0
        for node in order {
            var sum = 0
            for edge in edges[node] {
                switch edge.target {
                case .fruit: sum = min(sum + 1, fruits)
                case .composite(let child): sum = min(sum + bound[child], fruits)
                }
            }
            bound[node] = sum
            total = min(total + sum, Int.max / 2)
        }
        return total
    }
}
