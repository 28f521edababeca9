import JuiceBook
import JuiceShop
import JuiceEngine
/// What `juice-run plan` is asked for (docs/planning.md).
public struct PlanSettings: Sendable, Hashable {
    public var days = 30
    public var runs = 100
    public var ordersPerDay = 50
    public var demand: DemandStream.Demand = .poisson
    /// By menu index, or nil for a uniform mix.
    public var weights: [UInt64]?
    public var seed: UInt64 = 0
    /// `--history FILE`: the demand learnt from a journal export, in place
    /// of `ordersPerDay`, `demand` and `weights`.
    public var history: DemandHistory?

    public init() {}

    public static let maximumDays = 100_000
    public static let maximumRuns = 100_000
    public static let maximumOrdersPerDay = 1_000_000
}

/// Why a run could not go on: a count or a money figure past what 64 bits
/// hold. Each names the fruit, recipe or menu item whose part took it past
/// (docs/planning.md, exit code 1); a figure is never left at the largest
/// value or turned into "unknown" silently.
public enum PlanError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Restocking would take a fruit's stock past what a count holds.
    case overflow(fruit: String, day: Int)
    /// A run's tally (`what`: "bought", "thrown away", "servings of … made
    /// that day") of the fruit or recipe `name`, past what a count holds.
    case tally(String, name: String, day: Int)
    /// A run's money figure (`figure`: "purchases", "waste at cost",
    /// "revenue", "gross margin") past what `Money` holds, at the part
    /// `cause` names ("the 'mango' bought"), nil for the margin's difference.
    case money(figure: String, cause: String?)

    public var description: String {
        switch self {
        case .overflow(let fruit, let day):
            return "on day \(day), restocking '\(fruit)' would take its stock past \(Int.max)"
        case .tally(let what, let name, let day):
            return "on day \(day), '\(name)' \(what) would pass \(Int.max)"
        case .money(let figure, let cause?):
            return "\(cause) would take a run's \(figure) past \(Int.max)"
        case .money(let figure, nil):
            return "a run's \(figure) would pass \(Int.max)"
        }
    }
}

/// One run's figures (docs/planning.md, "What a run reports").
public struct PlanRunResult: Sendable, Hashable {
    public var run = 0
    public var days = 0
    public var orders = 0
    public var served = 0
    public var refused = 0
    public var daysWithoutRefusal = 0
    /// By fruit index.
    public var shortDays: [Int] = []
    public var wasted: [Int] = []
    /// The sum over the days of the units on hand at the end of the day:
    /// 128 bits, since every day's count fits 64 but their sum need not,
    /// and the average it gives always fits.
    public var onHandDays: [Int128] = []
    public var bought: [Int] = []
    /// Nil when no menu item has a price (or past what can be counted).
    public var revenue: Money?
    /// Nil when a fruit has no cost (or past what can be counted).
    public var purchases: Money?
    public var wasteAtCost: Money?
    /// Revenue less purchases.
    public var grossMargin: Money?
    /// How many days had each number of refused orders (0 included).
    public var daysByRefusals: [Int: Int] = [:]
    /// Day by day, when asked for (the report's sample run).
    public var trace: PlanTrace?

    public var fillRate: Double { orders == 0 ? 1 : Double(served) / Double(orders) }
    public var cycleServiceLevel: Double { days == 0 ? 1 : Double(daysWithoutRefusal) / Double(days) }
    public func averageOnHand(_ fruit: Int) -> Double { days == 0 ? 0 : Double(onHandDays[fruit]) / Double(days) }
    public func shortDayShare(_ fruit: Int) -> Double { days == 0 ? 0 : Double(shortDays[fruit]) / Double(days) }
}

/// One run's days, for the report's chart: by day, then by fruit index.
public struct PlanTrace: Sendable, Hashable {
    /// Units on hand at the end of the day, after spoilage.
    public var onHand: [[Int]] = []
    /// Units received that day (bought up to a level, or an order arriving).
    public var received: [[Int]] = []
    /// Units thrown away at the end of that day.
    public var wasted: [[Int]] = []
    public var refused: [Int] = []
}

