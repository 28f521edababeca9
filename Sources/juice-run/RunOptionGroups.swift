import JuiceDiagnostics
import JuiceSimulation
import ArgumentParser

// The option groups the subcommands share (`GroupedRunSubcommand`); the
// replay declares the same options itself (JuiceRun.swift says why).

/// The book, for every subcommand.
struct BookOptions: ParsableArguments {
    @Option(name: .customLong("recipes"), help: ArgumentHelp("A recipe directory or file; repeatable (default: recipes).", valueName: "DIR"))
    var recipePaths: [String] = []

    @Option(help: ArgumentHelp("A YAML file whose 'stock:' replaces the book's opening stock.", valueName: "FILE"))
    var stock: String?

    @Option(help: ArgumentHelp(
        "Print at most N book errors and N skipped-line reports, then a line saying how many more; 0 prints all. Default: \(DiagnosticLimit.defaultForPeople). The summary's counts are always complete.",
        valueName: "N"
    ))
    var maxDiagnostics: Int?
}

/// Where orders come from: `replay` and `buy`.
struct OrderOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A quick order, such as banana-juice or banana-juicex3; repeatable.", valueName: "ID[xN]"))
    var order: [String] = []

    @Option(help: ArgumentHelp("Generate N orders (uniform unless --mix is given).", valueName: "N"))
    var random: Int?

    @Argument(help: ArgumentHelp("Order scripts, or - for standard input.", valueName: "SCRIPT"))
    var scripts: [String] = []
}

/// How random orders are drawn: `replay`, `buy` and `plan`.
struct RandomOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Seed for --random; the same seed gives the same orders on every machine.", valueName: "S"))
    var seed: UInt64?

    @Option(help: ArgumentHelp("Weights for --random, such as banana-juice=3,kiwi-juice=1; several --mix merge, and an item may be named once.", valueName: "ID=WEIGHT,..."))
    var mix: [String] = []
}

/// What only a replay does.
struct ReplayOptions: ParsableArguments {
    @Flag(help: "Print only the summary.")
    var quiet = false

    @Flag(help: "Show how many of each menu item the stock could make on its own, and the limiting fruit.")
    var capacity = false

    @Flag(help: "Run the shop counter (the default on a terminal with no script).")
    var interactive = false

    @Option(name: .customLong("save-stock"), help: ArgumentHelp("Save the final stock to FILE, atomically.", valueName: "FILE"))
    var saveStock: String?
}

/// `juice-run plan`'s own options.
struct PlanOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Days per run (default 30).", valueName: "D"))
    var days: Int?

    @Option(help: ArgumentHelp("Independent runs (default 100).", valueName: "R"))
    var runs: Int?

    @Option(name: .customLong("orders-per-day"), help: ArgumentHelp("The mean (poisson) or exact (fixed) orders a day (default 50).", valueName: "N"))
    var ordersPerDay: Int?

    @Option(help: ArgumentHelp("poisson or fixed (default poisson).", valueName: "KIND"))
    var demand: DemandStream.Demand?

    @Option(name: .customLong("target-service"), help: ArgumentHelp("Find par levels reaching this cycle service level, such as 0.95.", valueName: "P"))
    var targetService: Double?

    @Option(help: ArgumentHelp("Also write an HTML report with charts to FILE, atomically.", valueName: "FILE"))
    var report: String?

    @Option(help: ArgumentHelp(
        "Learn each menu item's daily demand from a journal export (juice-serve journal export, CSV or JSONL) instead of --orders-per-day and --mix; per weekday from 28 days with a day-open entry.",
        valueName: "FILE"
    ))
    var history: String?

    @Option(name: .customLong("history-shop"), help: ArgumentHelp("The shop to learn from, when the export holds several.", valueName: "NAME"))
    var historyShop: String?

    @Option(help: ArgumentHelp("With --history: plan day 1's date, for the weekdays (default: the day after the last day learnt from).", valueName: "YYYY-MM-DD"))
    var start: String?
}
