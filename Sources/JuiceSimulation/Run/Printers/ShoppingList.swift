@_spi(Internals) import JuiceSupport
import JuiceBook
import JuiceEngine

/// `juice-run buy`: what to buy so that every order of the run is served.
///
/// The orders are run as any run is; each fruit's shortfall (how far below
/// zero its stock went at the worst moment of the run in which every order
/// is served, batches planned on that run's own leftovers) is bought in
/// whole packs. With that much more at opening, the real run is the
/// all-served run with every fruit's count higher by at least its
/// shortfall, so no count goes below zero and no order is refused (a `set`
/// in the orders resets a count, and with it what the purchase added).
public struct ShoppingList: Sendable {
    public struct Line: Sendable, Hashable {
        public let fruit: Int
        public let shortfall: Int
        /// ⌈shortfall ÷ pack⌉, and what they bring.
        public let packs: Int
        public let units: Int
        /// units × cost; unknown without a cost, too large past what `Money` holds.
        public let cost: CostFigure
    }

    public let book: RecipeBook
    public let lines: [Line]
    /// The sum of the lines' costs; unknown when any line's is, else too
    /// large when one is or the sum is.
    public let total: CostFigure

    public init(book: RecipeBook, shortfall: [Int]) {
        self.book = book
        lines = shortfall.enumerated().compactMap { fruit, short in
            guard short > 0, book.fruits.indices.contains(fruit) else { return nil }
            let pack = max(book.fruits[fruit].pack, 1)
            let packs = short / pack + (short % pack == 0 ? 0 : 1)
            let (units, overflow) = packs.multipliedReportingOverflow(by: pack)
            let each = book.fruits[fruit].cost.map { CostFigure.exact(Money($0)) } ?? .unknown
            // Units past 64 bits cannot be counted in Money.
            let cost = overflow ? each.map { _ in nil } : each.map { $0.multiplied(by: units) }
            return Line(fruit: fruit, shortfall: short, packs: packs, units: overflow ? Int.max : units, cost: cost)
        }
        total = lines.reduce(CostFigure.exact(.zero)) { sum, line in sum.combined(with: line.cost) { $0.adding($1) } }
    }

    public func text() -> [String] {
        guard !lines.isEmpty else { return ["nothing to buy: the stock serves every order"] }
        let header = ["fruit", "short", "packs", "pack", "units", "cost"]
        let rows = lines.map { line in
            [
                book.fruits[line.fruit].id, String(line.shortfall), String(line.packs), String(book.fruits[line.fruit].pack),
                String(line.units), line.cost.text(),
            ]
        }
        var text = TextTable.lines([header] + rows, rightAligned: [1, 2, 3, 4, 5])
        text.append("total: " + total.text(unknown: "unknown (a fruit to buy has no cost)"))
        return text
    }

    /// One JSON object per fruit to buy, then `{"type":"total",...}`.
    public func jsonLines() -> [String] {
        var out = lines.map { line in
            var json = JSONWriter()
            json.beginObject()
            json.field("type", "buy")
            json.field("fruit", book.fruits[line.fruit].id)
            json.field("shortfall", line.shortfall)
            json.field("pack", book.fruits[line.fruit].pack)
            json.field("packs", line.packs)
            json.field("units", line.units)
            json.key("cost")
            if let cost = line.cost.money { json.number(cost.description) } else { json.null() }
            json.endObject()
            return json.output
        }
        var json = JSONWriter()
        json.beginObject()
        json.field("type", "total")
        json.key("cost")
        if let total = total.money { json.number(total.description) } else { json.null() }
        json.endObject()
        out.append(json.output)
        return out
    }

    /// A header row, a row per fruit, and a last row for the total.
    public func csv() -> [String] {
        [CSV.row(["fruit", "shortfall", "pack", "packs", "units", "cost"])]
            + lines.map { line in
                CSV.row([
                    book.fruits[line.fruit].id, String(line.shortfall), String(book.fruits[line.fruit].pack), String(line.packs),
                    String(line.units), line.cost.money?.description ?? "",
                ])
            }
            + [CSV.row(["total", "", "", "", "", total.money?.description ?? ""])]
    }
}

/// Runs the orders of `juice-run buy` with nothing shown but skipped lines,
/// then prints the shopping list in `format`.
public struct ShoppingListReporter: SimulationReporter {
    let book: RecipeBook
    let output: OutputBuffer
    let format: RunFormat
    private var problems: ProblemLog

    public init(book: RecipeBook, output: OutputBuffer, errors: OutputBuffer, format: RunFormat, maxProblems: Int?) {
        self.book = book
        self.output = output
        self.format = format
        problems = ProblemLog(errors: errors, limit: maxProblems)
    }

    public var wantsEvents: Bool { false }
    public mutating func order(sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome) {}
    public mutating func restock(line: Int, fruit: Int, amount: Int, stock: Int) {}
    public mutating func set(line: Int, fruit: Int, stock: Int) {}
    public mutating func stock(line: Int, counts: [Int]) {}
    public mutating func problem(_ problem: ScriptProblem) { problems.report(problem) }

    public mutating func finish(_ summary: SimulationSummary) {
        problems.finish()
        let list = ShoppingList(book: book, shortfall: summary.shortfall)
        let lines = switch format {
        case .text: list.text()
        case .json: list.jsonLines()
        case .csv: list.csv()
        }
        for line in lines { output.line(line) }
        output.flush()
    }
}
