import JuiceBook
import JuiceEngine
/// `--target-service P`: par levels (an `up-to`, bought each morning, for
/// every fruit) that reach a cycle service level of at least P at the
/// lowest purchase cost the search finds.
///
/// Every candidate is judged on the same runs (the same seed: common random
/// numbers), so two candidates differ by their levels, not by their luck.
/// The search scales a base level (each fruit's expected daily use) until
/// the target is met, by bisection on the scale, then lowers one fruit at a
/// time, the one whose step saves the most, while the target still holds.
/// The levels found are re-checked on runs from a fresh seed.
public struct ParLevelSearch: Sendable {
    public struct Outcome: Sendable {
        /// By fruit index; nil when the target cannot be reached.
        public var levels: [Int]?
        /// The cycle service level the search saw at `levels` (on its own runs).
        public var searched: Double
        /// The re-check on fresh runs: service level, and purchases per day.
        public var recheck: PlanSummary?
        public var freshSeed: UInt64
        /// Why the target is out of reach, when it is.
        public var unreachable: String?
        /// How many candidates were judged.
        public var candidates: Int
    }

    public let book: RecipeBook
    public let settings: PlanSettings
    public let target: Double
    public let runner: any PlanRunner
    /// Levels past this are not tried: a fruit that needs more is out of reach.
    static let ceiling = 1 << 40

    public init(book: RecipeBook, settings: PlanSettings, target: Double, runner: any PlanRunner) {
        self.book = book
        self.settings = settings
        self.target = target
        self.runner = runner
    }

    /// A candidate's mean cycle service level and mean purchases (in money
    /// where every fruit has a cost, else in units) over the search's runs.
    private func judge(_ levels: [Int], settings: PlanSettings) throws(PlanError) -> (service: Double, cost: Double) {
        let runs = try runner.runs(of: PlanRun(book: book, settings: settings, parLevels: levels), count: settings.runs)
        let service = runs.map(\.cycleServiceLevel).reduce(0, +) / Double(max(runs.count, 1))
        let cost = runs.map { run -> Double in
            if let money = run.purchases { return Double(money.numerator) / Double(money.denominator) }
            return run.bought.reduce(0.0) { $0 + Double($1) }
        }.reduce(0, +) / Double(max(runs.count, 1))
        return (service, cost)
    }

    public func run() throws(PlanError) -> Outcome {
        var candidates = 0
        if let reason = Self.outOfReach(book) {
            return Outcome(levels: nil, searched: 0, recheck: nil, freshSeed: 0, unreachable: reason, candidates: 0)
        }
        let base = Self.expectedDailyUse(book, settings)
        func levels(_ scale: Double) -> [Int] {
            base.enumerated().map { fruit, use in
                let wanted = (use * scale).rounded(.up)
                let pack = max(book.fruits[fruit].pack, 1)
                let capped = min(wanted, Double(Self.ceiling))
                let packs = (capped / Double(pack)).rounded(.up)
                return min(Int(packs) * pack, Self.ceiling)
            }
        }
        // Grow the scale until the target is met (or the ceiling is reached).
        var high = 1.0
        var highLevels = levels(high)
        var best = try judge(highLevels, settings: settings)
        candidates += 1
        while best.service < target && highLevels.contains(where: { $0 < Self.ceiling }) && candidates < 64 {
            high *= 2
            highLevels = levels(high)
            best = try judge(highLevels, settings: settings)
            candidates += 1
        }
        guard best.service >= target else {
            return Outcome(
                levels: nil, searched: best.service, recheck: nil, freshSeed: 0,
                unreachable: Self.whyUnreachable(service: best.service), candidates: candidates
            )
        }
        // Bisect the scale between the last miss and the first hit.
        var low = high / 2
        if high == 1 { low = 0 }
        for _ in 0..<12 {
            let middle = (low + high) / 2
            let judged = try judge(levels(middle), settings: settings)
            candidates += 1
            if judged.service >= target { high = middle; best = judged } else { low = middle }
        }
        var current = levels(high)
        var cost = best.cost
        var service = best.service
        // Lower one fruit at a time, the step that saves the most first.
        var improved = true
        while improved && candidates < 200 {
            improved = false
            var choice: (fruit: Int, level: Int, cost: Double, service: Double)?
            for fruit in current.indices where current[fruit] > 0 {
                let pack = max(book.fruits[fruit].pack, 1)
                let step = max(pack, (current[fruit] / 20) / pack * pack)
                var trial = current
                trial[fruit] = max(current[fruit] - step, 0)
                let judged = try judge(trial, settings: settings)
                candidates += 1
                guard judged.service >= target, judged.cost < cost else { continue }
                if choice == nil || judged.cost < choice?.cost ?? .infinity {
                    choice = (fruit, trial[fruit], judged.cost, judged.service)
                }
            }
            if let choice {
                current[choice.fruit] = choice.level
                cost = choice.cost
                service = choice.service
                improved = true
            }
        }
        // The re-check, on runs from a seed none of the search's runs used.
        var fresh = settings
        fresh.seed = DemandStream.derive(settings.seed, 0)
        let runs = try runner.runs(of: PlanRun(book: book, settings: fresh, parLevels: current), count: fresh.runs)
        return Outcome(
            levels: current, searched: service, recheck: PlanSummary(settings: fresh, runs: runs, fruitCount: book.fruits.count),
            freshSeed: fresh.seed, unreachable: nil, candidates: candidates
        )
    }

    /// Each fruit's expected use a day: orders a day × the mix's share of
    /// each item (with `--history`, each item's mean a day over the plan's
    /// days) × the item's fruit for one order made fresh (batches only
    /// lower it), the scale the search and the report's sweep start from.
    public static func expectedDailyUse(_ book: RecipeBook, _ settings: PlanSettings) -> [Double] {
        if let history = settings.history {
            // The items' means averaged over the plan's days (per weekday or not).
            let means = history.averageMeans(overPlanDays: settings.days)
            var use = [Double](repeating: 0, count: book.fruits.count)
            for item in book.menu.indices where item < means.count {
                for need in Capacity.need(of: .menuItem(item), in: book) ?? [] where need.fruit < use.count {
                    use[need.fruit] += means[item] * Double(need.amount)
                }
            }
            return use
        }
        let weights = settings.weights.map { $0.map(Double.init) } ?? Array(repeating: 1, count: book.menu.count)
        let total = max(weights.reduce(0, +), 1)
        var use = [Double](repeating: 0, count: book.fruits.count)
        for item in book.menu.indices where item < weights.count {
            for need in Capacity.need(of: .menuItem(item), in: book) ?? [] where need.fruit < use.count {
                use[need.fruit] += Double(settings.ordersPerDay) * weights[item] / total * Double(need.amount)
            }
        }
        return use
    }

    /// A menu item whose one order needs more of a fruit than the highest
    /// level tried: no par level serves it, so no service level is sure.
    static func outOfReach(_ book: RecipeBook) -> String? {
        for (index, item) in book.menu.enumerated() {
            for need in Capacity.need(of: .menuItem(index), in: book) ?? [] where need.amount > ceiling {
                let fruit = book.fruits.indices.contains(need.fruit) ? book.fruits[need.fruit].id : "?"
                return "menu item '\(item.id)' needs \(need.amount) '\(fruit)' for one order, more than any par level tried (up to \(ceiling))"
            }
        }
        return nil
    }

    /// Why the highest levels tried still miss the target.
    static func whyUnreachable(service: Double) -> String {
        let percent = (service * 10_000).rounded() / 100
        return "with every fruit's up-to at the highest level tried, the cycle service level is \(percent)%"
    }
}
