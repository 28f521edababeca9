import JuiceBook
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

    public init() {}

    public static let maximumDays = 100_000
    public static let maximumRuns = 100_000
    public static let maximumOrdersPerDay = 1_000_000
}

/// Why a run could not go on: a purchase past what a count can hold.
public enum PlanError: Error, Sendable, Equatable, CustomStringConvertible {
    case overflow(fruit: String, day: Int)

    public var description: String {
        switch self {
        case .overflow(let fruit, let day):
            return "on day \(day), restocking '\(fruit)' would take its stock past \(Int.max)"
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
    /// The sum over the days of the units on hand at the end of the day.
    public var onHandDays: [Int] = []
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

    /// With `parLevels` (by fruit index), every fruit is bought each
    /// morning up to its level, whatever the book says.
    public init(book: RecipeBook, settings: PlanSettings, parLevels: [Int]? = nil) {
        self.book = book
        self.settings = settings
        restocks = parLevels.map { levels in book.fruits.indices.map { RecipeBook.Restock(upTo: levels.indices.contains($0) ? levels[$0] : 0) } }
            ?? book.fruits.map(\.restock)
    }

    /// With `restocks` (by fruit index) in place of the book's.
    public init(book: RecipeBook, settings: PlanSettings, restocks: [RecipeBook.Restock?]) {
        self.book = book
        self.settings = settings
        self.restocks = book.fruits.indices.map { restocks.indices.contains($0) ? restocks[$0] : nil }
    }

    /// Run `number` (from 1) of the settings; with `trace`, day by day too.
    public func run(_ number: Int, trace: Bool = false) throws(PlanError) -> PlanRunResult {
        let fruits = book.fruits, recipes = book.recipes
        var maker = JuiceMaker(book: book)
        var stream = DemandStream(
            seed: settings.seed, run: number, demand: settings.demand, ordersPerDay: settings.ordersPerDay,
            menuCount: book.menu.count, weights: settings.weights
        )
        var result = PlanRunResult()
        result.run = number
        result.days = settings.days
        let zeros = [Int](repeating: 0, count: fruits.count)
        result.shortDays = zeros
        result.wasted = zeros
        result.onHandDays = zeros
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
                received[delivery.fruit] = Self.adding(received[delivery.fruit], delivery.units)
            }
            for (fruit, declared) in fruits.enumerated() {
                guard let restock = restocks[fruit], restock.below == nil else { continue }
                let units = try Self.unitsToBuy(from: maker.store[fruit], upTo: restock.upTo, pack: declared.pack, fruit: declared.id, day: day)
                guard units > 0 else { continue }
                try receive(units, of: fruit, on: day, into: &maker, &fruitLots)
                result.bought[fruit] = Self.adding(result.bought[fruit], units)
                received[fruit] = Self.adding(received[fruit], units)
            }
            // The day's orders.
            let opening = maker.store.counts
            let openingServings = maker.store.servings
            var made = [Int](repeating: 0, count: recipes.count)
            var refusedToday = 0
            var shortToday = [Bool](repeating: false, count: fruits.count)
            let count = stream.ordersToday()
            for _ in 0..<count {
                let item = stream.nextItem()
                result.orders += 1
                if maker.make(item, shortages: &shortages) {
                    result.served += 1
                    if let price = book.menu[item].price, let total = revenue { revenue = Self.checkedSum(total, price) }
                    for batch in maker.batchesMade where made.indices.contains(batch.index) {
                        made[batch.index] = Self.adding(made[batch.index], Self.multiplying(batch.amount, recipes[batch.index].yield))
                    }
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
                fruitLots[fruit].use(opening[fruit] - maker.store[fruit])
                if let keeps = fruits[fruit].keeps {
                    let wasted = fruitLots[fruit].spoil(receivedThrough: day - keeps + 1)
                    if wasted > 0 {
                        try? maker.store.set(fruit, to: maker.store[fruit] - wasted)
                        result.wasted[fruit] = Self.adding(result.wasted[fruit], wasted)
                        wastedToday[fruit] = wasted
                    }
                }
            }
            for recipe in recipes.indices where recipe < servingLots.count {
                servingLots[recipe].receive(made[recipe], on: day)
                let before = openingServings.indices.contains(recipe) ? openingServings[recipe] : 0
                servingLots[recipe].use(before + made[recipe] - maker.store.servings[recipe])
                if let keeps = recipes[recipe].keeps {
                    let wasted = servingLots[recipe].spoil(receivedThrough: day - keeps + 1)
                    if wasted > 0 {
                        try? maker.store.set(recipe: recipe, to: maker.store.servings[recipe] - wasted)
                        wastedServings[recipe] += wasted
                    }
                }
            }
            // Review: each (s, S) fruit whose position is below s orders packs.
            for (fruit, declared) in fruits.enumerated() {
                guard let restock = restocks[fruit], let below = restock.below else { continue }
                let position = Self.adding(maker.store[fruit], onOrder[fruit])
                guard position < below else { continue }
                let units = try Self.unitsToBuy(from: position, upTo: restock.upTo, pack: declared.pack, fruit: declared.id, day: day)
                guard units > 0 else { continue }
                let (arrival, late) = day.addingReportingOverflow(restock.lead &+ 1)
                if !late && restock.lead < Int.max { arriving[arrival, default: []].append((fruit, units)) }
                onOrder[fruit] = Self.adding(onOrder[fruit], units)
                result.bought[fruit] = Self.adding(result.bought[fruit], units)
            }
            for fruit in fruits.indices {
                result.onHandDays[fruit] = Self.adding(result.onHandDays[fruit], maker.store[fruit])
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
        result.purchases = Self.cost(of: result.bought, book)
        if let fruitWaste = Self.cost(of: result.wasted, book) {
            var total: Money? = fruitWaste
            for (recipe, servings) in wastedServings.enumerated() where servings > 0 {
                let each = book.costs?.recipes.indices.contains(recipe) == true ? book.costs?.recipes[recipe] : nil
                total = total.flatMap { sum in each.flatMap { $0.multiplied(by: servings) }.flatMap { sum.adding($0) } }
            }
            result.wasteAtCost = total
        }
        if let revenue = result.revenue, let purchases = result.purchases { result.grossMargin = revenue.subtracting(purchases) }
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
    /// one (docs/planning.md: money needs every fruit's cost).
    static func cost(of counts: [Int], _ book: RecipeBook) -> Money? {
        guard book.fruits.allSatisfy({ $0.cost != nil }) else { return nil }
        var total: Money? = .zero
        for (fruit, count) in counts.enumerated() where count > 0 {
            let each = book.fruits[fruit].cost.map { Money($0) }
            total = total.flatMap { sum in each.flatMap { $0.multiplied(by: count) }.flatMap { sum.adding($0) } }
        }
        return total
    }

    static func adding(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : sum
    }

    static func multiplying(_ a: Int, _ b: Int) -> Int {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int.max : product
    }

    static func checkedSum(_ a: Int, _ b: Int) -> Int? {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : sum
    }
}
