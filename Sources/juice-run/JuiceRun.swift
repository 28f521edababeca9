@_spi(Internals) import JuiceSupport
import JuiceDiagnostics
import JuiceSimulation
import JuiceCommandLine
import ArgumentParser

extension RunFormat: ExpressibleByArgument {}
extension DemandStream.Demand: ExpressibleByArgument {}

/// The order script's grammar, in the help of the commands that read scripts.
private let scriptGrammar = """
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
    """

private let exitCodes = """
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
    """

/// Replays orders against a recipe book's stock, runs the shop counter, or
/// prints the menu card, the shopping list or a plan. Everything it does
/// lives in `JuiceKit.ShopRun`; this parses arguments.
@main
struct JuiceRun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "juice-run",
        abstract: "Simulate juice orders against a recipe book's stock, or run the shop counter.",
        discussion: """
            With no subcommand it replays orders: juice-run [--recipes DIR] [SCRIPT ...],
            with --order, --random, --capacity, --interactive, --save-stock and more;
            'juice-run help replay' explains each. Write a script named like a
            subcommand as ./menu.

            \(scriptGrammar)

            \(exitCodes)
            """,
        version: JuiceMakerVersion.current,
        subcommands: [Replay.self, Menu.self, Buy.self, Plan.self],
        defaultSubcommand: Replay.self
    )

    /// A replay, the default, is parsed on its own when no argument names a
    /// subcommand or asks for help: every replay and the counter start here,
    /// and parsing through the subcommand tree (four subcommands, each
    /// looked up and reflected) took the start-up from 15.1 M instructions
    /// before the subcommands to 17.2 M (callgrind, `--order banana-juice`).
    /// Anything that does not parse that way goes through the tree, which
    /// then says what is wrong as it always does.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let special: Set<String> = ["replay", "menu", "buy", "plan", "help", "-h", "--help", "--version"]
        let alone = !arguments.contains { special.contains($0) || $0.hasPrefix("--generate-completion") || $0.hasPrefix("--experimental") }
        if alone, let replay = try? Replay.parse(arguments) { runWithMappedExitCodes(replay) }
        // The same for a subcommand named first: `juice-run plan` started in
        // 29.5 M instructions through the tree, 24.0 M this way (19.6 M
        // before the subcommands; its option groups are the rest).
        if let first = arguments.first, !arguments.dropFirst().contains(where: { special.contains($0) || $0.hasPrefix("--generate-completion") || $0.hasPrefix("--experimental") }) {
            let rest = Array(arguments.dropFirst())
            switch first {
            case "plan": if let plan = try? Plan.parse(rest) { runWithMappedExitCodes(plan) }
            case "menu": if let menu = try? Menu.parse(rest) { runWithMappedExitCodes(menu) }
            case "buy": if let buy = try? Buy.parse(rest) { runWithMappedExitCodes(buy) }
            default: break
            }
        }
        mainWithMappedExitCodes()
    }
}

// MARK: The subcommands

