import JuiceBook

/// A shop day's Z report, built from its journal entries alone: what was
/// ordered, served, refused, voided and refunded, the money, the fruit used
/// and wasted, and the stock at open and at close; in all, per till and per
/// user.
///
/// The counts follow the journal's meaning:
/// - an order entry is one served order; a refusal is one refused order,
///   unless a later order of the day made it good (`resolves`), and then
///   the two count once, as served;
/// - a void reverses its order: it is no longer served, its price is not
///   revenue and its fruit is not used;
/// - a refund keeps the order served, pays its price back, and counts its
///   fruit as waste;
/// - `orders` is served plus refused plus voided: every order asked for.
///
/// Money is exact (`Money`): revenue in whole units, fruit cost as a
/// fraction, rounded once where shown. A figure that cannot be known (a
/// price or cost missing, or a sum past 64 bits) is nil.
public struct DayReport: Sendable, Hashable {
    /// One group of figures: the whole day, one till or one user.
    public struct Figures: Sendable, Hashable {
        public var orders = 0
        public var served = 0
        public var refused = 0
        public var voided = 0
        public var refunded = 0
        /// Prices of the orders made (each counted once, voided or not),
        /// exact to 128 bits, as the terminal counter shows its day.
        public var sales = Revenue()
        /// Prices paid back by voids and refunds, exact.
        public var returns = Revenue()
        /// Sales less returns; nil when it does not fit 64 bits. It can be
        /// below zero: a refund today of an order made on an earlier day.
        public var revenue: Money? {
            guard let sold = sales.exactInt, let paidBack = returns.exactInt else { return nil }
            return Money(sold).subtracting(Money(paidBack))
        }
        /// The cost of the fruit the served orders took, refunded ones included
        /// (that fruit was used up); nil when a cost is unknown.
        public var fruitCost: Money? = .zero
        /// The cost of the fruit of refunded orders.
        public var wasteCost: Money? = .zero

        /// Revenue less fruit cost.
        public var grossMargin: Money? {
            guard let revenue, let fruitCost else { return nil }
            return revenue.subtracting(fruitCost)
        }

        public init() {}
    }

    public let day: String
    /// Whether the day's journal has its close.
    public let isClosed: Bool
    public let total: Figures
    /// Figures per till and per user, sorted by name.
    public let tills: [(name: String, figures: Figures)]
    public let users: [(name: String, figures: Figures)]
    /// Fruit and servings given away by refunds, by id.
    public let waste: [JournalEntry.Count]
    /// The stock the day opened with, and the stock now (at close, once closed).
    public let openingStock: JournalEntry.Stock?
    public let closingStock: JournalEntry.Stock?

    public static func == (lhs: DayReport, rhs: DayReport) -> Bool {
        lhs.day == rhs.day && lhs.isClosed == rhs.isClosed && lhs.total == rhs.total
            && lhs.tills.map(\.name) == rhs.tills.map(\.name) && lhs.tills.map(\.figures) == rhs.tills.map(\.figures)
            && lhs.users.map(\.name) == rhs.users.map(\.name) && lhs.users.map(\.figures) == rhs.users.map(\.figures)
            && lhs.waste == rhs.waste && lhs.openingStock == rhs.openingStock && lhs.closingStock == rhs.closingStock
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(day)
        hasher.combine(total)
    }

