import JuiceBook
/// A figure across runs: the mean of the runs' values and a 95% confidence
/// interval for the expected value of that figure in one run, mean ± t·s/√R
/// with Student's t at R − 1 degrees of freedom (docs/planner.md).
public struct Estimate: Sendable, Hashable {
    public let mean: Double
    /// Nil with one run: one value says nothing of the spread.
    public let low: Double?
    public let high: Double?

    /// The estimate from each run's value, in run order (the order fixes
    /// the rounding, so the same runs give the same bits).
    public init(_ values: [Double]) {
        let count = Double(values.count)
        guard !values.isEmpty else {
            mean = 0; low = nil; high = nil
            return
        }
        let mean = values.reduce(0, +) / count
        self.mean = mean
        guard values.count > 1 else {
            low = nil; high = nil
            return
        }
        let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        let half = Self.tQuantile(degreesOfFreedom: values.count - 1) * (squares / (count - 1)).squareRoot() / count.squareRoot()
        low = mean - half
        high = mean + half
    }

    /// The 97.5% quantile of Student's t: a table to 30 degrees of freedom,
    /// then the Cornish–Fisher expansion about the normal quantile, within
    /// 1e−6 of the exact value from 31 on.
    static func tQuantile(degreesOfFreedom df: Int) -> Double {
        let table: [Double] = [
            12.706204736, 4.302652730, 3.182446305, 2.776445105, 2.570581836, 2.446911851, 2.364624252, 2.306004135,
            2.262157163, 2.228138852, 2.200985160, 2.178812830, 2.160368656, 2.144786688, 2.131449546, 2.119905299,
            2.109815578, 2.100922040, 2.093024054, 2.085963447, 2.079613845, 2.073873068, 2.068657610, 2.063898562,
            2.059538553, 2.055529439, 2.051830516, 2.048407142, 2.045229642, 2.042272456,
        ]
        if df >= 1 && df <= table.count { return table[df - 1] }
        let z = 1.959963984540054, v = Double(max(df, 1))
        let z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z, z9 = z7 * z * z
        return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v)
            + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v * v * v)
            + (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * v * v * v * v)
    }
}

/// Every run's figures and their estimates across the runs.
public struct PlanSummary: Sendable {
    public struct FruitEstimates: Sendable, Hashable {
        public let shortDayShare: Estimate
        public let wasted: Estimate
        public let averageOnHand: Estimate
        public let bought: Estimate
    }

    public let settings: PlanSettings
    public let runs: [PlanRunResult]
    public let fillRate: Estimate
    public let cycleServiceLevel: Estimate
    /// By fruit index.
    public let fruits: [FruitEstimates]
    /// Nil where some run's figure is unknown.
    public let revenue: Estimate?
    public let purchases: Estimate?
    public let wasteAtCost: Estimate?
    public let grossMargin: Estimate?

    public init(settings: PlanSettings, runs: [PlanRunResult], fruitCount: Int) {
        self.settings = settings
        self.runs = runs
        fillRate = Estimate(runs.map(\.fillRate))
        cycleServiceLevel = Estimate(runs.map(\.cycleServiceLevel))
        fruits = (0..<fruitCount).map { fruit in
            FruitEstimates(
                shortDayShare: Estimate(runs.map { $0.shortDayShare(fruit) }),
                wasted: Estimate(runs.map { Double($0.wasted[fruit]) }),
                averageOnHand: Estimate(runs.map { $0.averageOnHand(fruit) }),
                bought: Estimate(runs.map { Double($0.bought[fruit]) })
            )
        }
        func money(_ figure: (PlanRunResult) -> Money?) -> Estimate? {
            var values: [Double] = []
            for run in runs {
                guard let value = figure(run) else { return nil }
                values.append(Double(value.numerator) / Double(value.denominator))
            }
            return Estimate(values)
        }
        revenue = money(\.revenue)
        purchases = money(\.purchases)
        wasteAtCost = money(\.wasteAtCost)
        grossMargin = money(\.grossMargin)
    }
}
