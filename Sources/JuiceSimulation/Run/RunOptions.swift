@_spi(Internals) import JuiceSupport
import JuiceShop

/// The output formats `juice-run` writes.
public enum RunFormat: String, Sendable, CaseIterable {
    case text
    /// JSON Lines.
    case json
    /// Comma-separated values with a header row (RFC 4180), for the menu
    /// card and the shopping list.
    case csv
}

/// What `juice-run` does: run orders (the default), print the menu card, or
/// print the shopping list that lets the orders be served.
public enum RunMode: String, Sendable, CaseIterable {
    case orders
    /// `juice-run menu`: price, cost, margin and capacity of each menu item.
    case menu
    /// `juice-run buy`: what to buy, in packs, for every order to be served.
    case buy
    /// `juice-run plan`: many days of random demand (docs/planning.md).
    case plan
}

/// Everything `juice-run` is told on the command line.
public struct RunOptions: Sendable {
    public var recipePaths: [String] = []
    /// `--stock FILE`: replaces the book's opening stock.
    public var stockPath: String?
    /// Order scripts, `-` for standard input, run in order.
    public var scripts: [String] = []
    /// `--order ID[xN]`, run after the scripts.
    public var orders: [String] = []
    /// `--random N`, run after the scripts and `--order`s.
    public var randomCount: Int?
    public var seed: UInt64?
    /// `--mix ID=WEIGHT,...`; several `--mix` options are joined with commas
    /// into one, so they merge (an item named twice is still an error).
    public var mix: String?
    public var mode: RunMode = .orders
    public var format: RunFormat = .text
    public var quiet = false
    public var capacity = false
    public var interactive = false
    /// `--save-stock FILE`: the final stock, written atomically.
    public var saveStockPath: String?
    /// `--max-diagnostics N`: how many book diagnostics and skipped-line
    /// reports to print; nil for the default, 0 for all.
    public var maxDiagnostics: Int?
    /// `juice-run plan`'s `--days`, `--runs`, `--orders-per-day` and `--demand`;
    /// nil where not given (the defaults are `PlanSettings`').
    public var days: Int?
    public var runs: Int?
    public var ordersPerDay: Int?
    public var demand: DemandStream.Demand?
    /// `--target-service P`: find par levels reaching this cycle service level.
    public var targetService: Double?
    /// `--report FILE.html`: the plan's report with charts, written atomically.
    public var reportPath: String?
    /// `--history FILE`: a journal export (CSV or JSONL) to learn each menu
    /// item's demand from, in place of `--orders-per-day` and `--mix`.
    public var historyPath: String?
    /// `--history-shop NAME`: the shop of the export to learn from.
    public var historyShop: String?
    /// `--start DATE`: plan day 1's date (`YYYY-MM-DD`), for the weekdays.
    public var start: String?

    /// No inputs yet: the run reads standard input, or opens the counter on a terminal.
    public init() {}
}

/// The streams and facts about them a run needs, so tests can supply their
/// own: the driver opens them and says which are terminals
/// (`RunStreams.standard()` in JuiceCommandLine).
public struct RunStreams {
    public var output: OutputBuffer
    public var errors: OutputBuffer
    /// Standard input: the script `-`, and the counter's.
    public var input: any ByteSource
    public var inputIsTerminal: Bool
    public var errorsAreTerminal: Bool

    /// Streams given explicitly, as tests do.
    public init(output: OutputBuffer, errors: OutputBuffer, input: any ByteSource, inputIsTerminal: Bool, errorsAreTerminal: Bool) {
        self.output = output
        self.errors = errors
        self.input = input
        self.inputIsTerminal = inputIsTerminal
        self.errorsAreTerminal = errorsAreTerminal
    }
}

/// Options that cannot go together, or a value out of range: wrong before
/// anything is read. The executable checks these in argument validation, so
/// they read like swift-argument-parser's own usage errors.
public enum RunUsageError: Error, Sendable, Equatable, CustomStringConvertible {
    case capacityWithOrders
    case capacityWithSaveStock
    case interactiveWithOrders
    case seedOrMixWithoutRandom
    case randomOutOfRange
    case interactiveWithJSON
    case csvOnlyForMenuAndBuy
    case menuWithOrders
    case modeWithOption(RunMode, String)
    case planOptionOutsidePlan(String)
    case planOutOfRange(String, Int)
    case targetServiceOutOfRange
    /// An option that `--history` replaces.
    case historyWith(String)
    /// `--history-shop` or `--start` without `--history`.
    case historyOptionWithoutHistory(String)
    case badStartDate(String)

