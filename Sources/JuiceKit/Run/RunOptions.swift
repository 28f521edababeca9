#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The output formats `juice-run` writes.
public enum RunFormat: String, Sendable, CaseIterable {
    case text
    /// JSON Lines.
    case json
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
    public var format: RunFormat = .text
    public var quiet = false
    public var capacity = false
    public var interactive = false
    /// `--save-stock FILE`: the final stock, written atomically.
    public var saveStockPath: String?
    /// `--max-diagnostics N`: how many book diagnostics and skipped-line
    /// reports to print; nil for the default, 0 for all.
    public var maxDiagnostics: Int?

    /// No inputs yet: the run reads standard input, or opens the counter on a terminal.
    public init() {}
}

/// The streams and facts about them a run needs, so tests can supply their own.
public struct RunStreams {
    public var output: OutputBuffer
    public var errors: OutputBuffer
    public var input: Int32
    public var inputIsTerminal: Bool
    public var errorsAreTerminal: Bool

    /// Streams given explicitly, as tests do.
    public init(output: OutputBuffer, errors: OutputBuffer, input: Int32, inputIsTerminal: Bool, errorsAreTerminal: Bool) {
        self.output = output
        self.errors = errors
        self.input = input
        self.inputIsTerminal = inputIsTerminal
        self.errorsAreTerminal = errorsAreTerminal
    }

    /// The process's standard streams, and whether each is a terminal.
    public static func standard() -> RunStreams {
        RunStreams(
            output: .standardOutput(), errors: .standardError(), input: STDIN_FILENO,
            inputIsTerminal: isatty(STDIN_FILENO) == 1, errorsAreTerminal: isatty(STDERR_FILENO) == 1
        )
    }
}
