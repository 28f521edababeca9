/// What orders take when recipes are made in batches and servings are kept:
/// the one home of the rule, which the engine makes orders by and the
/// linker's `never-makeable` check judges the opening stock by.
///
/// For `n` orders of a menu item, the recipes it reaches are walked from
/// the item down, each after every recipe that uses it:
///
/// - `demand(r)`: the servings of `r` the item wants (× `n`), plus, for each
///   recipe `p` that uses `r`, `batches(p) × amount(p → r)`;
/// - `batches(r) = ⌈max(0, demand(r) − onHand(r)) ÷ yield(r)⌉`;
/// - the fruit taken: the item's own fruit × `n`, plus each recipe's own
///   fruit × `batches(r)`;
/// - `onHand(r)` becomes `onHand(r) + batches(r) × yield(r) − demand(r)`.
///
/// These are the fewest batches that cover the orders, and the same as
/// making servings one at a time and a batch only when none is on hand
/// (the independent model in Tests/Reference holds the engine to that).
/// Planning `n` orders at once gives what `n` orders one after another
/// give, since each recipe's running total of batches is that ceiling of its
/// running demand; so capacity and `xN` orders are one plan each, not `n`.
///
/// Amounts saturate at `Int.max` rather than trap: a plan that large is
/// refused by any stock.
///
/// A class, immutable once made: an order reads it a few dozen times, and a
/// struct of six arrays was copied (six retains and releases) at each use.
public final class BatchPlanner: Sendable {
    /// An amount of a recipe or a fruit, by index.
    public struct Part: Sendable, Hashable {
        public let index: Int
        public let amount: Int

        public init(index: Int, amount: Int) {
            self.index = index
            self.amount = amount
        }
    }

    /// A list of lists kept end to end, read by index: an order's plan reads
    /// a few dozen of them, and an array per list was retained and released
    /// around each read.
    struct Lists<Element: Sendable>: Sendable {
        private(set) var elements: [Element] = []
        private(set) var spans: [Range<Int>] = []

        init(_ lists: [[Element]]) {
            for list in lists {
                let start = elements.count
                elements.append(contentsOf: list)
                spans.append(start..<elements.count)
            }
        }

        /// List `index`'s place in `elements`; empty past the end.
        func span(_ index: Int) -> Range<Int> { spans.indices.contains(index) ? spans[index] : 0..<0 }
    }

    /// Per recipe: servings per batch, own fruit and child recipes per batch.
    private let yields: [Int]
    private let recipeFruit: Lists<Part>
    private let recipeChildren: Lists<Part>
    /// Per menu item: own fruit and recipes per order.
    private let menuFruit: Lists<Part>
    private let menuChildren: Lists<Part>
    /// Each recipe's place in one order of all recipes where every recipe
    /// comes after each recipe that uses it. A plan takes the recipes it
    /// wants in this order (`Scratch.pending`, a heap), so the planner's
    /// size is the book's, not items × depth: a list per menu item of all
    /// it reaches would be 10^9 entries for a chain of 10,000 recipes
    /// under 100,000 items.
    private let rank: [Int]
    /// The recipes an item reaches, each after every recipe that uses it,
    /// for the items that reach at most `walkLimit`; an empty list for the
    /// rest, which plan through the heap. Walking a short list is cheaper
    /// than the heap: on the batch benchmark's 100,000 orders (every item
    /// within the limit), 432 M instructions against 542 M.
    private let menuWalk: Lists<Int>
    private let walksInFull: [Bool]

