@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics
import JuiceBook
import JuiceEngine
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One `juice-run`: load the book (and stock file), then show capacity, run the
/// interactive counter, or replay orders; report; save the stock if asked.
///
/// It returns the exit code of a run that finished (0, 1 when a script line
/// was skipped, or a stop signal's) and throws a `RunError` for one that could
/// not; `JuiceCommandLine` prints that and picks its exit code. It touches no
/// file, terminal or signal itself: the paths are checked and the scripts
/// opened by its `RunEnvironment`.
public struct ShopRun {
    /// The most orders `--random` generates: about a quarter of an hour of
    /// work, so a slip of the finger cannot keep a machine busy for days.
    public static let maxRandomOrders = 1_000_000_000

    public var options: RunOptions
    public var streams: RunStreams
    /// How the book is read: the command line hands in its parallel loader.
    public var loader: any BookLoader
    /// How `juice-run plan`'s runs are carried out: the command line hands
    /// in one that uses every core.
    public var planRunner: any PlanRunner = SequentialPlanRunner()
    /// The files and the stop requests: the command line hands in its POSIX one.
    public var environment: any RunEnvironment

    /// A run with these options over these streams.
    public init(options: RunOptions, streams: RunStreams, environment: any RunEnvironment, loader: any BookLoader = SequentialBookLoader()) {
        self.options = options
        self.streams = streams
        self.environment = environment
        self.loader = loader
    }

    /// Runs to the end and returns the exit code; every message has been written by then.
    ///
    /// `report` prints a problem that cuts a replay short without ending the
    /// run (a script that cannot be read once the run has begun) and returns
    /// the exit code it maps to; the stock is still saved afterwards.
    public func run(reporting report: (RunError) -> ToolExitCode) throws(RunError) -> ToolExitCode {
        let errors = streams.errors
        do {
            try options.validate()
        } catch {
            throw .usage(error)
        }
        let hasOrders = options.hasOrders

        // The book, and the stock file that replaces its stock.
        let paths = options.recipePaths.isEmpty ? ["recipes"] : options.recipePaths
        if options.recipePaths.isEmpty, environment.defaultBookIsMissing() {
            throw .defaultBookMissing
        }
        var loaded: LoadedBook
        do {
            loaded = try loader.load(BookLoadRequest(
                paths: paths, stockPath: options.stockPath, analysis: false, assemblesBook: true, keepsText: true
            ))
        } catch {
            throw .source(error)
        }
        let compilation = loaded.workspace.snapshot().compilation
        let errorDiagnostics = compilation.diagnostics.filter { $0.severity == .error }
        if !errorDiagnostics.isEmpty {
            // Warnings and infos are juice-lint's business; a run reports what stops it.
            let color = TerminalColor.shouldColor(flag: .auto, isTerminal: streams.errorsAreTerminal, environment: ProcessInfo.processInfo.environment)
            let printer = HumanDiagnosticPrinter(files: loaded.sources, color: color)
            let (shown, omitted) = DiagnosticLimit(requested: options.maxDiagnostics, format: .text).select(errorDiagnostics)
            for diagnostic in shown { errors.line(printer.render(diagnostic)) }
            // The notice says how to see the rest, so no closing hint is needed either way.
            if omitted > 0 { errors.line(DiagnosticLimit.omissionNotice(omitted)) }
        }
        guard let book = compilation.book else {
            throw .invalidBook(stockFile: options.stockPath != nil)
        }

        // Every script must be readable before any order runs, so a typo in the
        // last path does not leave half a report behind.
        for script in options.scripts where script != "-" {
            try environment.checkScript(script)
        }

        // A destination that cannot take the stock is found now, not after a day of orders.
        if let path = options.saveStockPath, let reason = environment.saveProblem(path) {
            throw .stockDestination(path, reason: reason)
        }

        var weights: [UInt64]?
        if let mix = options.mix {
            do {
                weights = try OrderGenerator.weights(mix: mix, book: book)
            } catch {
                throw .mix(error)
            }
        }

        if options.capacity {
            showCapacity(book)
            return .success
        }
        if options.mode == .plan {
            return try plan(book, weights: weights)
        }
        if options.mode == .menu {
            let card = MenuCard(book: book)
            let lines = switch options.format {
            case .text: card.text()
            case .json: card.jsonLines()
            case .csv: card.csv()
            }
            for line in lines { streams.output.line(line) }
            streams.output.flush()
            return .success
        }

        let finalStock: FruitStore
        var exit = ToolExitCode.success
        /// The counter's tally, for the summary it prints once the stock is saved.
        var counter: InteractiveCounter?
        if options.interactive || (!hasOrders && streams.inputIsTerminal) {
            guard options.format == .text else {
                throw .counterHasNoJSON
            }
            let session = runCounter(book)
            counter = session
            finalStock = session.store
            if environment.stopRequested { exit = environment.stopExitCode }
        } else {
            guard !book.menu.isEmpty || options.randomCount == nil || options.randomCount == 0 else {
                throw .randomNeedsMenu
            }
            let outcome: (summary: SimulationSummary, exit: ToolExitCode)
            // Skipped-line reports are text on standard error in both formats.
            let problemLimit = DiagnosticLimit(requested: options.maxDiagnostics, format: .text).maximum
            switch options.format {
            case _ where options.mode == .buy:
                let reporter = ShoppingListReporter(book: book, output: streams.output, errors: errors, format: options.format, maxProblems: problemLimit)
                outcome = replay(book, reporter, weights: weights, reporting: report)
            case .text, .csv:
                outcome = replay(book, TextSimulationReporter(book: book, output: streams.output, errors: errors, quiet: options.quiet, maxProblems: problemLimit), weights: weights, reporting: report)
            case .json:
                outcome = replay(book, JSONLinesSimulationReporter(book: book, output: streams.output, errors: errors, quiet: options.quiet, maxProblems: problemLimit), weights: weights, reporting: report)
            }
            exit = outcome.exit
            finalStock = FruitStore(counts: outcome.summary.stock, servings: outcome.summary.servings)
        }

        var saveFailure: (error: FileWriter.Failure, stock: String)?
        if let path = options.saveStockPath {
            let text = StockFile.render(finalStock.counts, servings: finalStock.servings, book: book)
            do {
                try AtomicFile.write(text, to: path)
            } catch {
                saveFailure = (error, text)
            }
        }
        if let counter {
            // The counter's summary comes after the save, so it can say where the stock went.
            streams.output.write(counter.closingText(savedTo: saveFailure == nil ? options.saveStockPath : nil))
            streams.output.flush()
            if environment.stopRequested {
                let orders = counter.day.orders
                errors.line(Self.stoppedNotice(orders: orders))
            }
        }
        if let saveFailure {
            // The day's stock lives only in this process now: hand it over
            // so it can be saved by hand rather than lost.
            throw .stockNotSaved(saveFailure.error, stock: saveFailure.stock)
        }
        return exit
    }

