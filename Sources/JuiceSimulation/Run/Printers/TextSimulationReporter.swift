@_spi(Internals) import JuiceSupport
import JuiceDiagnostics
import JuiceBook
import JuiceEngine
/// Renders a run for people: one line per order and stock command, then the
/// final stock and the totals. Skipped script lines go to the error stream.
public struct TextSimulationReporter: SimulationReporter {
    let book: RecipeBook
    let output: OutputBuffer
    let errors: OutputBuffer
    private var problems: ProblemLog
    /// Only the summary: no per-order lines and no stock tables.
    let quiet: Bool
    /// What goes before a line number, such as `k.orders:` or `--order `;
    /// made once per source. `line ` until a source is named.
    private var linePrefix = "line "

    /// Writes the report to `output` and skipped lines to `errors`, at most `maxProblems` of them (nil: all); `quiet` keeps only the summary.
    public init(book: RecipeBook, output: OutputBuffer, errors: OutputBuffer, quiet: Bool = false,
                maxProblems: Int? = DiagnosticLimit.defaultForPeople) {
        self.book = book
        self.output = output
        self.errors = errors
        problems = ProblemLog(errors: errors, limit: maxProblems)
        self.quiet = quiet
    }

    public mutating func begin(source: OrderSource) {
        linePrefix = source.textPrefix.escapingControlCharacters
    }

    public mutating func order(sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome) {
        order(sequence: sequence, line: line, menu: menu, outcome: outcome, batches: [])
    }

    public mutating func order(sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome, batches: [OrderPlan.Batch]) {
        order(sequence: sequence, line: line, menu: menu, outcome: outcome, batches: batches, substitutions: [])
    }

    public mutating func order(
        sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome, batches: [OrderPlan.Batch], substitutions: [Substitution]
    ) {
        guard !quiet else { return }
        switch outcome {
        case .served:
            let made = batches.isEmpty ? "" : " (batches: " + batches.map { "\(book.recipes[$0.recipe].id) \($0.count)" }.joined(separator: ", ") + ")"
            let stoodIn = substitutions.isEmpty ? "" : " (" + Self.describe(substitutions, book: book) + ")"
            output.line("order \(sequence) (\(linePrefix)\(line)): \(Self.name(book.menu[menu])) served\(made)\(stoodIn)")
        case .refused(let short):
            output.line("order \(sequence) (\(linePrefix)\(line)): \(Self.name(book.menu[menu])) refused (\(Self.describe(short, book: book)))")
        }
    }

    public mutating func restock(line: Int, fruit: Int, amount: Int, stock: Int) {
        guard !quiet else { return }
        output.line("restock (\(linePrefix)\(line)): \(book.fruits[fruit].id) +\(amount), now \(stock)")
    }

    public mutating func set(line: Int, fruit: Int, stock: Int) {
        guard !quiet else { return }
        output.line("set (\(linePrefix)\(line)): \(book.fruits[fruit].id) = \(stock)")
    }

    public mutating func restock(line: Int, recipe: Int, amount: Int, servings: Int) {
        guard !quiet else { return }
        output.line("restock (\(linePrefix)\(line)): \(book.recipes[recipe].id) +\(amount), now \(servings) on hand")
    }

    public mutating func set(line: Int, recipe: Int, servings: Int) {
        guard !quiet else { return }
        output.line("set (\(linePrefix)\(line)): \(book.recipes[recipe].id) = \(servings) on hand")
    }

    public mutating func stock(line: Int, counts: [Int]) {
        guard !quiet else { return }
        output.line("stock (\(linePrefix)\(line)):")
        for row in Self.stockTable(counts, book: book) { output.line(row) }
    }

    /// A quiet run shows only the summary.
    public var wantsEvents: Bool { !quiet }

    public mutating func problem(_ problem: ScriptProblem) {
        // Keep the error next to the orders around it on a shared terminal.
        if problems.printsNext { output.flush() }
        problems.report(problem)
    }