    /// A planner for recipes with `yields`, whose ingredients per batch are
    /// `recipeIngredients`, and menu items whose ingredients per order are
    /// `menuIngredients`. The graph must have no cycle (a valid book's has
    /// none; the linker plans only what its cycle check cleared).
    public init(
        yields: [Int], recipeIngredients: [[RecipeBook.Ingredient]], menuIngredients: [[RecipeBook.Ingredient]], walkLimit: Int = 64
    ) {
        func split(_ ingredients: [RecipeBook.Ingredient]) -> (fruit: [Part], children: [Part]) {
            var fruit: [Part] = [], children: [Part] = []
            for ingredient in ingredients {
                switch ingredient.component {
                case .fruit(let index): fruit.append(Part(index: index, amount: ingredient.amount))
                case .recipe(let index): children.append(Part(index: index, amount: ingredient.amount))
                case .menuItem: break
                }
            }
            return (fruit, children)
        }
        let recipes = recipeIngredients.map(split)
        let menu = menuIngredients.map(split)
        self.yields = yields
        recipeFruit = Lists(recipes.map(\.fruit))
        recipeChildren = Lists(recipes.map(\.children))
        menuFruit = Lists(menu.map(\.fruit))
        menuChildren = Lists(menu.map(\.children))
        let children = recipes.map(\.children)
        let order = Self.walk(from: Array(children.indices), children: children, limit: Int.max) ?? []
        var rank = [Int](repeating: 0, count: yields.count)
        for (place, recipe) in order.enumerated() where rank.indices.contains(recipe) { rank[recipe] = place }
        self.rank = rank
        let walks = menu.map { Self.walk(from: $0.children.map(\.index), children: children, limit: walkLimit) }
        menuWalk = Lists(walks.map { $0 ?? [] })
        walksInFull = walks.map { $0 != nil }
    }

    /// The recipes reachable from `roots`, each after every recipe that
    /// uses it: a depth-first walk with an explicit stack (a deep book must
    /// not exhaust the call stack), in reverse post-order; nil once more
    /// than `limit` are reached.
    private static func walk(from roots: [Int], children: [[Part]], limit: Int) -> [Int]? {
        var state = [UInt8](repeating: 0, count: children.count)  // 0 new, 1 open, 2 done
        var postOrder: [Int] = []
        for index in roots where children.indices.contains(index) && state[index] == 0 {
            let root = Part(index: index, amount: 1)
            var stack: [(recipe: Int, next: Int)] = [(root.index, 0)]
            state[root.index] = 1
            while let top = stack.last {
                let edges = children[top.recipe]
                if top.next < edges.count {
                    stack[stack.count - 1].next += 1
                    let child = edges[top.next].index
                    if children.indices.contains(child) && state[child] == 0 {
                        state[child] = 1
                        stack.append((child, 0))
                    }
                } else {
                    state[top.recipe] = 2
                    postOrder.append(top.recipe)
                    stack.removeLast()
                    if postOrder.count > limit { return nil }
                }
            }
        }
        return postOrder.reversed()
    }

    public var recipeCount: Int { yields.count }

    /// Working space for plans, reused order after order.
    public struct Scratch: Sendable {
        /// Servings wanted and batches made, by recipe; zero outside a plan's walk.
        public fileprivate(set) var demand: [Int]
        public fileprivate(set) var batches: [Int]
        /// Fruit taken, by fruit; `touched` lists the fruits a plan set.
        public fileprivate(set) var fruit: [Int]
        public fileprivate(set) var touched: [Int] = []
        /// The recipes the last plan wanted servings of, in rank order.
        public fileprivate(set) var walked: [Int] = []
        /// Wanted recipes not yet planned: a binary min-heap by rank.
        private var pending: [Int] = []

        fileprivate mutating func pushPending(_ recipe: Int, _ rank: [Int]) {
            pending.append(recipe)
            var child = pending.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard rank[pending[child]] < rank[pending[parent]] else { break }
                pending.swapAt(child, parent)
                child = parent
            }
        }

