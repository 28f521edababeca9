@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics
import JuiceBook
import JuiceSimulation
import JuiceLint

/// How an error that ends (or cuts short) a tool's work is shown, and the
/// exit code it maps to: the one place JuiceKit's typed errors become
/// `TOOL: error: MESSAGE` lines, for both tools.
///
/// The library says what went wrong (each error's description, with any
/// `  help:` lines); this decides how it reads on standard error and what
/// the tool exits with, as the tools' `--help` documents.
public struct ErrorReport: Sendable, Equatable {
    /// The message after `TOOL: error: `, with any help lines.
    public var message: String
    /// Written after the message as it is: the stock a run could not save.
    public var trailer: String
    public var exitCode: ToolExitCode

    /// A report with this message, trailer and exit code.
    public init(message: String, trailer: String = "", exitCode: ToolExitCode) {
        self.message = message
        self.trailer = trailer
        self.exitCode = exitCode
    }

    /// The report for one of juice-run's errors.
    public init(_ error: RunError) {
        switch error {
        case .invalidBook:
            // The book's diagnostics came first; the input is at fault, not the usage.
            self.init(message: "\(error)", exitCode: .failure)
        case .stockNotSaved(_, let stock):
            self.init(message: "\(error)", trailer: stock, exitCode: .internalFailure)
        case .usage, .defaultBookMissing, .source, .scriptNotFound, .scriptUnreadable, .scriptIsDirectory,
             .stockDestination, .mix, .counterHasNoJSON, .randomNeedsMenu, .planNeedsMenu, .reportDestination, .historyUnreadable:
            self.init(message: "\(error)", exitCode: .usage)
        case .reportNotWritten:
            self.init(message: "\(error)", exitCode: .internalFailure)
        case .history:
            // The file was read; what it holds cannot be planned from.
            self.init(message: "\(error)", exitCode: .failure)
        case .plan:
            // The book asks for a purchase past what a count holds: the input is at fault.
            self.init(message: "\(error)", exitCode: .failure)
        }
    }

    /// The report for one of juice-lint's errors.
    public init(_ error: LintError) {
        switch error {
        case .configuration, .source: self.init(message: "\(error)", exitCode: .usage)
        case .invalidBookHasNoGraph: self.init(message: "\(error)", exitCode: .failure)
        }
    }

    /// The report for any error JuiceKit throws to end a command, or nil for
    /// one it does not (swift-argument-parser's own, a failed write), which
    /// `exitMapped` handles on its own terms.
    public init?(_ error: any Error) {
        switch error {
        case let error as RunError: self.init(error)
        case let error as LintError: self.init(error)
        case let error as SourceError: self.init(message: "\(error)", exitCode: .usage)
        case let error as ConfigurationError: self.init(message: "\(error)", exitCode: .usage)
        case let error as UnknownRuleError: self.init(message: "\(error)", exitCode: .usage)
        default: return nil
        }
    }

    /// Writes `TOOL: error: MESSAGE` and the trailer to `errors`, now.
    public func write(tool: String, to errors: OutputBuffer) {
        errors.line(Self.headline(tool: tool, message))
        if !trailer.isEmpty {
            errors.write(trailer)
            errors.flush()
        }
    }

    /// `TOOL: error: MESSAGE`, the one spelling of an error's first line.
    static func headline(tool: String, _ message: String) -> String {
        "\(tool): error: \(message)"
    }
}

extension ShopRun {
    /// Runs, printing a problem that cuts a replay short as `juice-run: error: ...`
    /// on the run's standard error when it happens, and returns the exit code.
    /// An error that ends the run is printed the same way, and its exit code
    /// returned: the caller still has standard output to finish.
    public func runReportingErrors() -> ToolExitCode {
        let report: (RunError) -> ToolExitCode = { error in
            let report = ErrorReport(error)
            report.write(tool: "juice-run", to: streams.errors)
            return report.exitCode
        }
        do {
            return try run(reporting: report)
        } catch {
            return report(error)
        }
    }
}