/// `juice-run [replay]`: orders from scripts, `--order` and `--random`, or the counter.
struct Replay: RunSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay orders against the stock, or run the shop counter (the default command).",
        discussion: """
            Orders come from scripts (in order), then each --order, then --random. \
            With none of these, a terminal gets the interactive counter and a pipe is read as a script.

            \(scriptGrammar)

            The summary gives orders, served and refused, refusals per menu item, revenue \
            (when prices are declared) and the shortfall: for each fruit, how far below zero \
            its stock would have gone at the worst moment had every order been served, \
            with no substitute (fruit a book lists under 'substitutes:' stands in for a \
            short fruit when an order is made, and an order that used one says so).

            The counter: when an order is refused it asks to edit the stock, and if the \
            order can then be made, offers to make it; a question is asked again until \
            answered y or n. On quit, Ctrl-D or a signal it prints the day's summary \
            (orders, served, refused, revenue) and where the stock was saved.

            \(exitCodes)
            """
    )
    static let mode = RunMode.orders

    // The options are declared here one by one, in the groups' order and
    // words, rather than as the option groups the other subcommands share:
    // ArgumentParser builds a nested argument set for each group, and with
    // five of them this command, the one every replay and the counter start
    // on, took 21.5 M instructions to start against 15.1 M before the
    // subcommands (callgrind, `juice-run --order banana-juice`), and 5.4 ms
    // against 4.6 ms (hyperfine, 200 runs).
    // `RunSubcommandTests.theReplaysOwnOptionsReadAsTheSharedGroups` holds
    // their help to the groups'.
    @Option(name: .customLong("recipes"), help: ArgumentHelp("A recipe directory or file; repeatable (default: recipes).", valueName: "DIR"))
    var recipePaths: [String] = []
    @Option(help: ArgumentHelp("A YAML file whose 'stock:' replaces the book's opening stock.", valueName: "FILE"))
    var stock: String?
    @Option(help: ArgumentHelp(
        "Print at most N book errors and N skipped-line reports, then a line saying how many more; 0 prints all. Default: \(DiagnosticLimit.defaultForPeople). The summary's counts are always complete.",
        valueName: "N"
    ))
    var maxDiagnostics: Int?
    @Option(help: ArgumentHelp("A quick order, such as banana-juice or banana-juicex3; repeatable.", valueName: "ID[xN]"))
    var order: [String] = []
    @Option(help: ArgumentHelp("Generate N orders (uniform unless --mix is given).", valueName: "N"))
    var random: Int?
    @Argument(help: ArgumentHelp("Order scripts, or - for standard input.", valueName: "SCRIPT"))
    var scripts: [String] = []
    @Option(help: ArgumentHelp("Seed for --random; the same seed gives the same orders on every machine.", valueName: "S"))
    var seed: UInt64?
    @Option(help: ArgumentHelp("Weights for --random, such as banana-juice=3,kiwi-juice=1; several --mix merge, and an item may be named once.", valueName: "ID=WEIGHT,..."))
    var mix: [String] = []
    @Option(help: "Output format: text or json (JSON Lines).")
    var format: RunFormat = .text
    @Flag(help: "Print only the summary.")
    var quiet = false
    @Flag(help: "Show how many of each menu item the stock could make on its own, and the limiting fruit.")
    var capacity = false
    @Flag(help: "Run the shop counter (the default on a terminal with no script).")
    var interactive = false
    @Option(name: .customLong("save-stock"), help: ArgumentHelp("Save the final stock to FILE, atomically.", valueName: "FILE"))
    var saveStock: String?
    // `juice-run plan`'s options, hidden, so that they are refused in the words they always were.
    @Option(help: .private) var days: Int?
    @Option(help: .private) var runs: Int?
    @Option(name: .customLong("orders-per-day"), help: .private) var ordersPerDay: Int?
    @Option(help: .private) var demand: DemandStream.Demand?
    @Option(name: .customLong("target-service"), help: .private) var targetService: Double?
    @Option(help: .private) var report: String?
    @Option(help: .private) var history: String?
    @Option(name: .customLong("history-shop"), help: .private) var historyShop: String?
    @Option(help: .private) var start: String?

    var options: RunOptions {
        var options = RunOptions()
        options.mode = Self.mode
        options.recipePaths = recipePaths
        options.stockPath = stock
        options.maxDiagnostics = maxDiagnostics
        options.scripts = scripts
        options.orders = order
        options.randomCount = random
        options.seed = seed
        options.mix = mix.isEmpty ? nil : mix.joined(separator: ",")
        options.format = format
        options.quiet = quiet
        options.capacity = capacity
        options.interactive = interactive
        options.saveStockPath = saveStock
        options.days = days
        options.runs = runs
        options.ordersPerDay = ordersPerDay
        options.demand = demand
        options.targetService = targetService
        options.reportPath = report
        options.historyPath = history
        options.historyShop = historyShop
        options.start = start
        return options
    }
}

/// `juice-run menu`: the menu card.
struct Menu: GroupedRunSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "menu",
        abstract: "Print the menu card: price, cost per serving, margin, margin %, capacity from the opening stock and the fruit that limits it.",
        discussion: exitCodes
    )
    static let mode = RunMode.menu

    @OptionGroup var book: BookOptions
    @Option(help: "Output format: text, json (JSON Lines) or csv.")
    var format: RunFormat = .text
    @OptionGroup(visibility: .private) var orders: OrderOptions
    @OptionGroup(visibility: .private) var random: RandomOptions
    @OptionGroup(visibility: .private) var replay: ReplayOptions
    @OptionGroup(visibility: .private) var plan: PlanOptions
}