    // MARK: Modes

    private func showCapacity(_ book: RecipeBook) {
        let store = FruitStore(book: book)
        let rows = Capacity.of(book, stock: store)
        switch options.format {
        case .json:
            for row in rows {
                var json = JSONWriter()
                json.beginObject()
                json.field("type", "capacity")
                json.field("menu", book.menu[row.menu].id)
                json.field("count", row.count)
                json.field("limitedBy", row.limitingFruit.map { book.fruits[$0].id })
                json.endObject()
                streams.output.line(json.output)
            }
        case .text, .csv:
            let names = rows.map { TextSimulationReporter.name(book.menu[$0.menu]) }
            let width = names.map { DisplayWidth.of($0) }.max() ?? 0
            let countWidth = rows.map { String($0.count).count }.max() ?? 1
            let source = options.stockPath.map { "'\(RecipeSources.displayPath($0))'" } ?? "the opening stock"
            streams.output.line("capacity (each menu item on its own, from \(source)):")
            for (row, name) in zip(rows, names) {
                let count = String(row.count)
                var line = "  " + name + String(repeating: " ", count: width - DisplayWidth.of(name))
                line += "  " + String(repeating: " ", count: countWidth - count.count) + count
                if let fruit = row.limitingFruit { line += "  limited by \(book.fruits[fruit].id)" }
                streams.output.line(line)
            }
        }
        streams.output.flush()
    }

    /// Runs the counter until `quit`, end of input or a stop signal, which
    /// ends the session the same way (`LineReader` returns nil).
    private func runCounter(_ book: RecipeBook) -> InteractiveCounter {
        environment.watchForStop()
        let environment = environment
        let stop = environment.stopRequest
        var reader = LineReader(source: streams.input, shouldStop: { stop.isRequested })
        let output = streams.output
        var counter = InteractiveCounter(
            book: book, store: FruitStore(book: book),
            // A stop request, or a screen that can no longer be written,
            // ends the session, so the stock is still saved.
            input: { stop.isRequested || output.hasFailed ? nil : reader.nextLine() },
            output: { text in
                output.write(text)
                output.flush()
            }
        )
        _ = counter.run()
        return counter
    }

