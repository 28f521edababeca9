@_spi(Internals) import JuiceSupport
import JuiceBook
import JuiceShop
/// `juice-run plan`'s output, as text, one JSON object or CSV: a printer
/// over `PlanSummary`, which it only reads (docs/planning.md, "Output").
public struct PlanReport: Sendable {
    public let summary: PlanSummary
    public let book: RecipeBook
    /// `--target-service P`: the target and what the search found.
    public let target: (service: Double, outcome: ParLevelSearch.Outcome)?

    public init(summary: PlanSummary, book: RecipeBook, target: (service: Double, outcome: ParLevelSearch.Outcome)? = nil) {
        self.summary = summary
        self.book = book
        self.target = target
    }

    /// Purchases per day in each re-check run (money where every fruit
    /// has a cost, else units).
    static func costPerDay(_ summary: PlanSummary) -> Estimate {
        let purchases = summary.runs.compactMap(\.purchases)
        if purchases.count == summary.runs.count, !purchases.isEmpty {
            return Estimate(money: purchases, dividedBy: max(summary.settings.days, 1))
        }
        return Estimate(summary.runs.map { run in
            run.bought.reduce(0.0) { $0 + Double($1) } / Double(max(run.days, 1))
        })
    }

    /// The target's section of the text report.
    private func targetText() -> [String] {
        guard let (service, outcome) = target else { return [] }
        var lines = ["", "target: a cycle service level of at least \(Self.fixed(service, 4))"]
        guard let levels = outcome.levels, let recheck = outcome.recheck else {
            return lines + ["not reachable: \(outcome.unreachable ?? "no par levels found")"]
        }
        lines.append("par levels (bought up to each morning), found in \(outcome.candidates) candidates on the runs above; each line replaces the fruit's in the book (labels and emoji left out):")
        lines.append("fruits:")
        for (index, fruit) in book.fruits.enumerated() {
            // The fruit's other planner keys kept, so the line replaces the book's.
            var fields = [fruit.cost.map { "cost: \($0)" }, fruit.pack == 1 ? nil : "pack: \(fruit.pack)", fruit.keeps.map { "keeps: \($0)" }]
                .compactMap { $0 }
            fields.append("restock: { up-to: \(levels[index]) }")
            lines.append("  \(fruit.id): { \(fields.joined(separator: ", ")) }")
        }
        let cost = Self.costPerDay(recheck)
        let unit = book.fruits.allSatisfy({ $0.cost != nil }) ? "" : " units (a fruit has no cost)"
        lines.append("cost per day: \(Self.mean(cost, places: 2))\(unit) \(Self.interval(cost, places: 2))")
        lines.append("re-checked on \(recheck.runs.count) fresh runs (seed \(outcome.freshSeed)): cycle service level "
            + "\(Self.fixed(recheck.cycleServiceLevel.mean, 4)) \(Self.interval(recheck.cycleServiceLevel, places: 4))")
        return lines
    }

    var settings: PlanSettings { summary.settings }

    /// One figure across runs, as the text, CSV and HTML tables show it.
    public struct Figure: Sendable {
        /// The name in words (text, HTML) and as a key (CSV, JSON).
        public let name: String
        public let key: String
        public let fruit: String
        public let estimate: Estimate?
        /// Decimal places in text.
        public let places: Int
    }

    /// Every figure across runs, in the order the tables list them.
    public func figures() -> [Figure] {
        var figures = [
            Figure(name: "fill rate", key: "fillRate", fruit: "", estimate: summary.fillRate, places: 4),
            Figure(name: "cycle service level", key: "cycleServiceLevel", fruit: "", estimate: summary.cycleServiceLevel, places: 4),
        ]
        for (index, fruit) in book.fruits.enumerated() {
            let estimates = summary.fruits[index]
            figures += [
                Figure(name: "short days (share)", key: "shortDayShare", fruit: fruit.id, estimate: estimates.shortDayShare, places: 4),
                Figure(name: "wasted", key: "wasted", fruit: fruit.id, estimate: estimates.wasted, places: 2),
                Figure(name: "average on hand", key: "averageOnHand", fruit: fruit.id, estimate: estimates.averageOnHand, places: 2),
                Figure(name: "bought", key: "bought", fruit: fruit.id, estimate: estimates.bought, places: 2),
            ]
        }
        figures += [
            Figure(name: "revenue", key: "revenue", fruit: "", estimate: summary.revenue, places: 2),
            Figure(name: "purchases", key: "purchases", fruit: "", estimate: summary.purchases, places: 2),
            Figure(name: "waste at cost", key: "wasteAtCost", fruit: "", estimate: summary.wasteAtCost, places: 2),
            Figure(name: "gross margin", key: "grossMargin", fruit: "", estimate: summary.grossMargin, places: 2),
        ]
        return figures
    }

    // MARK: Text

