import JuiceBook
/// A figure across runs: the mean of the runs' values and a 95% confidence
/// interval, mean ± t·s/√R with Student's t at R − 1 degrees of freedom for
/// the expected value of that figure in one run, or, for a share (the fill
/// rate, the cycle service level, a fruit's short days), the Wilson score
/// interval on the counts pooled over the runs (docs/planning.md).
public struct Estimate: Sendable, Hashable {
    public let mean: Double
    /// Nil with one run: one value says nothing of the spread.
    public let low: Double?
    public let high: Double?
    /// t·s/√R, for the intervals that are mean ± it (nil for a share's).
    public let halfWidth: Double?
    /// A money figure's exact mean, which the reports print (rounded once)
    /// in place of `mean`, with `halfWidth` either side.
    public internal(set) var money: MoneyMean?

    /// The estimate from each run's value, in run order (the order fixes
    /// the rounding, so the same runs give the same bits).
    public init(_ values: [Double]) {
        let count = Double(values.count)
        guard !values.isEmpty else {
            mean = 0; low = nil; high = nil; halfWidth = nil
            return
        }
        let mean = values.reduce(0, +) / count
        self.mean = mean
        guard values.count > 1 else {
            low = nil; high = nil; halfWidth = nil
            return
        }
        let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        let half = Self.tQuantile(degreesOfFreedom: values.count - 1) * (squares / (count - 1)).squareRoot() / count.squareRoot()
        low = mean - half
        high = mean + half
        halfWidth = half
    }

    /// The ratio of two totals across runs (all orders served ÷ all
    /// orders; 1 with no orders), with the Wilson interval on those totals.
    /// The mean of each run's own ratio would weigh a slow day's few orders
    /// like a busy day's many, and estimate something else than "the share
    /// of orders served" (E[min(D, S)] ÷ E[D] for one fruit and one day).
    public init(ratioOf numerators: [Int], over denominators: [Int]) {
        // 128 bits: up to 100,000 runs of 64-bit counts cannot overflow.
        let top = numerators.reduce(Int128(0)) { $0 + Int128($1) }
        let bottom = denominators.reduce(Int128(0)) { $0 + Int128($1) }
        self.init(share: bottom > 0 ? Double(top) / Double(bottom) : 1, successes: top, trials: bottom, runs: numerators.count)
    }

    /// A share across runs: `mean` as the caller works it out, and the
    /// Wilson score interval for `successes` out of `trials` pooled over
    /// the runs (none with one run, as for every figure; [mean, mean] with
    /// no trials). Unlike mean ± t·s/√R it stays within [0, 1], and it
    /// does not shrink to a point when every run gives 0 or 1.
    init(share mean: Double, successes: Int128, trials: Int128, runs: Int) {
        self.mean = mean
        halfWidth = nil
        guard runs > 1 else {
            low = nil; high = nil
            return
        }
        guard trials > 0 else {
            low = mean; high = mean
            return
        }
        (low, high) = Self.wilson(successes: successes, trials: trials)
    }

    /// The 95% Wilson score interval for a proportion, `successes` k of
    /// `trials` n (n > 0): the p with (k/n − p)² ≤ z²·p(1 − p)/n, z the
    /// normal's 97.5% quantile. Its low end is
    /// (2k + z² − z·√(z² + 4k(n − k)/n)) ÷ 2(n + z²), and its high end the
    /// low end for the failures, taken from 1, so that k = 0 gives exactly
    /// 0 and k = n exactly 1 (z·√(z²) is z² to the bit).
    static func wilson(successes: Int128, trials: Int128) -> (low: Double, high: Double) {
        let z = 1.959963984540054, zz = z * z
        let n = Double(trials)
        func low(_ k: Int128) -> Double {
            let k = min(max(k, 0), trials)
            let root = z * (zz + 4 * Double(k) * Double(trials - k) / n).squareRoot()
            return max(0, (2 * Double(k) + zz - root) / (2 * (n + zz)))
        }
        return (low(successes), 1 - low(trials - successes))
    }