/// One run of many days: the shop's stock from the book's opening, restocked
/// and spoiling as the book says, serving a random day's orders each day
/// through `JuiceMaker` (all or nothing, with batches). Single-threaded and
/// self-contained: runs are spread over cores by the caller.
public struct PlanRun: Sendable {
    public let book: RecipeBook
    public let settings: PlanSettings
    /// Each fruit's restocking: the book's, or every fruit bought up to a
    /// par level each morning (`--target-service`'s candidates).
    public let restocks: [RecipeBook.Restock?]
    /// What the book's orders take, made once for every run.
    let planner: OrderPlanner

    /// With `parLevels` (by fruit index), every fruit is bought each
    /// morning up to its level, whatever the book says.
    public init(book: RecipeBook, settings: PlanSettings, parLevels: [Int]? = nil) {
        self.book = book
        self.settings = settings
        restocks = parLevels.map { levels in book.fruits.indices.map { RecipeBook.Restock(upTo: levels.indices.contains($0) ? levels[$0] : 0) } }
            ?? book.fruits.map(\.restock)
        planner = OrderPlanner(book: book)
    }

    /// With `restocks` (by fruit index) in place of the book's.
    public init(book: RecipeBook, settings: PlanSettings, restocks: [RecipeBook.Restock?]) {
        self.book = book
        self.settings = settings
        self.restocks = book.fruits.indices.map { restocks.indices.contains($0) ? restocks[$0] : nil }
        planner = OrderPlanner(book: book)
    }

