@_spi(Internals) import JuiceSupport
import JuiceDiagnostics
import JuiceBook
import JuiceEngine
/// Renders a run as JSON Lines: one object per order and stock command, then
/// a summary. Field names are a contract: new fields may be added, none renamed.
///
///     {"type":"order","seq":N,"line":L,"source":SRC,"menu":ID,"status":"served"|"refused","short":[{"fruit","need","have"}]}
///
/// A served order that made batches adds `"batches":{RECIPE:n,...}`; one
/// that drew on substitutes adds `"substituted":{FRUIT:{SUBSTITUTE:units,...},...}`;
/// a substitute that ran short for a refused order is in `short` with
/// `"for":FRUIT`. A book without yields or substitutes never has them.
///
///     {"type":"restock","line":L,"source":SRC,"fruit":F,"amount":N,"stock":S}
///     {"type":"set","line":L,"source":SRC,"fruit":F,"stock":S}
///     {"type":"stock","line":L,"source":SRC,"stock":{"fruit":n,...}}
///     {"type":"summary","orders":N,"served":N,"refused":N,"skipped":N,"stock":{"fruit":n,...},
///      "revenue":N|null,"refusedByMenu":{"id":n,...},"shortfall":{"fruit":n,...}}
///
/// `source` is the script's path (or `<stdin>`), `--order` or `--random`, and
/// `line` counts within it (see `OrderSource`); an event before any source was
/// named has no `source`.
///
/// Skipped script lines go to the error stream as text, as in the text format.
/// With `quiet`, only the summary is written.
public struct JSONLinesSimulationReporter: SimulationReporter {
    let book: RecipeBook
    let output: OutputBuffer
    let errors: OutputBuffer
    private var problems: ProblemLog
    let quiet: Bool
    /// Order events are most of a long run's output, so their JSON is put
    /// together from pieces escaped once, byte for byte what `JSONWriter`
    /// would write (a test holds them equal).
    ///
    /// The pieces are end to end in `pieces`, each found by its range: an
    /// array per piece was retained and released around every append, and
    /// `--format json` over orders-10m.txt took 1.93 s that way, 1.60 s this
    /// way (medians of 5). The source is part of each order and restock
    /// piece, so those are made again for each source.
    private var pieces: [UInt8] = []
    /// `,"source":"k.orders","menu":"kiwi-juice","status":"` by menu index.
    private var menuPieces: [Range<Int>] = []
    /// `{"fruit":"kiwi","need":` by fruit index.
    private var fruitPieces: [Range<Int>] = []
    /// `,"source":"k.orders","fruit":"kiwi","amount":` by fruit index.
    private var restockPieces: [Range<Int>] = []
    private var source: String?

    /// Writes events to `output` and skipped lines to `errors`, at most `maxProblems` of them (nil: all); `quiet` keeps only the summary.
    public init(book: RecipeBook, output: OutputBuffer, errors: OutputBuffer, quiet: Bool = false,
                maxProblems: Int? = DiagnosticLimit.defaultForPeople) {
        self.book = book
        self.output = output
        self.errors = errors
        problems = ProblemLog(errors: errors, limit: maxProblems)
        self.quiet = quiet
        makePieces()
    }