    public func text() -> [String] {
        var lines = [
            "plan: \(settings.days) day\(settings.days == 1 ? "" : "s") × \(settings.runs) run\(settings.runs == 1 ? "" : "s"), "
                + "\(Self.demandPhrase(settings)), seed \(settings.seed)",
            "",
        ] + historyText()
        var rows = [["run", "orders", "served", "refused", "fill rate", "service level", "revenue", "purchases", "waste", "margin"]]
        for run in summary.runs {
            rows.append([
                "\(run.run)", "\(run.orders)", "\(run.served)", "\(run.refused)", Self.fixed(run.fillRate, 4),
                Self.fixed(run.cycleServiceLevel, 4), Self.whole(run.revenue) ?? "unknown", Self.money(run.purchases), Self.money(run.wasteAtCost),
                Self.money(run.grossMargin),
            ])
        }
        lines += TextTable.lines(rows, rightAligned: Set(0...9))
        lines.append("")
        lines.append(summary.runs.count > 1
            ? "across \(summary.runs.count) runs: the mean, and a 95% confidence interval (for a share, the Wilson interval on every run's days or orders; "
                + "otherwise for one run's expected figure)"
            : "one run: no confidence interval")
        var across = [["figure", "fruit", "mean", "95% interval"]]
        for figure in figures() {
            guard let estimate = figure.estimate else {
                across.append([figure.name, figure.fruit, "unknown", ""])
                continue
            }
            across.append([figure.name, figure.fruit, Self.mean(estimate, places: figure.places), Self.interval(estimate, places: figure.places)])
        }
        lines += TextTable.lines(across, rightAligned: [2])
        return lines + targetText()
    }

    // MARK: JSON

    public func json() -> String {
        var json = JSONWriter()
        json.beginObject()
        json.key("settings")
        json.beginObject()
        json.field("days", settings.days)
        json.field("runs", settings.runs)
        if let history = settings.history {
            json.field("demand", "poisson")
            historyJSON(&json, history)
        } else {
            json.field("ordersPerDay", settings.ordersPerDay)
            json.field("demand", settings.demand.rawValue)
        }
        json.key("seed")
        json.number(String(settings.seed))
        json.endObject()
        json.key("perRun")
        json.beginArray()
        for run in summary.runs {
            json.beginObject()
            json.field("run", run.run)
            json.field("orders", run.orders)
            json.field("served", run.served)
            json.field("refused", run.refused)
            json.field("daysWithoutRefusal", run.daysWithoutRefusal)
            json.key("fillRate")
            json.number(Self.number(run.fillRate))
            json.key("cycleServiceLevel")
            json.number(Self.number(run.cycleServiceLevel))
            json.key("fruits")
            json.beginObject()
            for (index, fruit) in book.fruits.enumerated() {
                json.key(fruit.id)
                json.beginObject()
                json.field("shortDays", run.shortDays[index])
                json.field("wasted", run.wasted[index])
                json.key("averageOnHand")
                json.number(Self.number(run.averageOnHand(index)))
                json.field("bought", run.bought[index])
                json.endObject()
            }
            json.endObject()
            json.key("revenue")
            if let revenue = Self.whole(run.revenue) { json.number(revenue) } else { json.null() }
            for (key, value) in [("purchases", run.purchases), ("wasteAtCost", run.wasteAtCost), ("grossMargin", run.grossMargin)] {
                json.key(key)
                if let value { json.number(value.description) } else { json.null() }
            }
            json.endObject()
        }
        json.endArray()
        json.key("summary")
        json.beginObject()
        func estimate(_ key: String, _ value: Estimate?) {
            json.key(key)
            guard let value else { return json.null() }
            json.beginObject()
            json.key("mean")
            json.number(Self.number(value))
            for (bound, number) in Self.bounds(value) {
                json.key(bound)
                if let number { json.number(number) } else { json.null() }
            }
            json.endObject()
        }
        estimate("fillRate", summary.fillRate)
        estimate("cycleServiceLevel", summary.cycleServiceLevel)
        json.key("fruits")
        json.beginObject()
        for (index, fruit) in book.fruits.enumerated() {
            let estimates = summary.fruits[index]
            json.key(fruit.id)
            json.beginObject()
            estimate("shortDayShare", estimates.shortDayShare)
            estimate("wasted", estimates.wasted)
            estimate("averageOnHand", estimates.averageOnHand)
            estimate("bought", estimates.bought)
            json.endObject()
        }
        json.endObject()
        estimate("revenue", summary.revenue)
        estimate("purchases", summary.purchases)
        estimate("wasteAtCost", summary.wasteAtCost)
        estimate("grossMargin", summary.grossMargin)
        json.endObject()
        if let (service, outcome) = target {
            json.key("target")
            json.beginObject()
            json.key("service")
            json.number(Self.number(service))
            json.field("candidates", outcome.candidates)
            json.key("levels")
            if let levels = outcome.levels {
                json.beginObject()
                for (index, fruit) in book.fruits.enumerated() { json.field(fruit.id, levels[index]) }
                json.endObject()
            } else {
                json.null()
            }
            json.key("freshSeed")
            if outcome.levels != nil { json.number(String(outcome.freshSeed)) } else { json.null() }
            estimate("costPerDay", outcome.recheck.map(Self.costPerDay))
            estimate("cycleServiceLevel", outcome.recheck?.cycleServiceLevel)
            json.key("unreachable")
            if let reason = outcome.unreachable { json.string(reason) } else { json.null() }
            json.endObject()
        }
        json.endObject()
        return json.output
    }