    /// Replays scripts, then `--order`s, then `--random` orders, as one run.
    private func replay<Reporter: SimulationReporter>(
        _ book: RecipeBook, _ reporter: Reporter, weights: [UInt64]?, reporting report: (RunError) -> ToolExitCode
    ) -> (summary: SimulationSummary, exit: ToolExitCode) {
        environment.watchForStop()
        let environment = environment
        let stop = environment.stopRequest
        var simulation = Simulation(book: book, file: "-", reporter: reporter)
        let showProgress = streams.errorsAreTerminal && !options.quiet && options.format == .text
        var exit = ToolExitCode.success

        let scripts = options.scripts.isEmpty && options.orders.isEmpty && options.randomCount == nil ? ["-"] : options.scripts
        scripts: for script in scripts {
            if stop.isRequested || streams.output.hasFailed { break scripts }
            let name = script == "-" ? "<stdin>" : RecipeSources.displayPath(script)
            let input: ScriptInput
            if script == "-" {
                input = ScriptInput(source: streams.input, size: nil)
            } else {
                do {
                    input = try environment.openScript(script, name: name)
                } catch {
                    let code = report(error)
                    return (simulation.finish(), code)
                }
            }
            let meter = showProgress ? ProgressMeter(total: input.size) : nil
            simulation.begin(source: .script(name))
            var reader = LineReader(source: input.source, shouldStop: { stop.isRequested })
            do {
                try reader.forEachLine { line in
                    // A failed write (a full disk, a closed pipe) stops the
                    // run as a signal does: nothing more printed would arrive.
                    if stop.isRequested || streams.output.hasFailed { throw LineReader.Stopped() }
                    if line.tooLong {
                        simulation.skip(ScriptProblem(
                            file: name, line: line.number,
                            message: "line is longer than \(LineReader.maxLineLength) bytes", help: "no command is that long; is this an order script?"
                        ))
                    } else {
                        simulation.run(bytes: line.bytes, number: line.number, file: name)
                    }
                    meter?.update(orders: simulation.summary.orders, position: line.consumed)
                }
            } catch is LineReader.Stopped {
                meter?.finish()
            } catch {
                meter?.finish()
                streams.output.flush()
                exit = report(.scriptUnreadable(name, reason: "\(error)"))
            }
            meter?.finish()
        }

        if !options.orders.isEmpty { simulation.begin(source: .order) }
        for (index, order) in options.orders.enumerated() where !stop.isRequested && !streams.output.hasFailed {
            simulation.run(line: Self.orderLine(order, book: book), number: index + 1, file: "--order")
        }

        if let count = options.randomCount, count > 0 {
            let seed = options.seed ?? OrderGenerator.freshSeed()
            if options.seed == nil {
                streams.errors.line("juice-run: --random used seed \(seed); repeat the run with --seed \(seed)")
            }
            var generator = OrderGenerator(seed: seed, menuCount: book.menu.count, weights: weights)
            simulation.begin(source: .random)
            let meter = showProgress ? ProgressMeter(total: count) : nil
            for number in 1...count {
                if stop.isRequested || streams.output.hasFailed { break }
                simulation.run(.order(menu: generator.next(), count: 1), line: number, file: "--random")
                meter?.update(orders: number, position: number)
            }
            meter?.finish()
        }

        let summary = simulation.finish()
        if environment.stopRequested {
            streams.errors.line(Self.stoppedNotice(orders: summary.orders))
            exit = environment.stopExitCode
        } else if exit == .success && summary.skippedLines > 0 {
            exit = .failure
        }
        return (summary, exit)
    }

    /// What a run stopped on request says on standard error, in a replay
    /// and at the counter alike.
    static func stoppedNotice(orders: Int) -> String {
        "juice-run: stopped by a signal after \(orders) \(orders == 1 ? "order" : "orders"); the summary covers \(orders == 1 ? "it" : "those")"
    }

    /// `--order banana-juicex3` reads as `banana-juice x3` when `banana-juicex3`
    /// is not itself a menu id; anything else goes to the script parser as written.
    static func orderLine(_ text: String, book: RecipeBook) -> String {
        guard book.menuIndex(text) == nil, !text.contains(" "),
              let x = text.lastIndex(of: "x"), x != text.startIndex
        else { return text }
        let id = String(text[..<x])
        let count = text[text.index(after: x)...]
        guard book.menuIndex(id) != nil, !count.isEmpty, count.allSatisfy(\.isASCIIDigitCharacter) else { return text }
        return "\(id) x\(count)"
    }
}

extension Character {
    var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