    /// A money figure: the mean and interval of the runs' amounts as
    /// doubles (each divided by `divisor`, a per-day figure), and their
    /// exact mean, which is what the reports print.
    init(money values: [Money], dividedBy divisor: Int = 1) {
        self.init(values.map { Double($0.numerator) / Double($0.denominator) / Double(max(divisor, 1)) })
        money = MoneyMean(values, dividedBy: max(divisor, 1))
    }

    /// t's 97.5% quantiles for 1 … 200 degrees of freedom: each the root,
    /// to double precision, of the exact t distribution function for whole
    /// degrees of freedom, found once by bisection.
    static let table: [Double] = [
        12.706204736174676, 4.302652729749459, 3.1824463052837064, 2.7764451051977908, 2.5705818356363146,
        2.446911851144968, 2.364624251592783, 2.306004135204166, 2.2621571627982053, 2.228138851986274,
        2.200985160091639, 2.1788128296672262, 2.16036865646279, 2.1447866879178035, 2.131449545559774,
        2.119905299221254, 2.1098155778333165, 2.100922040241037, 2.0930240544083096, 2.085963447265864,
        2.079613844727679, 2.0738730679040227, 2.0686576104190477, 2.0638985616280223, 2.0595385527532972,
        2.055529438642873, 2.051830516480285, 2.048407141795245, 2.0452296421327043, 2.042272456301238,
        2.039513446396408, 2.0369333434601007, 2.034515297449338, 2.032244509317718, 2.0301079282503407,
        2.0280940009804516, 2.0261924630291084, 2.0243941639119702, 2.022690920036762, 2.0210753903062715,
        2.0195409704413754, 2.018081702818445, 2.0166921992278253, 2.015367574443763, 2.014103388880848,
        2.012895598919429, 2.0117405137297677, 2.0106347576242287, 2.0095752371292424, 2.0085591121007607,
        2.007583770315833, 2.0066468050616875, 2.005745995317872, 2.0048792881880546, 2.004044783289146,
        2.0032407188478683, 2.0024654592910025, 2.001717484145235, 2.0009953780882688, 2.00029782201426,
        1.9996235849949384, 1.9989715170333784, 1.9983405425207388, 1.99772965431769, 1.997137908392003,
        1.9965644189523095, 1.996008354025296, 1.9954689314298468, 1.9949454151072432, 1.9944371117711865,
        1.993943367845624, 1.9934635666618719, 1.9929971258898544, 1.9925434951809304, 1.9921021540022372,
        1.9916726096446706, 1.9912543953883879, 1.9908470688116875, 1.9904502102301298, 1.9900634212544466,
        1.989686323456898, 1.9893185571365781, 1.9889597801751604, 1.9886096669757114, 1.9882679074772205,
        1.987934206239022, 1.9876082815890737, 1.987289864831172, 1.9869786995062761, 1.986674540703762,
        1.9863771544186202, 1.986086316951123, 1.985801814345824, 1.9855234418666052, 1.985251003505497,
        1.9849843115224575, 1.9847231860139893, 1.9844674545084784, 1.9842169515864096, 1.9839715185235574,
        1.9837310029556035, 1.9834952585628827, 1.9832641447734556, 1.9830375264837223, 1.9828152737950413,
        1.9825972617655028, 1.9823833701756879, 1.9821734833077294, 1.9819674897364874, 1.9817652821323697,
        1.9815667570748987, 1.9813718148762978, 1.9811803594146604, 1.98099229797586, 1.9808075411039114,
        1.9806260024590814, 1.9804475986834, 1.9802722492729798, 1.9800998764569382, 1.9799304050824413,
        1.979763762505387, 1.9795998784866393, 1.9794386850933003, 1.9792801166048513, 1.979124109423799,
        1.9789706019906306, 1.9788195347028457, 1.978670849837842, 1.9785244914792597, 1.978380405447016,
        1.9782385392303792, 1.978098841924131, 1.9779612641677304, 1.9778257580871208, 1.977692277239251,
        1.9775607765589234, 1.9774312123081743, 1.9773035420276468, 1.9771777244903341, 1.9770537196570972,
        1.9769314886342504, 1.9768109936328564, 1.9766921979298013, 1.9765750658304464, 1.9764595626329204,
        1.976345654593815, 1.976233308895337, 1.9761224936137438, 1.976013177689191, 1.9759053308966208,
        1.9757989238179334, 1.9756939278152692, 1.975590315005252, 1.9754880582343497, 1.9753871310551152,
        1.9752875077034435, 1.975189163076605, 1.9750920727120924, 1.9749962127674805, 1.974901560000787,
        1.974808091751783, 1.9747157859237876, 1.974624620966372, 1.974534575858467, 1.9744456300923843,
        1.974357763658023, 1.9742709570280685, 1.974185191143329, 1.9741004473989663, 1.974016707630958,
        1.9739339541031162, 1.973852169494501, 1.9737713368875291, 1.9736914397560752, 1.9736124619543718,
        1.9735343877061178, 1.9734572015938143, 1.9733808885488089, 1.9733054338414835, 1.97323082307155,
        1.9731570421591655, 1.973084077335915, 1.973011915136285, 1.9729405423893565, 1.9728699462109138,
        1.9728001139954459, 1.972731033408924, 1.9726626923813044, 1.9725950790996643, 1.9725281820013043,
        1.9724619897671998, 1.972396491315569, 1.972331675795747, 1.9722675325821273, 1.972204051268435,
        1.9721412216620497, 1.9720790337785017, 1.972017477836303, 1.9719565442517473, 1.9718962236339137,
    ]

