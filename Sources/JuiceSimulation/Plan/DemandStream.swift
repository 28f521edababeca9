/// One planner run's random draws: how many orders a day brings and which
/// item each is, from a stream that depends on the seed and the run's
/// number alone, so that the output for a seed is the same on any number
/// of cores and any machine (docs/planning.md, "The random stream, exactly").
public struct DemandStream: Sendable {
    public enum Demand: String, Sendable, CaseIterable {
        /// Each day's count is Poisson with the given mean.
        case poisson
        /// Each day brings exactly the given count.
        case fixed
    }

    private var generator: OrderGenerator
    private let demand: Demand
    private let ordersPerDay: Int
    /// `--history`: each profile's running totals of the items' means, and the day's profile.
    private let historyTotals: [[Double]]?
    private let history: DemandHistory?
    private var profile = 0

    /// The stream of run `run` (from 1) for `seed`; with `history`, each
    /// day's count is Poisson with the sum of that day's item means, and
    /// each order's item is drawn in proportion to them (docs/planning.md).
    public init(seed: UInt64, run: Int, demand: Demand, ordersPerDay: Int, menuCount: Int, weights: [UInt64]?, history: DemandHistory? = nil) {
        generator = OrderGenerator(seed: Self.derive(seed, run), menuCount: menuCount, weights: weights)
        self.demand = demand
        self.ordersPerDay = max(ordersPerDay, 0)
        self.history = history
        historyTotals = history.map { history in
            history.estimates.map { estimates in
                var sum = 0.0
                return estimates.map { estimate in
                    sum += estimate.mean
                    return sum
                }
            }
        }
    }

    /// Run `run`'s starting state: the seed and the run's number, mixed
    /// (SplitMix64's finaliser with a second odd constant), so that
    /// neighbouring runs and seeds give unrelated streams.
    public static func derive(_ seed: UInt64, _ run: Int) -> UInt64 {
        var z = seed &+ UInt64(truncatingIfNeeded: run) &* 0xD1B5_4A32_D192_ED03
        z = (z ^ (z >> 32)) &* 0xD6E8_FEB8_6659_FD93
        z = (z ^ (z >> 32)) &* 0xD6E8_FEB8_6659_FD93
        return z ^ (z >> 32)
    }

    /// The number of orders of plan day `day` (from 1), the next day's.
    public mutating func ordersToday(day: Int = 1) -> Int {
        if let history, let totals = historyTotals {
            profile = history.profile(ofPlanDay: day)
            return poisson(mean: totals[profile].last ?? 0)
        }
        switch demand {
        case .fixed: return ordersPerDay
        case .poisson: return poisson(mean: Double(ordersPerDay))
        }
    }

    /// The next order's menu index.
    public mutating func nextItem() -> Int {
        guard let totals = historyTotals?[profile], let total = totals.last, total > 0 else { return generator.next() }
        // A uniform times the day's total, against the running totals: an
        // item with mean 0 is never drawn.
        let target = generator.nextUnit() * total
        for (item, running) in totals.enumerated() where running > target { return item }
        // The product rounded up to the total: the last item with a mean above 0.
        return totals.indices.last { $0 == 0 ? totals[0] > 0 : totals[$0] > totals[$0 - 1] } ?? 0
    }

    /// A Poisson draw with mean `mean`, as the sum of ⌈mean ÷ 30⌉ draws of
    /// equal parts, each by inversion (sequential search): e^−30 is far
    /// from underflow, and the work is linear in the mean.
    private mutating func poisson(mean: Double) -> Int {
        guard mean > 0 else { return 0 }
        // ⌈mean ÷ 30⌉; for a whole mean the same as (mean + 29) ÷ 30.
        let parts = Int((min(mean, Double(PlanSettings.maximumOrdersPerDay)) / 30).rounded(.up))
        let part = mean / Double(parts)
        let start = Self.expNegative(part)
        var total = 0
        for _ in 0..<parts {
            let u = generator.nextUnit()
            var p = start, cumulative = start, k = 0
            while u >= cumulative && k < 100_000 {
                k += 1
                p = p * part / Double(k)
                cumulative += p
            }
            total += k
        }
        return total
    }

    /// e^−x for 0 ≤ x ≤ 30 with only +, −, × and ÷, which IEEE 754 rounds
    /// the same on every machine (the platform's `exp` need not): the
    /// Taylor series of e^−(x/64), squared six times.
    static func expNegative(_ x: Double) -> Double {
        let y = x / 64
        var sum = 1.0, term = 1.0
        for i in 1...20 {
            term = term * -y / Double(i)
            sum += term
        }
        for _ in 0..<6 { sum *= sum }
        return sum
    }
}
