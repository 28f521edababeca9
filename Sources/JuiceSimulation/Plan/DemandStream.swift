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

    /// The stream of run `run` (from 1) for `seed`.
    public init(seed: UInt64, run: Int, demand: Demand, ordersPerDay: Int, menuCount: Int, weights: [UInt64]?) {
        generator = OrderGenerator(seed: Self.derive(seed, run), menuCount: menuCount, weights: weights)
        self.demand = demand
        self.ordersPerDay = max(ordersPerDay, 0)
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

    /// The next day's number of orders.
    public mutating func ordersToday() -> Int {
        switch demand {
        case .fixed: return ordersPerDay
        case .poisson: return poisson(mean: ordersPerDay)
        }
    }

    /// The next order's menu index.
    public mutating func nextItem() -> Int { generator.next() }

    /// A Poisson draw with mean `mean`, as the sum of ⌈mean ÷ 30⌉ draws of
    /// equal parts, each by inversion (sequential search): e^−30 is far
    /// from underflow, and the work is linear in the mean.
    private mutating func poisson(mean: Int) -> Int {
        guard mean > 0 else { return 0 }
        let parts = (mean + 29) / 30
        let part = Double(mean) / Double(parts)
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