        fileprivate mutating func popPending(_ rank: [Int]) -> Int? {
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

        public init(recipes: Int, fruits: Int) {
            demand = Array(repeating: 0, count: recipes)
            batches = Array(repeating: 0, count: recipes)
            fruit = Array(repeating: 0, count: fruits)
        }

        fileprivate mutating func clear() {
            for recipe in walked {
                demand[recipe] = 0
                batches[recipe] = 0
            }
            for index in touched { fruit[index] = 0 }
            walked.removeAll(keepingCapacity: true)
            touched.removeAll(keepingCapacity: true)
        }

        fileprivate mutating func addFruit(_ index: Int, _ amount: Int, times: Int) {
            guard fruit.indices.contains(index) else { return }
            if fruit[index] == 0 { touched.append(index) }
            fruit[index] = Self.saturating(fruit[index], plus: Self.saturating(amount, times: times))
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

    /// Plans `times` orders of menu item `menu` from `onHand` (servings by
    /// recipe) into `scratch`: `scratch.fruit` (at `scratch.touched`, in the
    /// order first touched) and `scratch.batches` (at `scratch.walked`).
    public func plan(menu: Int, times: Int = 1, onHand: [Int], into scratch: inout Scratch) {
        scratch.clear()
        guard menu >= 0, menu < menuChildren.spans.count, times > 0 else { return }
        for index in menuChildren.span(menu) {
            let part = menuChildren.elements[index]
            want(part.index, Scratch.saturating(part.amount, times: times), in: &scratch, queue: !walksInFull[menu])
        }
        let inFull = walksInFull[menu]
        var walkIndex = menuWalk.span(menu).lowerBound
        // Recipes in rank order, from the item's walk or off the heap: a
        // recipe's users (lower ranks) are all done before it, so its
        // demand is whole.
        while let recipe = inFull ? nextWalked(menu, &walkIndex) : scratch.popPending(rank) {
            let demand = scratch.demand[recipe]
            // Nothing wanted of it (its users were served from servings on hand).
            guard demand > 0 else { continue }
            scratch.walked.append(recipe)
            let have = onHand.indices.contains(recipe) ? onHand[recipe] : 0
            let short = demand - min(have, demand)
            let yield = max(yields[recipe], 1)
            let batches = short / yield + (short % yield == 0 ? 0 : 1)
            scratch.batches[recipe] = batches
            guard batches > 0 else { continue }
            for index in recipeChildren.span(recipe) {
                let part = recipeChildren.elements[index]
                want(part.index, Scratch.saturating(part.amount, times: batches), in: &scratch, queue: !inFull)
            }
            for index in recipeFruit.span(recipe) {
                let part = recipeFruit.elements[index]
                scratch.addFruit(part.index, part.amount, times: batches)
            }
        }
        for index in menuFruit.span(menu) {
            let part = menuFruit.elements[index]
            scratch.addFruit(part.index, part.amount, times: times)
        }
    }

    /// Adds `servings` of `recipe` to the plan's demand, queuing the recipe
    /// the first time it is wanted (for an item planned through the heap).
    private func want(_ recipe: Int, _ servings: Int, in scratch: inout Scratch, queue: Bool) {
        guard scratch.demand.indices.contains(recipe), servings > 0 else { return }
        if queue && scratch.demand[recipe] == 0 { scratch.pushPending(recipe, rank) }
        scratch.demand[recipe] = Scratch.saturating(scratch.demand[recipe], plus: servings)
    }

    /// The next recipe of `menu`'s walk, or nil at its end.
    private func nextWalked(_ menu: Int, _ index: inout Int) -> Int? {
        guard index < menuWalk.span(menu).upperBound else { return nil }
        defer { index += 1 }
        return menuWalk.elements[index]
    }

    /// The servings on hand once the planned orders are made: `onHand`
    /// plus what the batches yield, less what was used.
    public func apply(_ scratch: Scratch, to onHand: inout [Int]) {
        for recipe in scratch.walked where onHand.indices.contains(recipe) {
            let made = Scratch.saturating(scratch.batches[recipe], times: max(yields[recipe], 1))
            onHand[recipe] = Scratch.saturating(onHand[recipe], plus: made) - scratch.demand[recipe]
        }
    }

    /// How many orders of `menu` in a row `stock` (by fruit) and `onHand`
    /// serve, at most `limit`: the most `n` whose plan fits the stock (the
    /// fruit a plan takes only grows with `n`), found by doubling and then
    /// halving. Nil when the item takes no fruit at all, however many.
    public func capacity(menu: Int, stock: [Int], onHand: [Int], limit: Int = Int.max, scratch: inout Scratch) -> Int? {
        func fits(_ count: Int) -> Bool {
            plan(menu: menu, times: count, onHand: onHand, into: &scratch)
            return scratch.touched.allSatisfy { scratch.fruit[$0] <= (stock.indices.contains($0) ? stock[$0] : 0) }
        }
        guard limit > 0 else { return 0 }
        guard fits(1) else { return 0 }
        // Doubling until a count does not fit (or the limit is reached).
        var good = 1
        var bad: Int?
        while bad == nil && good < limit {
            let next = good > limit / 2 ? limit : good * 2
            if fits(next) { good = next } else { bad = next }
        }
        guard var high = bad else {
            // The limit fits: with no fruit at all taken, say so.
            plan(menu: menu, times: 1, onHand: [], into: &scratch)
            return scratch.touched.isEmpty && limit == Int.max ? nil : good
        }
        var low = good
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if fits(middle) { low = middle } else { high = middle }
        }
        return low
    }
}
