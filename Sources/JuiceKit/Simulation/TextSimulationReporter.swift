/// Renders a run for people: one line per order and restock, then the final
/// stock and the totals. Skipped script lines go to the error stream.
public struct TextSimulationReporter: SimulationReporter {
    let book: RecipeBook
    let output: OutputBuffer
    let errors: OutputBuffer

    public init(book: RecipeBook, output: OutputBuffer, errors: OutputBuffer) {
        self.book = book
        self.output = output
        self.errors = errors
    }

    public mutating func order(sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome) {
        let item = book.menu[menu]
        let name = item.label == item.id ? item.id : "\(item.id) \(item.label)"
        switch outcome {
        case .served:
            output.line("order \(sequence) (line \(line)): \(name) served")
        case .refused(let short):
            output.line("order \(sequence) (line \(line)): \(name) refused (\(Self.describe(short, book: book)))")
        }
    }

    public mutating func restock(line: Int, fruit: Int, amount: Int, stock: Int) {
        output.line("restock (line \(line)): \(book.fruits[fruit].id) +\(amount), now \(stock)")
    }

    public mutating func problem(_ problem: ScriptProblem) {
        output.flush()  // Keep the error next to the orders around it on a shared terminal.
        errors.line(Self.render(problem))
    }

    public mutating func finish(_ summary: SimulationSummary) {
        output.line("")
        output.line("stock:")
        let idWidth = book.fruits.map { $0.id.count }.max() ?? 0
        let countWidth = summary.stock.map { String($0).count }.max() ?? 1
        for (index, fruit) in book.fruits.enumerated() {
            let count = String(summary.stock[index])
            let id = fruit.id.padding(toLength: idWidth)
            let decoration = [fruit.emoji, fruit.label == fruit.id ? nil : fruit.label].compactMap { $0 }.joined(separator: " ")
            let line = "  \(id)  \(String(repeating: " ", count: countWidth - count.count))\(count)"
            output.line(decoration.isEmpty ? line : line + "  " + decoration)
        }
        output.line("")
        var totals = "orders: \(summary.orders), served: \(summary.served), refused: \(summary.refused)"
        if summary.skippedLines > 0 { totals += ", skipped lines: \(summary.skippedLines)" }
        output.line(totals)
        output.flush()
    }

    /// `strawberry: need 16, have 10; banana: need 2, have 0`
    public static func describe(_ short: [Shortage], book: RecipeBook) -> String {
        short.map { "\(book.fruits[$0.fruit].id): need \($0.need), have \($0.have)" }.joined(separator: "; ")
    }

    /// `orders.txt:3: error: unknown menu item 'mango-jiuce'` and a help line.
    public static func render(_ problem: ScriptProblem) -> String {
        var text = "\(problem.file):\(problem.line): error: \(problem.message)"
        if let help = problem.help { text += "\n  help: \(help)" }
        return text
    }
}

extension String {
    /// Pads with spaces to `length` characters; never truncates.
    func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
