import JuiceBook
import JuiceShop
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Each menu item's daily demand learnt from a journal export
/// (`juice-run plan --history FILE`, docs/planning.md), as Poisson means
/// with exact 95% intervals: what the planner draws from instead of
/// `--orders-per-day` and `--mix`.
///
/// - The days learnt from are the days with a `day-open` entry; an item not
///   ordered on one of them counts 0 that day. Entries of other days are
///   left out (and counted in `entriesOutsideDays`).
/// - Demand is in units: an order's or a refusal's `quantity`. Served
///   orders and refusals count; a voided order does not (a `void` names it
///   by `order`); a refusal that a later order made good (that order's
///   `resolves`), when that order was not voided, counts once, as the order;
///   a refunded order still counts (it was demanded).
/// - With `weekdayThreshold` (28) or more days, one mean per item and
///   Gregorian weekday of the `day`; with fewer, one mean per item. Plan
///   day d is the date `start` + d − 1, by default the day after the last
///   day learnt from, and takes its weekday's means.
public struct DemandHistory: Sendable, Hashable {
    /// Days learnt from at which demand is estimated per weekday.
    public static let weekdayThreshold = 28
    public static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// One item's demand on one kind of day: `units` over `days` days, the
    /// mean a day, and the exact (Garwood) 95% interval for the expected
    /// units a day.
    public struct Estimate: Sendable, Hashable {
        public var units: Int
        public var days: Int
        public var mean: Double
        /// Nil when there is no such day in the history (a weekday the shop never opened).
        public var low: Double?
        public var high: Double?
    }

    /// The shop learnt from.
    public var shop: String
    /// Days with a `day-open` entry, and the first and last of them.
    public var days: Int
    public var firstDay: Int64
    public var lastDay: Int64
    /// Whether the means are per weekday (`profiles` is 7, Monday first) or one for every day (1).
    public var perWeekday: Bool
    /// By profile (weekday, or the single one), then by menu index.
    public var estimates: [[Estimate]]
    /// Plan day 1's date, as a day number.
    public var start: Int64
    /// Items the history names that the menu lacks (sorted), left out.
    public var unknownItems: [String]
    /// Menu items with no demand in the history: their mean is 0.
    public var unseenItems: [String]
    /// Orders and refusals on days without a `day-open` entry, left out.
    public var entriesOutsideDays: Int

    /// The means a profile's day draws from, by menu index, and their sum.
    public func means(profile: Int) -> [Double] { estimates[profile].map(\.mean) }

    /// The profile of plan day `day` (from 1).
    public func profile(ofPlanDay day: Int) -> Int {
        perWeekday ? JournalExport.weekday(start + Int64(day - 1)) : 0
    }

    /// Why a history cannot be planned from.
    public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        case read(JournalExport.ReadError)
        case severalShops([String])
        case noSuchShop(String, [String])
        case noDayOpen(String)
        case badDay(line: Int, String)
        case badQuantity(line: Int, Int)
        case tooMuch(count: String)
        case tooLarge(Double)