    public mutating func finish(_ summary: SimulationSummary) {
        problems.finish()
        if !quiet {
            output.line("")
            output.line("stock:")
            for row in Self.stockTable(summary.stock, book: book) { output.line(row) }
            if book.keepsServings {
                output.line("on hand:")
                let width = book.recipes.map { $0.id.count }.max() ?? 0
                for (recipe, count) in summary.servings.enumerated() { output.line("  \(book.recipes[recipe].id.padding(toLength: width))  \(count)") }
            }
            output.line("")
        } else if book.keepsServings {
            output.line("on hand: " + summary.servings.enumerated().map { "\(book.recipes[$0.offset].id) \($0.element)" }.joined(separator: ", "))
        }
        var totals = "orders: \(summary.orders), served: \(summary.served), refused: \(summary.refused)"
        if summary.skippedLines > 0 { totals += ", skipped lines: \(summary.skippedLines)" }
        output.line(totals)
        let refusals = summary.refusedByMenu.enumerated().filter { $0.element > 0 }
        if !refusals.isEmpty {
            output.line("refused by menu item:")
            let rows = refusals.map { (Self.name(book.menu[$0.offset]), $0.element) }
            let width = rows.map { DisplayWidth.of($0.0) }.max() ?? 0
            for (name, count) in rows {
                output.line("  \(name)\(String(repeating: " ", count: width - DisplayWidth.of(name)))  \(count)")
            }
        }
        if let revenue = summary.revenue { output.line("revenue: \(revenue)") }
        if let money = summary.money {
            output.line("fruit cost: \(money.fruitCost.text(unknown: "unknown (a fruit used has no cost)"))")
            output.line("leftover value: \(money.leftoverValue.text(unknown: "unknown (a recipe's cost is unknown)"))")
            output.line("gross margin: \(money.grossMargin.text())")
        }
        let short = summary.shortfall.enumerated().filter { $0.element > 0 }
        if short.isEmpty {
            output.line("shortfall: none")
        } else {
            output.line("shortfall (more needed at the worst moment):")
            let width = short.map { book.fruits[$0.offset].id.count }.max() ?? 0
            for (fruit, amount) in short {
                output.line("  \(book.fruits[fruit].id.padding(toLength: width))  \(amount)")
            }
        }
        output.flush()
    }

    /// `strawberry-juice 딸기쥬스`, or just the id when there is no label.
    static func name(_ item: RecipeBook.MenuItem) -> String {
        item.label == item.id ? item.id : "\(item.id) \(item.label)"
    }

    /// Rows of emoji, label, id and count, aligned for a terminal, where Hangul
    /// and emoji take two columns.
    static func stockTable(_ counts: [Int], book: RecipeBook) -> [String] {
        let labels = book.fruits.map { [$0.emoji, $0.label == $0.id ? nil : $0.label].compactMap { $0 }.joined(separator: " ") }
        let labelWidth = labels.map { DisplayWidth.of($0) }.max() ?? 0
        let idWidth = book.fruits.map { $0.id.count }.max() ?? 0
        let countWidth = counts.map { String($0).count }.max() ?? 1
        return book.fruits.indices.map { index in
            let label = labels[index] + String(repeating: " ", count: labelWidth - DisplayWidth.of(labels[index]))
            let count = String(counts[index])
            let prefix = labelWidth > 0 ? "  \(label)  " : "  "
            return prefix + book.fruits[index].id.padding(toLength: idWidth) + "  "
                + String(repeating: " ", count: countWidth - count.count) + count
        }
    }

    /// `strawberry: need 16, have 10; banana: need 2, have 0`; a substitute
    /// that ran short reads `frozen-strawberry for strawberry: need 6, have 2`.
    public static func describe(_ short: [Shortage], book: RecipeBook) -> String {
        short.map { shortage in
            let standsIn = shortage.standsInFor.map { " for \(book.fruits[$0].id)" } ?? ""
            return "\(book.fruits[shortage.fruit].id)\(standsIn): need \(shortage.need), have \(shortage.have)"
        }.joined(separator: "; ")
    }

    /// `frozen-strawberry 4 for strawberry, mango-puree 2 for mango`: what
    /// stood in, in units of the substitute taken.
    public static func describe(_ substitutions: [Substitution], book: RecipeBook) -> String {
        substitutions.map { "\(book.fruits[$0.substitute].id) \($0.units) for \(book.fruits[$0.fruit].id)" }.joined(separator: ", ")
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