    // MARK: CSV

    public func csv() -> [String] {
        var lines = ["figure,fruit,mean,low,high"]
        func row(_ name: String, _ fruit: String, _ estimate: Estimate?) {
            guard let estimate else { return lines.append(CSV.row([name, fruit, "", "", ""])) }
            let bounds = Self.bounds(estimate).map { $0.1 ?? "" }
            lines.append(CSV.row([name, fruit, Self.number(estimate), bounds[0], bounds[1]]))
        }
        for figure in figures() { row(figure.key, figure.fruit, figure.estimate) }
        if let (_, outcome) = target, let levels = outcome.levels, let recheck = outcome.recheck {
            for (index, fruit) in book.fruits.enumerated() { lines.append(CSV.row(["parLevel", fruit.id, String(levels[index]), "", ""])) }
            row("targetCostPerDay", "", Self.costPerDay(recheck))
            row("targetCycleServiceLevel", "", recheck.cycleServiceLevel)
        }
        return lines
    }

    // MARK: Numbers

    /// A JSON or CSV number: the shortest decimal that reads back as the
    /// double, written out in full (never `1e+18`: `plain`).
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : plain(value)
    }

    /// An estimate's mean as JSON and CSV print it: a money figure's exact
    /// mean rounded once to two places, as each run's money is printed.
    static func number(_ estimate: Estimate) -> String {
        estimate.money?.description ?? number(estimate.mean)
    }

    /// An estimate's low and high as JSON and CSV print them (nil with one
    /// run): money as its exact mean ∓ the half-width, rounded once.
    static func bounds(_ estimate: Estimate) -> [(String, String?)] {
        if let money = estimate.money, let half = estimate.halfWidth, let low = money.minus(half), let high = money.minus(-half) {
            return [("low", low), ("high", high)]
        }
        return [("low", estimate.low.map { number($0) }), ("high", estimate.high.map { number($0) })]
    }

    /// An estimate's mean in text and HTML: money exact, rounded once to two
    /// places; other figures to `places`.
    static func mean(_ estimate: Estimate, places: Int) -> String {
        estimate.money?.description ?? fixed(estimate.mean, places)
    }

    /// Swift's shortest round-trip digits of `value`, with the exponent
    /// written out: `9223372036854776000` for `9.223372036854776e+18`,
    /// `0.00001` for `1e-05`; unchanged where Swift writes no exponent.
    static func plain(_ value: Double) -> String {
        let text = "\(value)"
        guard let e = text.firstIndex(of: "e"), let exponent = Int(text[text.index(after: e)...].drop { $0 == "+" }) else { return text }
        var mantissa = text[..<e]
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa = mantissa.dropFirst() }
        let dot = mantissa.firstIndex(of: ".")
        let before = dot.map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count
        let digits = Array(mantissa.filter { $0 != "." })
        let point = before + exponent  // digits before the decimal point
        let out: String
        if point <= 0 {
            out = "0." + String(repeating: "0", count: -point) + String(digits)
        } else if point >= digits.count {
            out = String(digits) + String(repeating: "0", count: point - digits.count)
        } else {
            out = String(digits[..<point]) + "." + String(digits[point...])
        }
        return (negative ? "-" : "") + out
    }

    static func fixed(_ value: Double, _ places: Int) -> String {
        let scale = [1.0, 10, 100, 1_000, 10_000][min(max(places, 0), 4)]
        let rounded = (value * scale).rounded() / scale
        var text = plain(rounded)
        if !text.contains(".") && !text.contains("e") { text += "." }
        if let dot = text.firstIndex(of: ".") {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            if decimals < places { text += String(repeating: "0", count: places - decimals) }
        }
        return places == 0 ? String(text.dropLast()) : text
    }

    static func interval(_ estimate: Estimate, places: Int) -> String {
        guard let low = estimate.low, let high = estimate.high else { return "n/a (one run)" }
        if estimate.money != nil {
            let bounds = Self.bounds(estimate).compactMap(\.1)
            if bounds.count == 2 { return "[\(bounds[0]), \(bounds[1])]" }
        }
        return "[\(fixed(low, places)), \(fixed(high, places))]"
    }

    static func money(_ value: Money?) -> String { value?.description ?? "unknown" }

    /// Revenue is a sum of whole prices: printed whole, as a run's summary prints it.
    static func whole(_ value: Money?) -> String? {
        guard let value else { return nil }
        return value.denominator == 1 ? String(value.numerator) : value.description
    }
}
