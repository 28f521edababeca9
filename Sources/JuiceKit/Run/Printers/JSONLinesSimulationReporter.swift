/// Renders a run as JSON Lines: one object per order and stock command, then
/// a summary. Field names are a contract: new fields may be added, none renamed.
///
///     {"type":"order","seq":N,"line":L,"source":SRC,"menu":ID,"status":"served"|"refused","short":[{"fruit","need","have"}]}
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
    /// Every event goes through this one writer, straight into `output`.
    /// Order events are most of a long run's output, so what they repeat on
    /// every line (keys, ids, the source) is escaped once, as `JSONPiece`s.
    private var json: JSONValueWriter<OutputBuffer>
    private let keys = Keys()
    private let menuIDs: [JSONPiece]
    private let fruitIDs: [JSONPiece]
    private let fruitKeys: [JSONPiece]
    /// The source's name, escaped once per source; nil until one is named.
    private var source: JSONPiece?

    /// Writes events to `output` and skipped lines to `errors`, at most `maxProblems` of them (nil: all); `quiet` keeps only the summary.
    public init(book: RecipeBook, output: OutputBuffer, errors: OutputBuffer, quiet: Bool = false,
                maxProblems: Int? = DiagnosticLimit.defaultForPeople) {
        self.book = book
        self.output = output
        self.errors = errors
        problems = ProblemLog(errors: errors, limit: maxProblems)
        self.quiet = quiet
        json = JSONValueWriter(into: output)
        menuIDs = book.menu.map { JSONPiece(string: $0.id) }
        fruitIDs = book.fruits.map { JSONPiece(string: $0.id) }
        fruitKeys = book.fruits.map { JSONPiece(key: $0.id) }
    }

    /// The constant keys and values, escaped once.
    private struct Keys {
        let type = JSONPiece(key: "type"), seq = JSONPiece(key: "seq"), line = JSONPiece(key: "line")
        let source = JSONPiece(key: "source"), menu = JSONPiece(key: "menu"), status = JSONPiece(key: "status")
        let short = JSONPiece(key: "short"), fruit = JSONPiece(key: "fruit"), need = JSONPiece(key: "need")
        let have = JSONPiece(key: "have"), amount = JSONPiece(key: "amount"), stock = JSONPiece(key: "stock")
        let order = JSONPiece(string: "order"), restock = JSONPiece(string: "restock")
        let served = JSONPiece(string: "served"), refused = JSONPiece(string: "refused")
    }

    public mutating func begin(source: OrderSource) {
        self.source = JSONPiece(string: source.name)
    }

    /// Opens an event's line: `{"type":T,` and, where a source was named, its `"line"` and `"source"`.
    private mutating func beginEvent(_ type: JSONPiece, line: Int) {
        json.beginLine()
        json.beginObject()
        json.field(keys.type, type)
        json.field(keys.line, line)
        if let source { json.field(keys.source, source) }
    }

    private mutating func endEvent() {
        json.endObject()
        output.endLine()
    }

    public mutating func order(sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome) {
        guard !quiet else { return }
        json.beginLine()
        json.beginObject()
        json.field(keys.type, keys.order)
        json.field(keys.seq, sequence)
        json.field(keys.line, line)
        if let source { json.field(keys.source, source) }
        json.field(keys.menu, menuIDs[menu])
        json.key(keys.status)
        switch outcome {
        case .served:
            json.string(keys.served)
            json.key(keys.short)
            json.beginArray()
        case .refused(let short):
            json.string(keys.refused)
            json.key(keys.short)
            json.beginArray()
            for shortage in short {
                json.beginObject()
                json.field(keys.fruit, fruitIDs[shortage.fruit])
                json.field(keys.need, shortage.need)
                json.field(keys.have, shortage.have)
                json.endObject()
            }
        }
        json.endArray()
        endEvent()
    }

    public mutating func restock(line: Int, fruit: Int, amount: Int, stock: Int) {
        guard !quiet else { return }
        beginEvent(keys.restock, line: line)
        json.field(keys.fruit, fruitIDs[fruit])
        json.field(keys.amount, amount)
        json.field(keys.stock, stock)
        endEvent()
    }

    public mutating func set(line: Int, fruit: Int, stock: Int) {
        guard !quiet else { return }
        beginEvent(JSONPiece(string: "set"), line: line)
        json.field(keys.fruit, fruitIDs[fruit])
        json.field(keys.stock, stock)
        endEvent()
    }

    public mutating func stock(line: Int, counts: [Int]) {
        guard !quiet else { return }
        beginEvent(JSONPiece(string: "stock"), line: line)
        json.key(keys.stock)
        fruitObject(counts)
        endEvent()
    }

    /// A quiet run shows only the summary.
    public var wantsEvents: Bool { !quiet }

    public mutating func problem(_ problem: ScriptProblem) {
        problems.report(problem)
    }

    public mutating func finish(_ summary: SimulationSummary) {
        problems.finish()
        json.beginLine()
        json.beginObject()
        json.field("type", "summary")
        json.field("orders", summary.orders)
        json.field("served", summary.served)
        json.field("refused", summary.refused)
        json.field("skipped", summary.skippedLines)
        json.key(keys.stock)
        fruitObject(summary.stock)
        json.key("revenue")
        // Exact, so it may pass 2^63: valid JSON, which a reader that parses
        // numbers as doubles or 64-bit integers would round or refuse.
        if let revenue = summary.revenue { json.number(revenue.description) } else { json.null() }
        json.key("refusedByMenu")
        json.beginObject()
        for (index, item) in book.menu.enumerated() {
            json.field(item.id, summary.refusedByMenu[index])
        }
        json.endObject()
        json.key("shortfall")
        fruitObject(summary.shortfall)
        endEvent()
        output.flush()
    }

    private mutating func fruitObject(_ counts: [Int]) {
        json.beginObject()
        for (index, key) in fruitKeys.enumerated() {
            json.field(key, counts[index])
        }
        json.endObject()
    }
}