    /// Run `number` (from 1) of the settings; with `trace`, day by day too.
    public func run(_ number: Int, trace: Bool = false) throws(PlanError) -> PlanRunResult {
        let fruits = book.fruits, recipes = book.recipes
        var maker = JuiceMaker(book: book, planner: planner)
        var stream = DemandStream(
            seed: settings.seed, run: number, demand: settings.demand, ordersPerDay: settings.ordersPerDay,
            menuCount: book.menu.count, weights: settings.weights, history: settings.history
        )
        var result = PlanRunResult()
        result.run = number
        result.days = settings.days
        let zeros = [Int](repeating: 0, count: fruits.count)
        result.shortDays = zeros
        result.wasted = zeros
        result.onHandDays = [Int128](repeating: 0, count: fruits.count)
        result.bought = zeros
        var fruitLots = maker.store.counts.map { count -> Lots in
            var lots = Lots()
            lots.receive(count, on: 1)
            return lots
        }
        var servingLots = maker.store.servings.map { count -> Lots in
            var lots = Lots()
            lots.receive(count, on: 1)
            return lots
        }
        var wastedServings = [Int](repeating: 0, count: recipes.count)
        // (s, S) orders on their way, by arrival day, each day's in the
        // order they were placed. Not one array scanned each morning: with
        // leads differing by fruit, a day's deliveries are not at its front.
        var arriving: [Int: [(fruit: Int, units: Int)]] = [:]
        var onOrder = zeros
        // Tallied only when the book prices something, as a run tallies (`Revenue(tallying:)`).
        var revenue: Int? = Revenue(tallying: book) == nil ? nil : 0
        var shortages: [Shortage] = []
        var days = trace ? PlanTrace() : nil
        for day in 1...max(settings.days, 1) where settings.days > 0 {
            // Morning: (s, S) orders due today, then every up-to fruit bought up to its level.
            var received = zeros
            for delivery in arriving.removeValue(forKey: day) ?? [] {
                try receive(delivery.units, of: delivery.fruit, on: day, into: &maker, &fruitLots)
                onOrder[delivery.fruit] -= delivery.units
                // Received today is at most the stock, which `receive` checked.
                received[delivery.fruit] += delivery.units
            }
            for (fruit, declared) in fruits.enumerated() {
                guard let restock = restocks[fruit], restock.below == nil else { continue }
                let units = try Self.unitsToBuy(from: maker.store[fruit], upTo: restock.upTo, pack: declared.pack, fruit: declared.id, day: day)
                guard units > 0 else { continue }
                try receive(units, of: fruit, on: day, into: &maker, &fruitLots)
                result.bought[fruit] = try Self.tally(result.bought[fruit], units, "bought over the run", declared.id, day)
                received[fruit] += units
            }
            // The day's orders.
            // What the day's orders took, from their plans: fruit (substitutes
            // included) and servings used and made, by recipe.
            var usedToday = zeros
            var made = [Int](repeating: 0, count: recipes.count)
            var servingsUsed = [Int](repeating: 0, count: recipes.count)
            var tallyProblem: PlanError?
            var refusedToday = 0
            var shortToday = [Bool](repeating: false, count: fruits.count)
            let count = stream.ordersToday(day: day)
            for _ in 0..<count {
                let item = stream.nextItem()
                result.orders += 1
                if maker.make(item, shortages: &shortages) {
                    result.served += 1
                    if let price = book.menu[item].price, let total = revenue {
                        let (sum, overflow) = total.addingReportingOverflow(price)
                        guard !overflow else { throw .money(figure: "revenue", cause: "the price of '\(book.menu[item].id)'") }
                        revenue = sum
                    }
                    maker.forEachTaken(justServed: item) { fruit, amount in
                        // At most the fruit's stock: a day's use fits.
                        if usedToday.indices.contains(fruit) { usedToday[fruit] += amount }
                    } servings: { recipe, used, servings in
                        guard made.indices.contains(recipe), tallyProblem == nil else { return }
                        let what = "servings made that day"
                        guard servings < Int.max else { return tallyProblem = .tally(what, name: recipes[recipe].id, day: day) }
                        do throws(PlanError) {
                            made[recipe] = try Self.tally(made[recipe], servings, what, recipes[recipe].id, day)
                            servingsUsed[recipe] = try Self.tally(servingsUsed[recipe], used, "servings used that day", recipes[recipe].id, day)
                        } catch {
                            tallyProblem = error
                        }
                    }
                    if let tallyProblem { throw tallyProblem }
                } else {
                    result.refused += 1
                    refusedToday += 1
                    for shortage in shortages where shortToday.indices.contains(shortage.fruit) { shortToday[shortage.fruit] = true }
                }
            }
            // Evening: what the day used comes out of the oldest lots; then
            // what has reached its last day is thrown away.
            var wastedToday = zeros
            for fruit in fruits.indices {
                fruitLots[fruit].use(usedToday[fruit])
                if let keeps = fruits[fruit].keeps {
                    let wasted = fruitLots[fruit].spoil(receivedThrough: day - keeps + 1)
                    if wasted > 0 {
                        try? maker.store.set(fruit, to: maker.store[fruit] - wasted)
                        result.wasted[fruit] = try Self.tally(result.wasted[fruit], wasted, "thrown away over the run", fruits[fruit].id, day)
                        wastedToday[fruit] = wasted
                    }
                }
            }
            for recipe in recipes.indices where recipe < servingLots.count {
                servingLots[recipe].receive(made[recipe], on: day)
                servingLots[recipe].use(servingsUsed[recipe])
                if let keeps = recipes[recipe].keeps {
                    let wasted = servingLots[recipe].spoil(receivedThrough: day - keeps + 1)
                    if wasted > 0 {
                        try? maker.store.set(recipe: recipe, to: maker.store.servings[recipe] - wasted)
                        wastedServings[recipe] = try Self.tally(
                            wastedServings[recipe], wasted, "servings thrown away over the run", recipes[recipe].id, day
                        )
                    }
                }
            }
            // Review: each (s, S) fruit whose position is below s orders packs.
            for (fruit, declared) in fruits.enumerated() {
                guard let restock = restocks[fruit], let below = restock.below else { continue }
                // On hand plus on order: both are counts, so their sum fits 64
                // bits unsigned, and only a position below `below` matters.
                let (position, late) = maker.store[fruit].addingReportingOverflow(onOrder[fruit])
                guard !late else { continue }
                guard position < below else { continue }
                let units = try Self.unitsToBuy(from: position, upTo: restock.upTo, pack: declared.pack, fruit: declared.id, day: day)
                guard units > 0 else { continue }
                let (arrival, never) = day.addingReportingOverflow(restock.lead &+ 1)
                if !never && restock.lead < Int.max { arriving[arrival, default: []].append((fruit, units)) }
                onOrder[fruit] = try Self.tally(onOrder[fruit], units, "on order", declared.id, day)
                result.bought[fruit] = try Self.tally(result.bought[fruit], units, "bought over the run", declared.id, day)
            }
            for fruit in fruits.indices {
                result.onHandDays[fruit] += Int128(maker.store[fruit])  // at most 100,000 days of 2⁶³
                if shortToday[fruit] { result.shortDays[fruit] += 1 }
            }
            if refusedToday == 0 { result.daysWithoutRefusal += 1 }
            result.daysByRefusals[refusedToday, default: 0] += 1
            if days != nil {
                days?.onHand.append(maker.store.counts)
                days?.received.append(received)
                days?.wasted.append(wastedToday)
                days?.refused.append(refusedToday)
            }
        }
        result.trace = days
        result.revenue = revenue.map { Money($0) }
        result.purchases = try Self.cost(of: result.bought, book, figure: "purchases", "bought")
        if let fruitWaste = try Self.cost(of: result.wasted, book, figure: "waste at cost", "thrown away") {
            var total: Money? = fruitWaste
            for (recipe, servings) in wastedServings.enumerated() where servings > 0 {
                // A recipe's cost per serving is unknown (nil) only past what
                // `Money` holds, when every fruit has a cost: waste at cost
                // is then unknown, as the book's cost table says.
                let each = planner.costs?.recipes.indices.contains(recipe) == true ? planner.costs?.recipes[recipe] : nil
                guard let sum = total, let each else {
                    total = nil
                    break
                }
                guard let part = each.multiplied(by: servings), let next = sum.adding(part) else {
                    throw .money(figure: "waste at cost", cause: "the cost of the '\(recipes[recipe].id)' servings thrown away")
                }
                total = next
            }
            result.wasteAtCost = total
        }
        if let revenue = result.revenue, let purchases = result.purchases {
            guard let margin = revenue.subtracting(purchases) else { throw .money(figure: "gross margin", cause: nil) }
            result.grossMargin = margin
        }
        return result
    }

