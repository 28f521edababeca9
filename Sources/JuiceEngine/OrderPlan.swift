import JuiceBook

/// What an order takes, exactly: the one value the engine hands out for
/// "what does this order take, and can it be made?" (`OrderPlanner.plan`).
///
/// A plan is made against one stock. It says which fruit it takes (the
/// substitutes that stood in included), which batches it makes, the servings
/// it uses and leaves, and, when the stock cannot serve it, which fruit is
/// short. Applying it (`FruitStore.apply`) is making the order; undoing it
/// (`FruitStore.undo`) puts back exactly what applying took, which is what a
/// journal needs to void an order.
public struct OrderPlan: Sendable, Hashable {
    /// One recipe's servings in the plan: how many it uses, how many its
    /// batches make, and how many are on hand after.
    public struct Servings: Sendable, Hashable {
        public let recipe: Int
        /// Servings the orders use, made now or on hand before.
        public let used: Int
        /// Servings the plan's batches make (batches × yield).
        public let made: Int
        /// Servings on hand once the plan is applied.
        public let left: Int
    }

    /// Batches of one recipe that a plan makes.
    public struct Batch: Sendable, Hashable {
        public let recipe: Int
        public let count: Int

        public init(recipe: Int, count: Int) {
            self.recipe = recipe
            self.count = count
        }
    }

    /// The menu item planned, and how many orders of it in a row.
    public let menu: Int
    public let times: Int
    /// Fruit taken, by fruit index in fruit order, substitutes included;
    /// empty for a plan that cannot be served.
    public let fruit: [RecipeBook.FruitAmount]
    /// Batches made, by recipe index in recipe order.
    public let batches: [Batch]
    /// Each recipe whose servings the plan uses or makes, in recipe order.
    public let servings: [Servings]
    /// The substitutes that stood in, in the order they were drawn.
    public let substitutions: [Substitution]
    /// Why it cannot be served: each fruit still short after its
    /// substitutes, in fruit order, each followed by its substitutes that
    /// ran short; empty when it can.
    public let shortages: [Shortage]
    /// What the fruit taken costs, exactly, when every fruit taken has a
    /// cost (and the sum fits); nil otherwise, and for a refused plan.
    public let cost: Money?

    /// Whether the stock it was made against serves it.
    public var isServable: Bool { shortages.isEmpty }
}

/// A substitute standing in for a fruit an order was short of: `units` of
/// `substitute` taken to cover `covered` missing units of `fruit`.
public struct Substitution: Sendable, Hashable {
    public let fruit: Int
    public let substitute: Int
    /// Units of the substitute taken (`covered` × its ratio).
    public let units: Int
    /// Units of the fruit they replace.
    public let covered: Int

    public init(fruit: Int, substitute: Int, units: Int, covered: Int) {
        self.fruit = fruit
        self.substitute = substitute
        self.units = units
        self.covered = covered
    }
}

/// One fruit an order lacked, or a substitute that ran short while standing
/// in for one (`standsInFor`).
public struct Shortage: Sendable, Hashable {
    public let fruit: Int
    /// All the order would have taken of it: its own need, plus, for a
    /// substitute, what it was asked to cover.
    public let need: Int
    public let have: Int
    /// For a substitute that ran short: the fruit it stood in for; nil for
    /// a fruit the order itself needs.
    public let standsInFor: Int?

    public init(fruit: Int, need: Int, have: Int, standsInFor: Int? = nil) {
        self.fruit = fruit
        self.need = need
        self.have = have
        self.standsInFor = standsInFor
    }
}

extension OrderPlan {
    /// A plan that was made and recorded elsewhere (a journal's order
    /// entry), read back so that `FruitStore.apply` replays it and
    /// `FruitStore.undo` voids it exactly: the engine's own inverse, not a
    /// copy of it. Its servings' `left` is not needed by either and is 0.
    public init(recorded menu: Int, times: Int, fruit: [RecipeBook.FruitAmount], batches: [Batch],
                servings: [(recipe: Int, used: Int, made: Int)], substitutions: [Substitution], cost: Money?) {
        self.init(
            menu: menu, times: times, fruit: fruit, batches: batches,
            servings: servings.map { Servings(recipe: $0.recipe, used: $0.used, made: $0.made, left: 0) },
            substitutions: substitutions, shortages: [], cost: cost)
    }
}