    /// The 97.5% quantile of Student's t: the table to 200 degrees of
    /// freedom, then the Cornish–Fisher expansion about the normal
    /// quantile, within 2e−12 of the exact value from 201 on. No platform
    /// function is called, so every machine gives the same bits.
    static func tQuantile(degreesOfFreedom df: Int) -> Double {
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
        fillRate = Estimate(ratioOf: runs.map(\.served), over: runs.map(\.orders))
        cycleServiceLevel = Self.cycleServiceLevel(runs)
        let days = runs.reduce(Int128(0)) { $0 + Int128($1.days) }
        fruits = (0..<fruitCount).map { fruit in
            FruitEstimates(
                shortDayShare: Estimate(
                    share: Estimate(runs.map { $0.shortDayShare(fruit) }).mean,
                    successes: runs.reduce(Int128(0)) { $0 + Int128($1.shortDays[fruit]) }, trials: days, runs: runs.count
                ),
                wasted: Estimate(runs.map { Double($0.wasted[fruit]) }),
                averageOnHand: Estimate(runs.map { $0.averageOnHand(fruit) }),
                bought: Estimate(runs.map { Double($0.bought[fruit]) })
            )
        }
        func money(_ figure: (PlanRunResult) -> Money?) -> Estimate? {
            var values: [Money] = []
            for run in runs {
                guard let value = figure(run) else { return nil }
                values.append(value)
            }
            return Estimate(money: values)
        }
        revenue = money(\.revenue)
        purchases = money(\.purchases)
        wasteAtCost = money(\.wasteAtCost)
        grossMargin = money(\.grossMargin)
    }

    /// The cycle service level across runs: the mean of the runs' levels,
    /// with the Wilson interval on the days without a refusal of all days
    /// (the summary's, the re-check's and the report's sweep's).
    public static func cycleServiceLevel(_ runs: [PlanRunResult]) -> Estimate {
        Estimate(
            share: Estimate(runs.map(\.cycleServiceLevel)).mean,
            successes: runs.reduce(Int128(0)) { $0 + Int128($1.daysWithoutRefusal) },
            trials: runs.reduce(Int128(0)) { $0 + Int128($1.days) }, runs: runs.count
        )
    }
}