    /// Adds a delivery to the store and to the fruit's lots.
    private func receive(_ units: Int, of fruit: Int, on day: Int, into maker: inout JuiceMaker, _ lots: inout [Lots]) throws(PlanError) {
        do {
            _ = try maker.store.restock(fruit, by: units)
        } catch {
            throw .overflow(fruit: book.fruits[fruit].id, day: day)
        }
        lots[fruit].receive(units, on: day)
    }

    /// The fewest whole packs that bring `have` to at least `level`, in units.
    static func unitsToBuy(from have: Int, upTo level: Int, pack: Int, fruit: String, day: Int) throws(PlanError) -> Int {
        guard have < level else { return 0 }
        let pack = max(pack, 1)
        let missing = level - have  // have ≥ 0, so no overflow
        let packs = missing / pack + (missing % pack == 0 ? 0 : 1)
        let (units, overflow) = packs.multipliedReportingOverflow(by: pack)
        guard !overflow else { throw .overflow(fruit: fruit, day: day) }
        return units
    }

    /// Each fruit's `counts` at its cost; nil unless every fruit declares
    /// one (docs/planning.md: money needs every fruit's cost). Past what
    /// `Money` holds it throws, naming the fruit whose cost took it past.
    static func cost(of counts: [Int], _ book: RecipeBook, figure: String, _ what: String) throws(PlanError) -> Money? {
        guard book.fruits.allSatisfy({ $0.cost != nil }) else { return nil }
        var total = Money.zero
        for (fruit, count) in counts.enumerated() where count > 0 {
            guard let each = book.fruits[fruit].cost.map({ Money($0) }),
                  let part = each.multiplied(by: count), let sum = total.adding(part)
            else { throw .money(figure: figure, cause: "the cost of the '\(book.fruits[fruit].id)' \(what)") }
            total = sum
        }
        return total
    }

    /// `total + more`, a run's tally of `name`; past what a count holds it
    /// throws, naming the fruit or recipe, rather than stopping at the largest count.
    static func tally(_ total: Int, _ more: Int, _ what: String, _ name: String, _ day: Int) throws(PlanError) -> Int {
        let (sum, overflow) = total.addingReportingOverflow(more)
        guard !overflow else { throw .tally(what, name: name, day: day) }
        return sum
    }
}