    /// Escapes the pieces for the current source (none before one is named).
    private mutating func makePieces() {
        var sourcePiece = ""
        if let source {
            sourcePiece = #","source":"#
            JSONWriter.appendString(source, to: &sourcePiece)
        }
        var bytes: [UInt8] = []
        func add(_ before: String, _ id: String, _ after: String) -> Range<Int> {
            var text = before
            JSONWriter.appendString(id, to: &text)
            let start = bytes.count
            bytes.append(contentsOf: (text + after).utf8)
            return start..<bytes.count
        }
        menuPieces = book.menu.map { add(sourcePiece + #","menu":"#, $0.id, #","status":""#) }
        fruitPieces = book.fruits.map { add(#"{"fruit":"#, $0.id, #","need":"#) }
        restockPieces = book.fruits.map { add(sourcePiece + #","fruit":"#, $0.id, #","amount":"#) }
        pieces = bytes
    }

    private static let orderStart: StaticString = #"{"type":"order","seq":"#
    private static let lineKey: StaticString = #","line":"#
    private static let servedEnd: StaticString = #"served","short":[]}"#
    private static let refusedStart: StaticString = #"refused","short":["#
    private static let haveKey: StaticString = #","have":"#
    private static let restockStart: StaticString = #"{"type":"restock","line":"#
    private static let stockKey: StaticString = #","stock":"#

    public mutating func begin(source: OrderSource) {
        self.source = source.name
        makePieces()
    }

    public mutating func order(sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome, batches: [OrderPlan.Batch]) {
        order(sequence: sequence, line: line, menu: menu, outcome: outcome, batches: batches, substitutions: [])
    }

    public mutating func order(
        sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome, batches: [OrderPlan.Batch], substitutions: [Substitution]
    ) {
        guard batches.isEmpty && substitutions.isEmpty else {
            guard !quiet else { return }
            return orderWithPlan(sequence: sequence, line: line, menu: menu, batches: batches, substitutions: substitutions)
        }
        order(sequence: sequence, line: line, menu: menu, outcome: outcome)
    }

    public mutating func order(sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome) {
        guard !quiet else { return }
        output.append(Self.orderStart)
        output.append(decimal: sequence)
        output.append(Self.lineKey)
        output.append(decimal: line)
        output.append(pieces, menuPieces[menu])
        switch outcome {
        case .served:
            output.append(Self.servedEnd)
        case .refused(let short):
            output.append(Self.refusedStart)
            for (index, shortage) in short.enumerated() {
                if index > 0 { output.append(byte: UInt8(ascii: ",")) }
                output.append(pieces, fruitPieces[shortage.fruit])
                output.append(decimal: shortage.need)
                output.append(Self.haveKey)
                output.append(decimal: shortage.have)
                if let fruit = shortage.standsInFor {
                    let piece = Array(Self.standsInPiece(book.fruits[fruit].id).utf8)
                    output.append(piece, piece.indices)
                }
                output.append(byte: UInt8(ascii: "}"))
            }
            output.append(byte: UInt8(ascii: "]"))
            output.append(byte: UInt8(ascii: "}"))
        }
        output.endLine()
    }

    /// `,"for":"strawberry"`: the fruit a substitute that ran short stood in for.
    private static func standsInPiece(_ id: String) -> String {
        var text = #","for":"#
        JSONWriter.appendString(id, to: &text)
        return text
    }

    /// A served order that made batches or drew on substitutes:
    /// `"batches":{"syrup":1}` and `"substituted":{"strawberry":
    /// {"frozen-strawberry":4}}` (units of each substitute taken) after its
    /// empty `short`, each only when there is one. Written plainly: only
    /// books that keep servings or declare substitutes have them.
    private mutating func orderWithPlan(
        sequence: Int, line: Int, menu: Int, batches: [OrderPlan.Batch], substitutions: [Substitution]
    ) {
        var json = JSONWriter()
        json.beginObject()
        json.field("type", "order")
        json.field("seq", sequence)
        json.field("line", line)
        if let source { json.field("source", source) }
        json.field("menu", book.menu[menu].id)
        json.field("status", "served")
        json.key("short")
        json.beginArray()
        json.endArray()
        if !batches.isEmpty {
            json.key("batches")
            json.beginObject()
            for batch in batches { json.field(book.recipes[batch.recipe].id, batch.count) }
            json.endObject()
        }
        if !substitutions.isEmpty {
            json.key("substituted")
            json.beginObject()
            // By fruit in fruit order, each fruit's substitutes in the order drawn.
            for fruit in Set(substitutions.map(\.fruit)).sorted() {
                json.key(book.fruits[fruit].id)
                json.beginObject()
                for substitution in substitutions where substitution.fruit == fruit {
                    json.field(book.fruits[substitution.substitute].id, substitution.units)
                }
                json.endObject()
            }
            json.endObject()
        }
        json.endObject()
        output.line(json.output)
    }

    public mutating func restock(line: Int, recipe: Int, amount: Int, servings: Int) {
        stockEvent("restock", line: line, key: "recipe", id: book.recipes[recipe].id, amount: amount, countKey: "onHand", count: servings)
    }

    public mutating func set(line: Int, recipe: Int, servings: Int) {
        stockEvent("set", line: line, key: "recipe", id: book.recipes[recipe].id, amount: nil, countKey: "onHand", count: servings)
    }

    /// A `restock` or `set` event written plainly: all but a fruit's
    /// restock, which is common enough to have its pieces made once.
    private mutating func stockEvent(_ type: String, line: Int, key: String, id: String, amount: Int?, countKey: String, count: Int) {
        guard !quiet else { return }
        var json = JSONWriter()
        json.beginObject()
        json.field("type", type)
        json.field("line", line)
        if let source { json.field("source", source) }
        json.field(key, id)
        if let amount { json.field("amount", amount) }
        json.field(countKey, count)
        json.endObject()
        output.line(json.output)
    }

    public mutating func restock(line: Int, fruit: Int, amount: Int, stock: Int) {
        guard !quiet else { return }
        output.append(Self.restockStart)
        output.append(decimal: line)
        output.append(pieces, restockPieces[fruit])
        output.append(decimal: amount)
        output.append(Self.stockKey)
        output.append(decimal: stock)
        output.append(byte: UInt8(ascii: "}"))
        output.endLine()
    }

    public mutating func set(line: Int, fruit: Int, stock: Int) {
        stockEvent("set", line: line, key: "fruit", id: book.fruits[fruit].id, amount: nil, countKey: "stock", count: stock)
    }

    public mutating func stock(line: Int, counts: [Int]) {
        guard !quiet else { return }
        var json = JSONWriter()
        json.beginObject()
        json.field("type", "stock")
        json.field("line", line)
        if let source { json.field("source", source) }
        json.key("stock")
        fruitObject(counts, into: &json)
        json.endObject()
        output.line(json.output)
    }

    /// A quiet run shows only the summary.
    public var wantsEvents: Bool { !quiet }

    public mutating func problem(_ problem: ScriptProblem) {
        problems.report(problem)
    }

    public mutating func finish(_ summary: SimulationSummary) {
        problems.finish()
        var json = JSONWriter()
        json.beginObject()
        json.field("type", "summary")
        json.field("orders", summary.orders)
        json.field("served", summary.served)
        json.field("refused", summary.refused)
        json.field("skipped", summary.skippedLines)
        json.key("stock")
        fruitObject(summary.stock, into: &json)
        if book.keepsServings {
            json.key("onHand")
            json.beginObject()
            for (index, recipe) in book.recipes.enumerated() where summary.servings.indices.contains(index) {
                json.field(recipe.id, summary.servings[index])
            }
            json.endObject()
        }
        json.key("revenue")
        // Exact, so it may pass 2^63: valid JSON, which a reader that parses
        // numbers as doubles or 64-bit integers would round or refuse.
        if let revenue = summary.revenue { json.number(revenue.description) } else { json.null() }
        if let money = summary.money {
            // Exact sums rounded once, to two places, half to even (`Money`).
            for (key, value) in [("fruitCost", money.fruitCost), ("leftoverValue", money.leftoverValue), ("grossMargin", money.grossMargin)] {
                json.key(key)
                if let value = value.money { json.number(value.description) } else { json.null() }
            }
        }
        json.key("refusedByMenu")
        json.beginObject()
        for (index, item) in book.menu.enumerated() {
            json.field(item.id, summary.refusedByMenu[index])
        }
        json.endObject()
        json.key("shortfall")
        fruitObject(summary.shortfall, into: &json)
        json.endObject()
        output.line(json.output)
        output.flush()
    }

    private func fruitObject(_ counts: [Int], into json: inout JSONWriter) {
        json.beginObject()
        for (index, fruit) in book.fruits.enumerated() {
            json.field(fruit.id, counts[index])
        }
        json.endObject()
    }
}