        public var description: String {
            switch self {
            case .read(let error): return "\(error)"
            case .severalShops(let shops):
                return "it holds several shops (\(shops.map { "'\($0)'" }.joined(separator: ", ")))\n  help: choose one with --history-shop NAME"
            case .noSuchShop(let shop, let shops):
                return "it holds no shop '\(shop)'; it holds \(shops.map { "'\($0)'" }.joined(separator: ", "))"
            case .noDayOpen(let shop):
                return "shop '\(shop)' has no day-open entry in it, so no day to learn from"
            case .badDay(let line, let day): return "line \(line): the day '\(day)' is not a date written YYYY-MM-DD"
            case .badQuantity(let line, let quantity): return "line \(line): the quantity \(quantity) is not a positive count"
            case .tooMuch(let count): return "\(count) would pass \(Int.max)"
            case .tooLarge(let mean):
                return "its demand, \(PlanReport.fixed(mean, 2)) orders on one day on average, is more than the planner's \(PlanSettings.maximumOrdersPerDay)"
            }
        }
    }

    /// The demand of `entries` (an export read by `JournalExport.parse`) for
    /// `book`'s menu, from the shop named `shop` (which may be nil when
    /// the export holds one shop), the plan starting on `start` (a day
    /// number; nil for the day after the last day learnt from).
    public init(entries: [JournalExport.ExportedEntry], book: RecipeBook, shop chosen: String?, start: Int64?) throws(Problem) {
        var shops: [String] = []
        for entry in entries where !shops.contains(entry.shop) { shops.append(entry.shop) }
        shops.sort()
        let shop: String
        if let chosen {
            guard shops.contains(chosen) else { throw .noSuchShop(chosen, shops) }
            shop = chosen
        } else {
            guard shops.count == 1, let only = shops.first else { throw .severalShops(shops) }
            shop = only
        }
        self.shop = shop
        let mine = entries.filter { $0.shop == shop }

        // The days learnt from, and what corrects what.
        var opened = Set<Int64>()
        var voided = Set<Int64>()
        for exported in mine {
            switch exported.entry.event {
            case .dayOpen:
                guard let day = JournalExport.dayNumber(exported.entry.day) else { throw .badDay(line: exported.line, exported.entry.day) }
                opened.insert(day)
            case .void(let correction): voided.insert(correction.order)
            default: break
            }
        }
        guard let first = opened.min(), let last = opened.max() else { throw .noDayOpen(shop) }
        var resolved = Set<Int64>()
        for exported in mine {
            if case .order(let made) = exported.entry.event, let refusal = made.resolves, !voided.contains(exported.entry.sequence) {
                resolved.insert(refusal)
            }
        }

        // Units by item and day.
        var itemIndex: [String: Int] = [:]
        for (index, item) in book.menu.enumerated() where itemIndex[item.id] == nil { itemIndex[item.id] = index }
        let perWeekday = opened.count >= Self.weekdayThreshold
        self.perWeekday = perWeekday
        let profiles = perWeekday ? 7 : 1
        var units = [[Int]](repeating: [Int](repeating: 0, count: book.menu.count), count: profiles)
        var unknown = Set<String>()
        var outside = 0
        for exported in mine {
            let entry = exported.entry
            let item: String, quantity: Int
            switch entry.event {
            case .order(let made) where !voided.contains(entry.sequence):
                (item, quantity) = (made.item, made.quantity)
            case .refusal(let refused) where !resolved.contains(entry.sequence):
                (item, quantity) = (refused.item, refused.quantity)
            default:
                continue
            }
            guard quantity > 0 else { throw .badQuantity(line: exported.line, quantity) }
            guard let day = JournalExport.dayNumber(entry.day), opened.contains(day) else {
                outside += 1
                continue
            }
            guard let index = itemIndex[item] else {
                unknown.insert(item)
                continue
            }
            let profile = perWeekday ? JournalExport.weekday(day) : 0
            let (sum, overflow) = units[profile][index].addingReportingOverflow(quantity)
            guard !overflow else { throw .tooMuch(count: "the units of '\(item)' in the history") }
            units[profile][index] = sum
        }
        var daysByProfile = [Int](repeating: 0, count: profiles)
        for day in opened { daysByProfile[perWeekday ? JournalExport.weekday(day) : 0] += 1 }
        estimates = (0..<profiles).map { profile in
            units[profile].map { total in
                let days = daysByProfile[profile]
                guard days > 0 else { return Estimate(units: total, days: 0, mean: 0, low: nil, high: nil) }
                let interval = Self.poissonInterval(total: total, days: days)
                return Estimate(units: total, days: days, mean: Double(total) / Double(days), low: interval.low, high: interval.high)
            }
        }
        for profile in estimates.indices {
            let total = estimates[profile].reduce(0) { $0 + $1.mean }
            guard total <= Double(PlanSettings.maximumOrdersPerDay) else { throw .tooLarge(total) }
        }
        days = opened.count
        firstDay = first
        lastDay = last
        self.start = start ?? last + 1
        unknownItems = unknown.sorted()
        unseenItems = book.menu.indices.filter { index in units.allSatisfy { $0[index] == 0 } }.map { book.menu[$0].id }
        entriesOutsideDays = outside
    }

    /// Each item's mean a day averaged over plan days 1 … `days`, by menu
    /// index: what `--target-service`'s search starts from.
    public func averageMeans(overPlanDays days: Int) -> [Double] {
        var total = [Double](repeating: 0, count: estimates.first?.count ?? 0)
        let count = max(days, 1)
        for day in 1...count {
            for (item, estimate) in estimates[profile(ofPlanDay: day)].enumerated() { total[item] += estimate.mean }
        }
        return total.map { $0 / Double(count) }
    }

    // MARK: The interval

    /// The exact (Garwood) 95% interval for a Poisson mean a day from
    /// `total` events over `days` days: [χ²(0.025; 2T) ÷ 2, χ²(0.975; 2T + 2)
    /// ÷ 2] ÷ n, the low end 0 when T is 0. It covers the true mean with at
    /// least 95% probability for every mean.
    public static func poissonInterval(total: Int, days: Int) -> (low: Double, high: Double) {
        let n = Double(max(days, 1))
        let t = Double(max(total, 0))
        let low = total <= 0 ? 0 : gammaQuantile(0.025, shape: t, z: -normal975)
        let high = gammaQuantile(0.975, shape: t + 1, z: normal975)
        return (max(low, 0) / n, max(high, 0) / n)
    }

    /// The normal's 97.5% quantile.
    static let normal975 = 1.959963984540054

    /// The `p` quantile of the gamma distribution with shape `a` and scale
    /// 1 (half the chi-square quantile with 2a degrees of freedom), by
    /// bisection on the regularized incomplete gamma function. Past a
    /// shape of 100,000 it uses the Wilson–Hilferty cube-root normal
    /// approximation with the normal quantile `z` (relative error far below
    /// the digits shown there), where the series would take long.
    static func gammaQuantile(_ p: Double, shape a: Double, z: Double) -> Double {
        guard a > 0 else { return 0 }
        if a > 100_000 {
            let c = 1 / (9 * a)
            let root = 1 - c + z * c.squareRoot()
            return a * root * root * root
        }
        var low = 0.0
        var high = a + 20 * a.squareRoot() + 20
        var grow = 0
        while regularizedGammaP(a, high) < p && grow < 64 {
            low = high
            high *= 2
            grow += 1
        }
        for _ in 0..<200 {
            let middle = (low + high) / 2
            guard middle > low && middle < high else { break }
            if regularizedGammaP(a, middle) < p { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    /// P(a, x), the regularized lower incomplete gamma function: by its
    /// series below x = a + 1, by the continued fraction for 1 − P above
    /// (Numerical Recipes' gser and gcf, modified Lentz).
    static func regularizedGammaP(_ a: Double, _ x: Double) -> Double {
        guard x > 0 else { return 0 }
        let front = exp(-x + a * log(x) - lgamma(a))
        if x < a + 1 {
            var term = 1 / a, sum = term, ap = a
            for _ in 0..<1_000_000 {
                ap += 1
                term *= x / ap
                sum += term
                if abs(term) < abs(sum) * 1e-16 { break }
            }
            return min(max(sum * front, 0), 1)
        }
        let tiny = 1e-300
        var b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d
        for i in 1..<1_000_000 {
            let an = -Double(i) * (Double(i) - a)
            b += 2
            d = an * d + b
            if abs(d) < tiny { d = tiny }
            c = b + an / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-16 { break }
        }
        return min(max(1 - front * h, 0), 1)
    }
}
