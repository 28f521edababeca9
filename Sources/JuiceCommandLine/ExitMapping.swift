@_spi(Internals) import JuiceSupport
import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A report that could not be written, with what the tool still has to say
/// after the reason (juice-lint's summary line), so the counts are not lost too.
public struct UnwrittenReport: Error {
    public var failure: FileWriter.Failure
    /// Printed on standard error after the failure, unless the reader went away.
    public var trailer: String

    /// `failure`, followed on standard error by `trailer` when it is not empty.
    public init(_ failure: FileWriter.Failure, trailer: String) {
        self.failure = failure
        self.trailer = trailer
    }
}

extension ParsableCommand {
    /// Parses the command line and runs the command, ending with the documented
    /// exit codes (see `exitMapped`). Each tool's `main()` calls only this.
    public static func mainWithMappedExitCodes() -> Never {
        // A closed pipe must reach the tool as a failed write (EPIPE), not
        // kill it: juice-run may still have a stock to save. The tool then
        // stops quietly with 141, what a shell reports for `cat` in the same place.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try parseAsRoot()
            try command.run()
            terminate(0)
        } catch {
            exitMapped(error)
        }
    }

    /// Runs `command`, parsed already, and ends the process as
    /// `mainWithMappedExitCodes` does, errors named with this command's name.
    public static func runWithMappedExitCodes(_ command: some ParsableCommand) -> Never {
        signal(SIGPIPE, SIG_IGN)
        var command = command
        do {
            try command.run()
            terminate(0)
        } catch {
            exitMapped(error)
        }
    }

    /// Ends the process for an error thrown while parsing or running, with the
    /// exit codes juice-maker documents rather than swift-argument-parser's:
    /// `--help` exits 0, usage errors exit 2 (not 64), a tool's own `ExitCode`
    /// passes through, JuiceKit's typed errors are printed and mapped by
    /// `ErrorReport`, a report that could not be written exits 3 (141,
    /// quietly, when the reader went away), and anything unexpected is an
    /// internal failure, 3.
    public static func exitMapped(_ error: Error) -> Never {
        if error is ExitCode { exit(withError: error) }
        if let failure = error as? FileWriter.Failure { endAfter(failure, trailer: "") }
        if let unwritten = error as? UnwrittenReport { endAfter(unwritten.failure, trailer: unwritten.trailer) }
        if let report = ErrorReport(error) {
            report.write(tool: toolName, to: .standardError())
            terminate(report.exitCode.rawValue)
        }
        let code = exitCode(for: error)
        let message = fullMessage(for: error)
        if code == .success {
            // --help and --version go through the same checked output as reports.
            let output = OutputBuffer.standardOutput()
            if !message.isEmpty { output.line(message) }
            do {
                try output.finish()
            } catch {
                endAfter(error, trailer: "")
            }
            terminate(ToolExitCode.success.rawValue)
        }
        if !message.isEmpty { OutputBuffer.standardError().line(message) }
        let mapped: ToolExitCode = code == .validationFailure ? .usage : .internalFailure
        terminate(mapped.rawValue)
    }

    /// The one place a failed write is reported: a closed pipe ends the tool
    /// quietly with 141; anything else (a full disk, a file-size limit, an
    /// I/O error) prints one line naming what was not written and exits 3.
    private static func endAfter(_ failure: FileWriter.Failure, trailer: String) -> Never {
        if failure.isBrokenPipe { terminate(ToolExitCode.brokenPipe.rawValue) }
        let errors = OutputBuffer.standardError()
        errors.line(ErrorReport.headline(tool: toolName, "\(failure)"))
        if !trailer.isEmpty { errors.line(trailer) }
        terminate(ToolExitCode.internalFailure.rawValue)
    }
}

extension ParsableCommand {
    /// The name errors are printed under: `juice-lint`, `juice-run`.
    static var toolName: String { configuration.commandName ?? "juice" }
}

/// Ends the process with `code` while `value` is still held, so that
/// whatever it holds is never freed: the system takes the memory back at
/// once, where freeing a big book first costs a million calls to `free`.
public func endProcess(keeping value: some Any, code: ToolExitCode) -> Never {
    withExtendedLifetime(value) { terminate(code.rawValue) }
}

/// exit(3), named apart from ArgumentParser's `exit(withError:)`.
private func terminate(_ status: Int32) -> Never {
    #if canImport(Glibc)
    Glibc.exit(status)
    #else
    Darwin.exit(status)
    #endif
}
