import JuiceBook
/// What orders take when recipes are made in batches and servings are kept:
/// the one home of the rule, which the engine makes orders by and judges
/// the opening stock by after linking (`OpeningStockAnalysis`,
/// `never-makeable`).
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

    /// One recipe's batch, or one menu item's order, as a plan reads it:
    /// servings per batch, and where its child recipes and its own fruit lie
    /// in `children` and `fruit`. Recipes come first, then menu items.
    struct Step: Sendable {
        let yield: Int
        let children: Range<Int>
        let fruit: Range<Int>
    }

    private let steps: [Step]
    /// Child recipes and own fruit of every step, end to end: an order's plan
    /// reads a few dozen lists, and an array per list was retained and
    /// released around each read.
    private let children: [Part]
    private let fruit: [Part]
    public let recipeCount: Int
    /// One more than the highest fruit index a plan can touch.
    private let fruitBound: Int
    /// Each recipe's place in one order of all recipes where every recipe
    /// comes after each recipe that uses it. A plan takes the recipes it
    /// wants in this order (`Scratch.pending`, a heap), so the planner's
    /// size is the book's, not items × depth: a list per menu item of all
    /// it reaches would be 10^9 entries for a chain of 10,000 recipes
    /// under 100,000 items.
    private let rank: [Int]
    /// The recipes an item reaches, each after every recipe that uses it,
    /// end to end in `walks` for the items that reach at most `walkLimit`;
    /// nil for the rest, which plan through the heap. Walking a short list
    /// is cheaper than the heap: on the batch benchmark's 100,000 orders
    /// (every item within the limit), 432 M instructions against 542 M.
    private let walks: [Int]
    private let walkSpans: [Range<Int>?]

    /// A planner for recipes with `yields`, whose ingredients per batch are
    /// `recipeIngredients`, and menu items whose ingredients per order are
    /// `menuIngredients`. The graph must have no cycle (a valid book's has
    /// none; the linker plans only what its cycle check cleared).
    /// Ingredients that name no recipe of the book, or have an amount
    /// below 1 (which a valid book does not have), are left out.
    /// The batch rule for `book`'s recipes (`OrderPlanner` makes one per
    /// book that keeps servings).
    public convenience init(book: RecipeBook) {
        self.init(
            yields: book.recipes.map(\.yield), recipeIngredients: book.recipes.map(\.ingredients),
            menuIngredients: book.menu.map(\.ingredients)
        )
    }

    public init(
        yields: [Int], recipeIngredients: [[RecipeBook.Ingredient]], menuIngredients: [[RecipeBook.Ingredient]], walkLimit: Int = 64
    ) {
        let recipeCount = yields.count
        var steps: [Step] = [], children: [Part] = [], fruit: [Part] = [], fruitBound = 0
        var childLists: [[Part]] = []
        let lists = (0..<recipeCount).map { recipeIngredients.indices.contains($0) ? recipeIngredients[$0] : [] } + menuIngredients
        for (index, ingredients) in lists.enumerated() {
            let childStart = children.count, fruitStart = fruit.count
            for ingredient in ingredients where ingredient.amount > 0 {
                switch ingredient.component {
                case .fruit(let fruitIndex) where fruitIndex >= 0:
                    fruit.append(Part(index: fruitIndex, amount: ingredient.amount))
                    fruitBound = max(fruitBound, fruitIndex + 1)
                case .recipe(let recipe) where recipe >= 0 && recipe < recipeCount:
                    children.append(Part(index: recipe, amount: ingredient.amount))
                default: break
                }
            }
            let yield = index < recipeCount ? max(yields[index], 1) : 1
            steps.append(Step(yield: yield, children: childStart..<children.count, fruit: fruitStart..<fruit.count))
            childLists.append(Array(children[childStart...]))
        }
        self.steps = steps
        self.children = children
        self.fruit = fruit
        self.recipeCount = recipeCount
        self.fruitBound = fruitBound
        let recipeChildren = Array(childLists[0..<recipeCount])
        let order = Self.walk(from: Array(0..<recipeCount), children: recipeChildren, limit: Int.max) ?? []
        var rank = [Int](repeating: 0, count: recipeCount)
        for (place, recipe) in order.enumerated() { rank[recipe] = place }
        self.rank = rank
        var walks: [Int] = [], walkSpans: [Range<Int>?] = []
        for item in childLists[recipeCount...] {
            if let walk = Self.walk(from: item.map(\.index), children: recipeChildren, limit: walkLimit) {
                walkSpans.append(walks.count..<walks.count + walk.count)
                walks += walk
            } else {
                walkSpans.append(nil)
            }
        }
        self.walks = walks
        self.walkSpans = walkSpans
    }

    /// The recipes reachable from `roots`, each after every recipe that
    /// uses it: a depth-first walk with an explicit stack (a deep book must
    /// not exhaust the call stack), in reverse post-order; nil once more
    /// than `limit` are reached.
    private static func walk(from roots: [Int], children: [[Part]], limit: Int) -> [Int]? {
        var state = [UInt8](repeating: 0, count: children.count)  // 0 new, 1 open, 2 done
        var postOrder: [Int] = []
        for index in roots where children.indices.contains(index) && state[index] == 0 {
            var stack: [(recipe: Int, next: Int)] = [(index, 0)]
            state[index] = 1
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

    /// Plans `times` orders of menu item `menu` from `onHand` (servings by
    /// recipe) into `scratch`: `scratch.fruit` (at `scratch.touched`, in the
    /// order first touched) and `scratch.batches` (at `scratch.walked`).
    public func plan(menu: Int, times: Int = 1, onHand: [Int], into scratch: inout Scratch) {
        scratch.fit(recipes: recipeCount, fruits: fruitBound)
        let item = recipeCount + menu
        let valid = menu >= 0 && item < steps.count && times > 0
        let walk = valid ? walkSpans[menu] : nil
        let queue = walk == nil
        // The heap, for an item planned through it, out of the scratch
        // while the scratch's buffers are lent.
        var pending: [Int] = []
        if queue { swap(&pending, &scratch.pending) }
        defer { if queue { swap(&pending, &scratch.pending) } }
        steps.withUnsafeBufferPointer { steps in
            children.withUnsafeBufferPointer { children in
                fruit.withUnsafeBufferPointer { fruit in
                    scratch.withClearedBuffers { buffers in
                        guard valid else { return }
                        let order = steps[item]
                        var index = order.children.lowerBound
                        while index < order.children.upperBound {
                            let part = children[index]
                            want(part.index, Scratch.saturating(part.amount, times: times), &buffers, &pending, queue: queue)
                            index += 1
                        }
                        var next = walk?.lowerBound ?? 0
                        // Recipes in rank order, from the item's walk or off the heap: a
                        // recipe's users (lower ranks) are all done before it, so its
                        // demand is whole.
                        while true {
                            let recipe: Int
                            if let walk {
                                guard next < walk.upperBound else { break }
                                recipe = walks[next]
                                next += 1
                            } else {
                                guard let popped = Scratch.pop(&pending, rank) else { break }
                                recipe = popped
                            }
                            let demand = buffers.demand[recipe]
                            // Nothing wanted of it (its users were served from servings on hand).
                            guard demand > 0, buffers.walkedCount < buffers.walked.count else { continue }
                            buffers.walked[buffers.walkedCount] = recipe
                            buffers.walkedCount += 1
                            let have = recipe < onHand.count ? onHand[recipe] : 0
                            let short = demand - min(have, demand)
                            guard short > 0 else { continue }
                            let step = steps[recipe]
                            // The fewest batches that cover `short` (yield ≥ 1, short ≥ 1).
                            let batches = Int(UInt(short - 1) / UInt(step.yield)) + 1
                            buffers.batches[recipe] = batches
                            index = step.children.lowerBound
                            while index < step.children.upperBound {
                                let part = children[index]
                                want(part.index, Scratch.saturating(part.amount, times: batches), &buffers, &pending, queue: queue)
                                index += 1
                            }
                            index = step.fruit.lowerBound
                            while index < step.fruit.upperBound {
                                buffers.addFruit(fruit[index].index, fruit[index].amount, times: batches)
                                index += 1
                            }
                        }
                        index = order.fruit.lowerBound
                        while index < order.fruit.upperBound {
                            buffers.addFruit(fruit[index].index, fruit[index].amount, times: times)
                            index += 1
                        }
                    }
                }
            }
        }
    }

    /// Adds `servings` of `recipe` to the plan's demand, queuing the recipe
    /// the first time it is wanted (for an item planned through the heap).
    @inline(__always) private func want(
        _ recipe: Int, _ servings: Int, _ buffers: inout Scratch.Buffers, _ pending: inout [Int], queue: Bool
    ) {
        if queue && servings > 0 && buffers.demand[recipe] == 0 { Scratch.push(recipe, on: &pending, rank) }
        buffers.demand[recipe] = Scratch.saturating(buffers.demand[recipe], plus: servings)
    }

    /// The servings on hand once the planned orders are made: `onHand`
    /// plus what the batches yield, less what was used.
    public func apply(_ scratch: Scratch, to onHand: inout [Int]) {
        onHand.withUnsafeMutableBufferPointer { onHand in
            for recipe in scratch.walked where recipe < onHand.count && recipe < steps.count {
                let made = Scratch.saturating(scratch.batches[recipe], times: steps[recipe].yield)
                onHand[recipe] = Scratch.saturating(onHand[recipe], plus: made) - scratch.demand[recipe]
            }
        }
    }

    /// How many orders of `menu` in a row `stock` (by fruit) and `onHand`
    /// serve, at most `limit`: the most `n` whose plan fits the stock (the
    /// fruit a plan takes only grows with `n`), found by doubling and then
    /// halving. Nil when the item takes no fruit at all, however many.
    public func capacity(menu: Int, stock: [Int], onHand: [Int], limit: Int = Int.max, scratch: inout Scratch) -> Int? {
        func fits(_ count: Int) -> Bool {
            plan(menu: menu, times: count, onHand: onHand, into: &scratch)
            return scratch.fits(in: stock)
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
