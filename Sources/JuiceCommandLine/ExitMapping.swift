import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JuiceKit

extension ParsableCommand {
    /// Parses the command line and runs the command, ending with the documented
    /// exit codes (see `exitMapped`). Each tool's `main()` calls only this.
    public static func mainWithMappedExitCodes() -> Never {
        do {
            var command = try parseAsRoot()
            try command.run()
            terminate(0)
        } catch {
            exitMapped(error)
        }
    }

    /// Ends the process for an error thrown while parsing or running, with the
    /// exit codes juice-maker documents rather than swift-argument-parser's:
    /// `--help` exits 0, usage errors exit 2 (not 64), a tool's own `ExitCode`
    /// passes through, and anything unexpected is an internal failure, 3.
    public static func exitMapped(_ error: Error) -> Never {
        if error is ExitCode { exit(withError: error) }
        let code = exitCode(for: error)
        if code == .success { exit(withError: error) }
        let message = fullMessage(for: error)
        if !message.isEmpty { OutputBuffer.standardError().line(message) }
        let mapped: ToolExitCode = code == .validationFailure ? .usage : .internalFailure
        terminate(mapped.rawValue)
    }
}

/// exit(3), named apart from ArgumentParser's `exit(withError:)`.
private func terminate(_ status: Int32) -> Never {
    #if canImport(Glibc)
    Glibc.exit(status)
    #else
    Darwin.exit(status)
    #endif
}
