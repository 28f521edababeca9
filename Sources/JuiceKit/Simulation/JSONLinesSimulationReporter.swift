/// Renders a run as JSON Lines: one object per order and restock, then a
/// summary. Field names are a contract: new fields may be added, none renamed.
///
///     {"type":"order","line":L,"menu":ID,"status":"served"|"refused","short":[{"fruit","need","have"}]}
///     {"type":"restock","line":L,"fruit":F,"amount":N,"stock":S}
///     {"type":"summary","orders":N,"served":N,"refused":N,"stock":{"fruit":n,...}}
///
/// Skipped script lines go to the error stream as text, as in the text format.
public struct JSONLinesSimulationReporter: SimulationReporter {
    let book: RecipeBook
    let output: OutputBuffer
    let errors: OutputBuffer

    public init(book: RecipeBook, output: OutputBuffer, errors: OutputBuffer) {
        self.book = book
        self.output = output
        self.errors = errors
    }

    public mutating func order(sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome) {
        var json = JSONWriter()
        json.beginObject()
        json.field("type", "order")
        json.field("line", line)
        json.field("menu", book.menu[menu].id)
        switch outcome {
        case .served:
            json.field("status", "served")
            json.key("short")
            json.beginArray()
            json.endArray()
        case .refused(let short):
            json.field("status", "refused")
            json.key("short")
            json.beginArray()
            for shortage in short {
                json.beginObject()
                json.field("fruit", book.fruits[shortage.fruit].id)
                json.field("need", shortage.need)
                json.field("have", shortage.have)
                json.endObject()
            }
            json.endArray()
        }
        json.endObject()
        output.line(json.output)
    }

    public mutating func restock(line: Int, fruit: Int, amount: Int, stock: Int) {
        var json = JSONWriter()
        json.beginObject()
        json.field("type", "restock")
        json.field("line", line)
        json.field("fruit", book.fruits[fruit].id)
        json.field("amount", amount)
        json.field("stock", stock)
        json.endObject()
        output.line(json.output)
    }

    public mutating func problem(_ problem: ScriptProblem) {
        errors.line(TextSimulationReporter.render(problem))
    }

    public mutating func finish(_ summary: SimulationSummary) {
        var json = JSONWriter()
        json.beginObject()
        json.field("type", "summary")
        json.field("orders", summary.orders)
        json.field("served", summary.served)
        json.field("refused", summary.refused)
        json.key("stock")
        json.beginObject()
        for (index, fruit) in book.fruits.enumerated() {
            json.field(fruit.id, summary.stock[index])
        }
        json.endObject()
        json.endObject()
        output.line(json.output)
        output.flush()
    }
}
