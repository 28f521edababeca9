import JuiceBook
/// The planner's working space (`BatchPlanner.Scratch`), in a file of its
/// own: the one place that writes through unsafe buffers.
extension BatchPlanner {
    /// Working space for plans, reused order after order.
    ///
    /// A plan runs on unsafe buffers: it writes the scratch through
    /// `Buffers` and reads the planner's tables through buffer pointers,
    /// bounded by the planner's own indices, which `init` checks against
    /// the book (`fit` sizes the scratch to the planner before each plan).
    /// On the batch benchmark's 100,000 orders the checked version (a
    /// uniqueness and a bounds check on each access) took 448 M
    /// instructions and this one 329 M, 27% fewer, of which 5 points are
    /// `ShortfallLedger` no longer keeping its own servings while it
    /// follows the real run: the replay went from 2.28× to 1.68× the
    /// instructions of the book without yields (issue 28's goal is 2× of
    /// wall time). This type and `plan` are the one place that does.
    public struct Scratch: Sendable {
        /// Servings wanted and batches made, by recipe; zero outside a plan's walk.
        public internal(set) var demand: [Int]
        public internal(set) var batches: [Int]
        /// Fruit taken, by fruit; `touched` lists the fruits a plan set.
        public internal(set) var fruit: [Int]
        @usableFromInline private(set) var touchedStore: [Int]
        @usableFromInline private(set) var touchedCount = 0
        private var walkedStore: [Int]
        private var walkedCount = 0
        /// Wanted recipes not yet planned: a binary min-heap by rank.
        var pending: [Int] = []

        /// The fruits the last plan took, in the order first touched.
        public var touched: ArraySlice<Int> { touchedStore[..<touchedCount] }
        /// The recipes the last plan wanted servings of, in rank order.
        public var walked: ArraySlice<Int> { walkedStore[..<walkedCount] }

        /// Calls `body` with each fruit the last plan took and how much, in
        /// the order first touched. An order's take reads the plan this way,
        /// not through `touched`: each slice of the list retained and
        /// released it (atomically), four times an order.
        @inlinable public func forEachFruit(_ body: (_ fruit: Int, _ amount: Int) throws -> Void) rethrows {
            var index = 0
            while index < touchedCount {
                let fruit = touchedStore[index]
                try body(fruit, self.fruit[fruit])
                index += 1
            }
        }

        /// Whether `stock` (by fruit; a fruit past its end has none) holds
        /// all the fruit the last plan takes.
        @inlinable public func fits(in stock: [Int]) -> Bool {
            var index = 0
            while index < touchedCount {
                let fruit = touchedStore[index]
                guard self.fruit[fruit] <= (fruit < stock.count ? stock[fruit] : 0) else { return false }
                index += 1
            }
            return true
        }

        public init(recipes: Int, fruits: Int) {
            demand = Array(repeating: 0, count: max(recipes, 0))
            batches = demand
            walkedStore = demand
            fruit = Array(repeating: 0, count: max(fruits, 0))
            touchedStore = fruit
        }

        /// The scratch's arrays as buffers, and where the two lists end.
        struct Buffers {
            let demand: UnsafeMutableBufferPointer<Int>
            let batches: UnsafeMutableBufferPointer<Int>
            let fruit: UnsafeMutableBufferPointer<Int>
            let touched: UnsafeMutableBufferPointer<Int>
            let walked: UnsafeMutableBufferPointer<Int>
            var touchedCount: Int
            var walkedCount: Int

            /// Adds `amount` × `times` of fruit `index` (below `fruit.count`).
            mutating func addFruit(_ index: Int, _ amount: Int, times: Int) {
                if fruit[index] == 0 {
                    guard touchedCount < touched.count else { return }
                    touched[touchedCount] = index
                    touchedCount += 1
                }
                fruit[index] = Scratch.saturating(fruit[index], plus: Scratch.saturating(amount, times: times))
            }
        }

        /// Runs `body` on the arrays as buffers, after clearing the last plan.
        mutating func withClearedBuffers<Result>(_ body: (inout Buffers) -> Result) -> Result {
            var counts = (touched: touchedCount, walked: walkedCount)
            let result = demand.withUnsafeMutableBufferPointer { demand in
                batches.withUnsafeMutableBufferPointer { batches in
                    fruit.withUnsafeMutableBufferPointer { fruit in
                        touchedStore.withUnsafeMutableBufferPointer { touched in
                            walkedStore.withUnsafeMutableBufferPointer { walked in
                                for recipe in walked[..<counts.walked] {
                                    demand[recipe] = 0
                                    batches[recipe] = 0
                                }
                                for index in touched[..<counts.touched] { fruit[index] = 0 }
                                var buffers = Buffers(
                                    demand: demand, batches: batches, fruit: fruit, touched: touched, walked: walked, touchedCount: 0,
                                    walkedCount: 0)
                                let result = body(&buffers)
                                counts = (buffers.touchedCount, buffers.walkedCount)
                                return result
                            }
                        }
                    }
                }
            }
            touchedCount = counts.touched
            walkedCount = counts.walked
            return result
        }

        /// Makes room for `recipes` and `fruits`: a scratch made for a
        /// smaller book is grown rather than written past its end.
        mutating func fit(recipes: Int, fruits: Int) {
            guard demand.count < recipes || fruit.count < fruits else { return }
            self = Scratch(recipes: max(recipes, demand.count), fruits: max(fruits, fruit.count))
        }

        static func push(_ recipe: Int, on pending: inout [Int], _ rank: [Int]) {
            pending.append(recipe)
            var child = pending.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard rank[pending[child]] < rank[pending[parent]] else { break }
                pending.swapAt(child, parent)
                child = parent
            }
        }

        static func pop(_ pending: inout [Int], _ rank: [Int]) -> Int? {
            guard let first = pending.first, let last = pending.popLast() else { return nil }
            guard !pending.isEmpty else { return first }
            pending[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < pending.count, rank[pending[left]] < rank[pending[smallest]] { smallest = left }
                if right < pending.count, rank[pending[right]] < rank[pending[smallest]] { smallest = right }
                guard smallest != parent else { return first }
                pending.swapAt(parent, smallest)
                parent = smallest
            }
        }

        public static func saturating(_ amount: Int, times: Int) -> Int {
            let (product, overflow) = amount.multipliedReportingOverflow(by: times)
            return overflow ? Int.max : product
        }

        public static func saturating(_ total: Int, plus amount: Int) -> Int {
            let (sum, overflow) = total.addingReportingOverflow(amount)
            return overflow ? Int.max : sum
        }
    }
}