    public var description: String {
        switch self {
        case .capacityWithOrders:
            return "--capacity shows the stock's capacity and runs no orders; leave out scripts, --order, --random and --interactive"
        case .capacityWithSaveStock: return "--capacity changes no stock, so there is nothing to save; leave out --save-stock"
        case .interactiveWithOrders:
            return "--interactive reads the counter's input from standard input; leave out scripts, --order and --random"
        case .seedOrMixWithoutRandom: return "--seed and --mix apply to --random N"
        case .randomOutOfRange: return "--random takes 0 to \(ShopRun.maxRandomOrders) orders"
        case .interactiveWithJSON: return "the interactive counter has no --format json; pipe a script instead"
        case .csvOnlyForMenuAndBuy: return "--format csv is for 'juice-run menu' and 'juice-run buy'; a run of orders writes text or json"
        case .menuWithOrders: return "'juice-run menu' shows the menu card from the opening stock and runs no orders; leave out scripts, --order and --random"
        case .modeWithOption(let mode, let option): return "'juice-run \(mode.rawValue)' takes no \(option)"
        case .planOptionOutsidePlan(let option): return "\(option) is for 'juice-run plan'"
        case .planOutOfRange(let option, let maximum): return "\(option) takes 1 to \(maximum)"
        case .targetServiceOutOfRange: return "--target-service takes a share above 0 and at most 1, such as 0.95"
        case .historyWith(let option):
            return "--history learns each item's daily demand from the file, in place of \(option); leave out \(option)"
        case .historyOptionWithoutHistory(let option): return "\(option) is for --history FILE"
        case .badStartDate(let text): return "--start takes a date written YYYY-MM-DD, such as 2026-03-02, not '\(text)'"
        }
    }
}

extension RunOptions {
    /// Whether any orders were given: scripts, `--order` or `--random`.
    public var hasOrders: Bool { !scripts.isEmpty || !orders.isEmpty || randomCount != nil }

    /// The first problem with how the options combine, if there is one.
    public func validate() throws(RunUsageError) {
        if format == .csv && mode == .orders { throw .csvOnlyForMenuAndBuy }
        if mode == .plan {
            if hasOrders { throw .modeWithOption(mode, "scripts, --order or --random") }
            if quiet { throw .modeWithOption(mode, "--quiet") }
            if let days, days < 1 || days > PlanSettings.maximumDays { throw .planOutOfRange("--days", PlanSettings.maximumDays) }
            if let runs, runs < 1 || runs > PlanSettings.maximumRuns { throw .planOutOfRange("--runs", PlanSettings.maximumRuns) }
            if let targetService, !(targetService > 0 && targetService <= 1) { throw .targetServiceOutOfRange }
            if let ordersPerDay, ordersPerDay < 0 || ordersPerDay > PlanSettings.maximumOrdersPerDay {
                throw .planOutOfRange("--orders-per-day", PlanSettings.maximumOrdersPerDay)
            }
            if historyPath != nil {
                if ordersPerDay != nil { throw .historyWith("--orders-per-day") }
                if mix != nil { throw .historyWith("--mix") }
                if demand == .fixed { throw .historyWith("--demand fixed") }
            } else {
                if historyShop != nil { throw .historyOptionWithoutHistory("--history-shop") }
                if start != nil { throw .historyOptionWithoutHistory("--start") }
            }
            if let start, JournalExport.dayNumber(start) == nil { throw .badStartDate(start) }
        } else {
            for (option, given) in [("--days", days != nil), ("--runs", runs != nil), ("--orders-per-day", ordersPerDay != nil), ("--demand", demand != nil),
                                    ("--target-service", targetService != nil), ("--report", reportPath != nil), ("--history", historyPath != nil),
                                    ("--history-shop", historyShop != nil), ("--start", start != nil)]
            where given {
                throw .planOptionOutsidePlan(option)
            }
        }
        if mode == .menu && hasOrders { throw .menuWithOrders }
        if mode != .orders {
            if capacity { throw .modeWithOption(mode, "--capacity") }
            if interactive { throw .modeWithOption(mode, "--interactive") }
            if saveStockPath != nil { throw .modeWithOption(mode, "--save-stock") }
        }
        if capacity && (hasOrders || interactive) { throw .capacityWithOrders }
        if capacity && saveStockPath != nil { throw .capacityWithSaveStock }
        if interactive && hasOrders { throw .interactiveWithOrders }
        if seed != nil || mix != nil, randomCount == nil, mode != .plan { throw .seedOrMixWithoutRandom }
        if let count = randomCount, count < 0 || count > ShopRun.maxRandomOrders { throw .randomOutOfRange }
        if interactive && format == .json { throw .interactiveWithJSON }
    }
}