/// `juice-run buy`: the shopping list for the orders.
struct Buy: GroupedRunSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "buy",
        abstract: "Print the shopping list that lets every one of the orders (scripts, --order, --random) be served: each fruit's shortfall in whole packs, and its cost.",
        discussion: """
            Substitutes are not counted: the list is what to buy so that no
            order needs one (docs/recipes.md, "Substitutes").

            \(scriptGrammar)

            \(exitCodes)
            """
    )
    static let mode = RunMode.buy

    @OptionGroup var book: BookOptions
    @OptionGroup var orders: OrderOptions
    @OptionGroup var random: RandomOptions
    @Option(help: "Output format: text, json (JSON Lines) or csv.")
    var format: RunFormat = .text
    @OptionGroup(visibility: .private) var replay: ReplayOptions
    @OptionGroup(visibility: .private) var plan: PlanOptions
}

/// `juice-run plan`: many days of random demand (docs/planning.md).
struct Plan: GroupedRunSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Run many days of random demand, restocked and spoiling as the book's 'restock:' and 'keeps:' say, repeated over --runs: fill rate, service level, waste, purchases and margin, each with a 95% interval (docs/planning.md).",
        discussion: """
            Picking par levels for a 95% service level, with a report to open in a browser:
              juice-run plan --recipes docs/examples/planning/shop.yaml --orders-per-day 12 \\
                --runs 200 --seed 2026 --target-service 0.95 --report plan.html

            Planning from the demand a shop's journal recorded:
              juice-serve journal export --format csv > sales.csv
              juice-run plan --recipes docs/examples/planning/shop.yaml --history sales.csv --seed 2026

            \(exitCodes)
            """
    )
    static let mode = RunMode.plan

    @OptionGroup var book: BookOptions
    @OptionGroup var plan: PlanOptions
    @OptionGroup var random: RandomOptions
    @Option(help: "Output format: text, json or csv.")
    var format: RunFormat = .text
    @OptionGroup(visibility: .private) var orders: OrderOptions
    @OptionGroup(visibility: .private) var replay: ReplayOptions
}

// MARK: Options

// MARK: What every subcommand does

/// A subcommand of juice-run. Each has every option group, so that an
/// option of another subcommand is still refused with the words it always
/// was (`RunUsageError`: "'juice-run plan' takes no --quiet", "--days is
/// for 'juice-run plan'"); the groups it does not take are private, so its
/// `--help` lists only its own.
protocol RunSubcommand: ParsableCommand {
    static var mode: RunMode { get }
    /// What the command line asked for, for the library.
    var options: RunOptions { get }
}

/// A subcommand whose options are the shared groups.
protocol GroupedRunSubcommand: RunSubcommand {
    var book: BookOptions { get }
    var format: RunFormat { get }
    var orders: OrderOptions { get }
    var random: RandomOptions { get }
    var replay: ReplayOptions { get }
    var plan: PlanOptions { get }
}

extension GroupedRunSubcommand {
    var options: RunOptions {
        var options = RunOptions()
        options.mode = Self.mode
        options.recipePaths = book.recipePaths
        options.stockPath = book.stock
        options.maxDiagnostics = book.maxDiagnostics
        options.scripts = orders.scripts
        options.orders = orders.order
        options.randomCount = orders.random
        options.seed = random.seed
        options.mix = random.mix.isEmpty ? nil : random.mix.joined(separator: ",")
        options.format = format
        options.quiet = replay.quiet
        options.capacity = replay.capacity
        options.interactive = replay.interactive
        options.saveStockPath = replay.saveStock
        options.days = plan.days
        options.runs = plan.runs
        options.ordersPerDay = plan.ordersPerDay
        options.demand = plan.demand
        options.targetService = plan.targetService
        options.reportPath = plan.report
        options.historyPath = plan.history
        options.historyShop = plan.historyShop
        options.start = plan.start
        return options
    }
}

extension RunSubcommand {
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
        let options = options
        try validateMaxDiagnostics(options.maxDiagnostics)
        if Self.mode == .orders, let first = options.scripts.first, let mode = RunMode(rawValue: first), mode != .orders {
            // `juice-run --recipes r menu` read 'menu' as the subcommand before there were subcommands.
            throw ValidationError("'\(first)' is a subcommand and comes first, as in 'juice-run \(first) --recipes DIR'; write a script named '\(first)' as './\(first)'")
        }
        try validating(options.validate)
    }
}
