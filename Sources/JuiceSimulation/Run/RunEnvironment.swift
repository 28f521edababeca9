@_spi(Internals) import JuiceSupport

/// Bytes the driver has opened for a run: a script file, a pipe, the
/// terminal. The library reads them through this and never opens, stats or
/// polls anything itself (ARCHITECTURE.md, "Plain core, busy edge").
public protocol ByteSource: AnyObject {
    /// Reads at most `buffer.count` bytes into `buffer` and returns how many:
    /// 0 at the end of input, or nil when nothing arrived within a short wait
    /// (or a signal came), so that the reader can ask whether to stop before
    /// it waits again. Throws when the source cannot be read; the error's
    /// description is the reason `cannot read 'x': …` shows.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int?
}

/// An order script opened by the driver, ready to be read.
public struct ScriptInput {
    /// The script's bytes.
    public var source: any ByteSource
    /// Its size when it is a regular file, for the progress meter.
    public var size: Int?

    /// A script read from `source`, of `size` bytes when known.
    public init(source: any ByteSource, size: Int?) {
        self.source = source
        self.size = size
    }
}

/// What a `ShopRun` needs from the world around it: the checks on paths
/// made before the first order, the scripts opened, and whether a stop was
/// asked for. `JuiceCommandLine`'s `POSIXRunEnvironment` does these with
/// `stat`, `open` and signal handlers; the library only asks.
public protocol RunEnvironment {
    /// Whether the default book, `recipes` in the current folder, is missing
    /// (asked only when no `--recipes` was given).
    func defaultBookIsMissing() -> Bool

    /// Throws the error that says why the script at `path` cannot be read,
    /// if it cannot: every script is checked before any order runs.
    func checkScript(_ path: String) throws(RunError)

    /// Opens the script at `path` (shown as `name`), or throws why it cannot
    /// be read. The source is closed when the last reference to it goes.
    func openScript(_ path: String, name: String) throws(RunError) -> ScriptInput

    /// Why `path` cannot take a file written there atomically (the saved
    /// stock, the plan's report), or nil when it looks as if it can.
    func saveProblem(_ path: String) -> String?

    /// Makes stop requests arrive from now on (the command line installs
    /// its signal handlers); called as a replay or the counter begins.
    func watchForStop()

    /// Where a stop request shows, read before every line.
    var stopRequest: StopRequest { get }

    /// The exit code of a run stopped on request.
    var stopExitCode: ToolExitCode { get }
}

extension RunEnvironment {
    /// True once a stop was asked for.
    public var stopRequested: Bool { stopRequest.isRequested }
}

/// Whether a stop was asked for: a word the edge sets (the command line's
/// signal handler) and the run only reads, before every line. A plain read
/// rather than a call through the `RunEnvironment` existential: asking the
/// environment before every line (the existential projected and retained in
/// the line loop's closure) took the quiet replay of orders-1m.txt from
/// 845 M to 930 M instructions against the same run before the edge moved
/// out, with the word read here the difference is gone (callgrind,
/// docs/benchmarks.md).
public struct StopRequest {
    private let word: UnsafePointer<Int32>?

    /// A request that shows when `word` is not 0.
    public init(word: UnsafePointer<Int32>?) {
        self.word = word
    }

    public var isRequested: Bool {
        guard let word else { return false }
        return word.pointee != 0
    }
}