    /// The report of `day` from its entries in journal order (the entries of
    /// other days are ignored), with `closingStock` as the stock after them.
    public init(day: String, entries: [JournalEntry], closingStock: JournalEntry.Stock?) {
        self.day = day
        var total = Figures()
        var tills: [String: Figures] = [:]
        var users: [String: Figures] = [:]
        var orders: [Int64: (entry: JournalEntry, made: JournalEntry.OrderMade)] = [:]
        var refusals: [Int64: JournalEntry] = [:]
        var waste: [String: Int] = [:]
        var opening: JournalEntry.Stock?
        var closed = false

        func count(_ entry: JournalEntry, _ change: (inout Figures) -> Void) {
            change(&total)
            change(&tills[entry.till, default: Figures()])
            change(&users[entry.user, default: Figures()])
        }

        for entry in entries where entry.day == day {
            switch entry.event {
            case .dayOpen(let stock):
                opening = stock
            case .dayClose:
                closed = true
            case .order(let made):
                orders[entry.sequence] = (entry, made)
                // A refusal this order made good was counted as refused; it is now served.
                if let refusal = made.resolves.flatMap({ refusals.removeValue(forKey: $0) }) {
                    count(refusal) { $0.refused -= 1; $0.orders -= 1 }
                }
                count(entry) { figures in
                    figures.orders += 1
                    figures.served += 1
                    // An item without a price adds nothing, as at the terminal counter.
                    figures.sales.add(made.price ?? 0)
                    figures.fruitCost = Self.add(figures.fruitCost, made.cost?.money)
                }
            case .refusal:
                refusals[entry.sequence] = entry
                count(entry) { $0.orders += 1; $0.refused += 1 }
            case .void(let correction):
                // Counted against the order's till and user, where it was sold.
                let sold = orders[correction.order]?.entry ?? entry
                count(sold) { figures in
                    figures.served -= 1
                    figures.voided += 1
                    figures.returns.add(correction.price ?? 0)
                    figures.fruitCost = Self.add(figures.fruitCost, Self.negated(correction.cost?.money))
                }
            case .refund(let correction):
                // A refund may be for an order of an earlier day: it counts
                // on the day it is given, against the till and user who gave it.
                count(entry) { figures in
                    figures.refunded += 1
                    figures.returns.add(correction.price ?? 0)
                    figures.wasteCost = Self.add(figures.wasteCost, correction.cost?.money)
                }
                for taken in correction.fruit { waste[taken.id, default: 0] += taken.count }
            case .stockChange, .stockSet:
                break
            }
        }
        self.total = total
        self.tills = tills.keys.sorted().map { ($0, tills[$0] ?? Figures()) }
        self.users = users.keys.sorted().map { ($0, users[$0] ?? Figures()) }
        self.waste = waste.keys.sorted().map { JournalEntry.Count(id: $0, count: waste[$0] ?? 0) }
        openingStock = opening
        self.closingStock = closingStock
        isClosed = closed
    }

    private static func negated(_ amount: Money?) -> Money? {
        guard let amount, amount.numerator != Int.min else { return nil }
        return Money(-amount.numerator, over: amount.denominator)
    }

    /// `sum + amount`, nil once either is unknown or the sum is past 64 bits.
    private static func add(_ sum: Money?, _ amount: Money?) -> Money? {
        guard let sum, let amount else { return nil }
        return sum.adding(amount)
    }
}

extension DayReport.Figures {
    /// Adds another group's figures: counts and money summed, a money
    /// figure unknown in either unknown in the sum. The chain's report is
    /// its shops' figures added up this way, so it cannot disagree with them.
    public mutating func add(_ other: DayReport.Figures) {
        orders += other.orders
        served += other.served
        refused += other.refused
        voided += other.voided
        refunded += other.refunded
        sales.add(other.sales)
        returns.add(other.returns)
        fruitCost = fruitCost.flatMap { sum in other.fruitCost.flatMap { sum.adding($0) } }
        wasteCost = wasteCost.flatMap { sum in other.wasteCost.flatMap { sum.adding($0) } }
    }
}

/// The chain's Z report for one day: each shop's own report, and their sum.
public struct ChainReport: Sendable {
    public let day: String
    /// Each shop's report, by shop name.
    public let shops: [(shop: String, report: DayReport)]
    /// The shops' totals added up (`DayReport.Figures.add`).
    public let total: DayReport.Figures
    /// Fruit and servings given away by refunds in all shops, by id.
    public let waste: [JournalEntry.Count]

    public init(day: String, shops: [(shop: String, report: DayReport)]) {
        self.day = day
        self.shops = shops.sorted { $0.shop < $1.shop }
        var total = DayReport.Figures()
        var waste: [String: Int] = [:]
        for (_, report) in shops {
            total.add(report.total)
            for count in report.waste { waste[count.id, default: 0] += count.count }
        }
        self.total = total
        self.waste = waste.keys.sorted().map { JournalEntry.Count(id: $0, count: waste[$0] ?? 0) }
    }
}
