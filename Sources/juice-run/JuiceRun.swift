@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics
@_spi(Internals) import JuiceYAML
import JuiceBook
import JuiceEngine
import JuiceSimulation
import JuiceLint
import JuiceLanguageServer
import JuiceCommandLine
import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RunFormat: ExpressibleByArgument {}
extension DemandStream.Demand: ExpressibleByArgument {}

/// Replays orders against a recipe book's stock, or runs the shop counter.
/// Everything it does lives in `JuiceKit.ShopRun`; this parses arguments.
@main
struct JuiceRun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "juice-run",
        abstract: "Simulate juice orders against a recipe book's stock, or run the shop counter.",
        discussion: """
            Orders come from scripts (in order), then each --order, then --random. \
            With none of these, a terminal gets the interactive counter and a pipe is read as a script.

            Three more modes, named by the first word:
              juice-run menu     the menu card: price, cost per serving, margin,
                                 margin %, capacity from the opening stock and
                                 the fruit that limits it (text, json or csv)
              juice-run buy ...  the shopping list that lets every one of the
                                 orders (scripts, --order, --random) be served:
                                 each fruit's shortfall in whole packs, and its
                                 cost (text, json or csv)
              juice-run plan     many days of random demand, restocked and
                                 spoiling as the book's 'restock:' and 'keeps:'
                                 say, repeated over --runs: fill rate, service
                                 level, waste, purchases and margin, each with
                                 a 95% interval (docs/planning.md)
            A script named 'menu', 'buy' or 'plan' is run as './menu', './buy' or './plan'.

            Picking par levels for a 95% service level, with a report to open in a browser:
              juice-run plan --recipes docs/examples/planning/shop.yaml --orders-per-day 12 \\
                --runs 200 --seed 2026 --target-service 0.95 --report plan.html

            The order script has one command per line; '#' starts a comment:
              MENU-ID            one order
              MENU-ID xN         N orders, each all fruit or none (N up to \(ScriptParser.maxRepeat))
              restock FRUIT N    add N (at least 1) of FRUIT
              set FRUIT N        set FRUIT's stock to N (at least 0)
              restock RECIPE N   add N servings on hand (a book that keeps servings)
              set RECIPE N       set the servings on hand to N
              stock              show the stock at this point

            In a book that keeps servings (a recipe with 'yield:', or stock that
            names a recipe), an order makes the fewest batches that cover it and
            what a batch does not use stays on hand for later orders.

            The summary gives orders, served and refused, refusals per menu item, revenue \
            (when prices are declared) and the shortfall: for each fruit, how far below zero \
            its stock would have gone at the worst moment had every order been served.

            The counter: when an order is refused it asks to edit the stock, and if the \
            order can then be made, offers to make it; a question is asked again until \
            answered y or n. On quit, Ctrl-D or a signal it prints the day's summary \
            (orders, served, refused, revenue) and where the stock was saved.

            Exit codes:
              0  the run finished (refusals for lack of fruit are outcomes, not errors)
              1  the book or stock file is invalid, or a script line was skipped
              2  bad usage, a path that does not exist or cannot be read, or a
                 --save-stock destination that cannot take the stock (checked
                 before any order)
              3  the stock could not be saved at the end (it is printed to
                 standard error in stock-file format instead), or the output
                 could not be written (one line on standard error says what)
              141  the reader of the output went away (a closed pipe, as in
                   '| head'): the run stopped quietly, as cat does, and still
                   saved the stock if asked
              129, 130, 143  stopped by SIGHUP, SIGINT or SIGTERM, in a replay or at
                             the counter, after printing the summary so far (and
                             saving the stock, atomically, if asked)
            """,
        version: JuiceMakerVersion.current
    )

    @Option(name: .customLong("recipes"), help: ArgumentHelp("A recipe directory or file; repeatable (default: recipes).", valueName: "DIR"))
    var recipePaths: [String] = []

    @Option(help: ArgumentHelp("A YAML file whose 'stock:' replaces the book's opening stock.", valueName: "FILE"))
    var stock: String?

    @Option(help: ArgumentHelp("A quick order, such as banana-juice or banana-juicex3; repeatable.", valueName: "ID[xN]"))
    var order: [String] = []

    @Option(help: ArgumentHelp("Generate N orders (uniform unless --mix is given).", valueName: "N"))
    var random: Int?

    @Option(help: ArgumentHelp("Seed for --random; the same seed gives the same orders on every machine.", valueName: "S"))
    var seed: UInt64?

    @Option(help: ArgumentHelp("Weights for --random, such as banana-juice=3,kiwi-juice=1; several --mix merge, and an item may be named once.", valueName: "ID=WEIGHT,..."))
    var mix: [String] = []

    @Option(help: "Output format: text, json (JSON Lines), or csv (menu and buy only).")
    var format: RunFormat = .text

    @Flag(help: "Print only the summary.")
    var quiet = false

    @Flag(help: "Show how many of each menu item the stock could make on its own, and the limiting fruit.")
    var capacity = false

    @Flag(help: "Run the shop counter (the default on a terminal with no script).")
    var interactive = false

    @Option(name: .customLong("save-stock"), help: ArgumentHelp("Save the final stock to FILE, atomically.", valueName: "FILE"))
    var saveStock: String?

    @Option(help: ArgumentHelp(
        "Print at most N book errors and N skipped-line reports, then a line saying how many more; 0 prints all. Default: \(DiagnosticLimit.defaultForPeople). The summary's counts are always complete.",
        valueName: "N"
    ))
    var maxDiagnostics: Int?

    @Option(help: ArgumentHelp("juice-run plan: days per run (default 30).", valueName: "D"))
    var days: Int?

    @Option(help: ArgumentHelp("juice-run plan: independent runs (default 100).", valueName: "R"))
    var runs: Int?

    @Option(name: .customLong("orders-per-day"), help: ArgumentHelp("juice-run plan: the mean (poisson) or exact (fixed) orders a day (default 50).", valueName: "N"))
    var ordersPerDay: Int?

    @Option(help: ArgumentHelp("juice-run plan: poisson or fixed (default poisson).", valueName: "KIND"))
    var demand: DemandStream.Demand?

    @Option(name: .customLong("target-service"), help: ArgumentHelp("juice-run plan: find par levels reaching this cycle service level, such as 0.95.", valueName: "P"))
    var targetService: Double?

    @Option(help: ArgumentHelp("juice-run plan: also write an HTML report with charts to FILE, atomically.", valueName: "FILE"))
    var report: String?

    @Argument(help: ArgumentHelp("Order scripts, or - for standard input.", valueName: "SCRIPT"))
    var scripts: [String] = []

    /// What the command line asked for, for the library.
    var options: RunOptions {
        var options = RunOptions()
        options.recipePaths = recipePaths
        options.stockPath = stock
        // `menu` or `buy` as the first word picks the mode; the rest are scripts.
        if let first = scripts.first, let mode = RunMode(rawValue: first), mode != .orders {
            options.mode = mode
            options.scripts = Array(scripts.dropFirst())
        } else {
            options.scripts = scripts
        }
        options.orders = order
        options.randomCount = random
        options.seed = seed
        options.mix = mix.isEmpty ? nil : mix.joined(separator: ",")
        options.format = format
        options.quiet = quiet
        options.capacity = capacity
        options.interactive = interactive
        options.saveStockPath = saveStock
        options.maxDiagnostics = maxDiagnostics
        options.days = days
        options.runs = runs
        options.ordersPerDay = ordersPerDay
        options.demand = demand
        options.targetService = targetService
        options.reportPath = report
        return options
    }

    func run() throws {
        let streams = RunStreams.standard()
        var shop = ShopRun(options: options, streams: streams, environment: POSIXRunEnvironment(), loader: ParallelBookLoader())
        shop.planRunner = ParallelPlanRunner()
        let exit = shop.runReportingErrors()
        do {
            try streams.output.finish()
        } catch {
            // A failed save was reported already, with the stock itself: its
            // exit 3 stands, even when the output's reader also went away.
            if exit != .internalFailure || !error.isBrokenPipe { throw error }
        }
        if exit != .success { throw ExitCode(exit.rawValue) }
    }

    /// Options that cannot go together are usage errors, found before anything is read.
    func validate() throws {
        try validateMaxDiagnostics(maxDiagnostics)
        try validating(options.validate)
    }

    static func main() { mainWithMappedExitCodes() }
}
