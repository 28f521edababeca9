/// A validated recipe graph: fruits, intermediate recipes and menu items with
/// amounts on the edges, and every menu item's need flattened to whole fruits.
///
/// A `RecipeBook` only exists for a book with no errors; a workspace snapshot
/// (or `RecipeCompiler`, which makes one) builds it. Fruits and menu items have dense indices, which the engine uses instead of
/// string lookups.
public struct RecipeBook: Sendable {
    /// A fruit of the catalog.
    public struct Fruit: Sendable, Hashable {
        public let id: String
        /// The label shown to people; the id when none is declared. Control
        /// and format characters arrive escaped (`\u{1b}`).
        public let label: String
        public let emoji: String?
        /// The cost of one unit in the shop's smallest currency unit; nil when not declared.
        public let cost: Int?
        /// How many units one purchase gives; 1 when not declared.
        public let pack: Int
        /// Days a unit keeps once received (`juice-run plan`); nil: it never spoils.
        public let keeps: Int?
        /// How `juice-run plan` restocks it; nil: never.
        public let restock: Restock?
        /// The fruits that may stand in for it when an order is short of it,
        /// in order of preference (version 2 `substitutes:`); empty for most.
        public let substitutes: [Substitute]

        public init(
            id: String, label: String, emoji: String?, cost: Int? = nil, pack: Int = 1, keeps: Int? = nil, restock: Restock? = nil,
            substitutes: [Substitute] = []
        ) {
            self.id = id
            self.label = label
            self.emoji = emoji
            self.cost = cost
            self.pack = pack
            self.keeps = keeps
            self.restock = restock
            self.substitutes = substitutes
        }
    }

    /// A fruit that may stand in for another: `ratio` units of `fruit`
    /// replace one missing unit (docs/recipes.md, "Substitutes").
    public struct Substitute: Sendable, Hashable {
        /// The standing-in fruit's index.
        public let fruit: Int
        /// Units of it that replace one missing unit; at least 1.
        public let ratio: Int

        public init(fruit: Int, ratio: Int) {
            self.fruit = fruit
            self.ratio = ratio
        }
    }

    /// A fruit's restocking in `juice-run plan` (docs/planning.md): every
    /// morning up to `upTo` when `below` is nil; otherwise an (s, S)
    /// policy, reviewed at the end of each day, whose orders arrive `lead`
    /// days after the next morning.
    public struct Restock: Sendable, Hashable {
        public let upTo: Int
        public let below: Int?
        public let lead: Int

        public init(upTo: Int, below: Int? = nil, lead: Int = 0) {
            self.upTo = upTo
            self.below = below
            self.lead = lead
        }
    }

    /// Where an ingredient edge points.
    public enum Component: Sendable, Hashable {
        case fruit(Int)
        case recipe(Int)
        case menuItem(Int)
    }

    /// One ingredient edge: what, and how many per batch or order.
    public struct Ingredient: Sendable, Hashable {
        /// The fruit, recipe or menu item used.
        public let component: Component
        /// How many of it one batch or order uses.
        public let amount: Int
    }

    /// An amount of one fruit, by dense fruit index.
    public struct FruitAmount: Sendable, Hashable {
        public let fruit: Int
        public let amount: Int

        public init(fruit: Int, amount: Int) {
            self.fruit = fruit
            self.amount = amount
        }
    }

    /// An intermediate recipe: usable as an ingredient, never sold.
    public struct Recipe: Sendable, Hashable {
        public let id: String
        /// The label shown to people; the id when none is declared.
        public let label: String
        /// Servings one batch makes (1 unless the long form says).
        public let yield: Int
        /// Days its servings keep once made (`juice-run plan`); nil: they last.
        public internal(set) var keeps: Int? = nil
        /// The graph's edges out of this recipe, as written: the first-class
        /// data beside `needs`, for whatever needs the structure (the graph
        /// renderer; recipe yields, see docs/yields.md).
        public let ingredients: [Ingredient]
        /// Whole fruits for one batch, sorted by fruit index.
        public let needs: [FruitAmount]
    }

    /// Something that can be ordered.
    public struct MenuItem: Sendable, Hashable {
        public let id: String
        /// The label shown to people; the id when none is declared.
        public let label: String
        public let price: Int?
        /// The graph's edges out of this item, as written (see `Recipe.ingredients`).
        public let ingredients: [Ingredient]
        /// Whole fruits for one order, sorted by fruit index, every nested recipe
        /// multiplied out and repeated fruits added up.
        public let needs: [FruitAmount]
    }

    /// The fruit catalogue, by dense fruit index, in declaration order.
    public let fruits: [Fruit]
    /// The intermediate recipes, by recipe index, in declaration order.
    public let recipes: [Recipe]
    /// The menu, by dense menu index, in declaration order.
    public let menu: [MenuItem]
    /// Opening stock by fruit index; a fruit with no stock entry has 0.
    public let openingStock: [Int]
    /// Servings on hand at opening, by recipe index (version 2 stock that
    /// names recipes); 0 where none is stocked.
    public let openingServings: [Int]
    /// Whether servings are kept between orders: some recipe declares a
    /// `yield:` or is stocked. Only then do orders plan batches, and only
    /// then do reports show batches and servings on hand; a book without
    /// either behaves, and prints, as version 1 did.
    public let keepsServings: Bool
    /// Whether some fruit lists `substitutes`: only then can an order take
    /// other fruit than its recipes name, and only then do reports say so.
    public let declaresSubstitutes: Bool
    /// Whether any fruit declares a `cost:`: only then do reports show money
    /// beyond revenue, and only then does the engine cost servings
    /// (`OrderPlanner.costs`).
    public let declaresCost: Bool

    private let fruitIndices: [String: Int]
    private let recipeIndices: [String: Int]
    private let menuIndices: [String: Int]

    init(fruits: [Fruit], recipes: [Recipe], menu: [MenuItem], openingStock: [Int], openingServings: [Int], keepsServings: Bool) {
        self.fruits = fruits
        self.recipes = recipes
        self.menu = menu
        self.openingStock = openingStock
        self.openingServings = openingServings
        self.keepsServings = keepsServings
        declaresSubstitutes = fruits.contains { !$0.substitutes.isEmpty }
        declaresCost = fruits.contains { $0.cost != nil }
        fruitIndices = Dictionary(fruits.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        recipeIndices = Dictionary(recipes.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        menuIndices = Dictionary(menu.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The dense index of the fruit `id`, or nil.
    public func fruitIndex(_ id: String) -> Int? { fruitIndices[id] }
    /// The index of the intermediate recipe `id`, or nil.
    public func recipeIndex(_ id: String) -> Int? { recipeIndices[id] }
    /// The dense index of the menu item `id`, or nil.
    public func menuIndex(_ id: String) -> Int? { menuIndices[id] }

    /// The id of whatever a component points at.
    public func id(of component: Component) -> String {
        switch component {
        case .fruit(let index): return fruits[index].id
        case .recipe(let index): return recipes[index].id
        case .menuItem(let index): return menu[index].id
        }
    }
}
