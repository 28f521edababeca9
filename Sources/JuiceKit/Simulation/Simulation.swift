/// What happened over a whole run.
public struct SimulationSummary: Sendable, Hashable {
    public var orders = 0
    public var served = 0
    public var refused = 0
    /// Script lines that were skipped because they were not valid commands.
    public var skippedLines = 0
    public var stock: [Int] = []
}

/// Receives every event of a run and renders it.
public protocol SimulationReporter {
    mutating func order(sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome)
    mutating func restock(line: Int, fruit: Int, amount: Int, stock: Int)
    mutating func problem(_ problem: ScriptProblem)
    mutating func finish(_ summary: SimulationSummary)
}

/// Replays order-script lines against a `JuiceMaker`.
///
/// A bad line is reported and skipped, and the run goes on; a refusal for
/// stock is an outcome, not an error.
public struct Simulation<Reporter: SimulationReporter> {
    public private(set) var maker: JuiceMaker
    public private(set) var summary = SimulationSummary()
    public var reporter: Reporter
    private let parser: ScriptParser

    public init(book: RecipeBook, file: String, reporter: Reporter, store: FruitStore? = nil) {
        maker = JuiceMaker(book: book, store: store)
        parser = ScriptParser(book: book, file: file)
        self.reporter = reporter
    }

    /// Runs one script line.
    public mutating func run(line: String, number: Int) {
        let command: ScriptCommand?
        do {
            command = try parser.parse(line, number: number)
        } catch {
            summary.skippedLines += 1
            reporter.problem(error)
            return
        }
        switch command {
        case nil:
            return
        case .order(let menu, let count)?:
            for _ in 0..<count {
                let outcome = maker.make(menu)
                summary.orders += 1
                if outcome == .served { summary.served += 1 } else { summary.refused += 1 }
                reporter.order(sequence: summary.orders, line: number, menu: menu, outcome: outcome)
            }
        case .restock(let fruit, let amount)?:
            do {
                let stock = try maker.store.restock(fruit, by: amount)
                reporter.restock(line: number, fruit: fruit, amount: amount, stock: stock)
            } catch {
                summary.skippedLines += 1
                reporter.problem(ScriptProblem(
                    file: parser.file, line: number,
                    message: "restocking \(amount) '\(maker.book.fruits[fruit].id)' would overflow its stock of \(maker.store[fruit])"
                ))
            }
        }
    }

    /// Ends the run and reports the summary.
    public mutating func finish() -> SimulationSummary {
        summary.stock = maker.store.counts
        reporter.finish(summary)
        return summary
    }
}
