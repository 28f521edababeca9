import ArgumentParser
import Foundation
import JuiceCommandLine
import JuiceKit

extension LintFormat: ExpressibleByArgument {}

/// Checks recipe books. Everything it does lives in `JuiceKit.Linter`.
@main
struct JuiceLint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "juice-lint",
        abstract: "Check juice-maker recipe files and report every problem.",
        discussion: """
            Reads every *.yaml and *.yml file under the given paths (default: recipes) \
            as one recipe book and reports each problem as FILE:LINE:COLUMN: error: MESSAGE [RULE].

            Exit codes:
              0  no errors
              1  errors were found
              2  bad usage, or a path that does not exist or cannot be read
            """
    )

    @Argument(help: "Recipe files or directories to check.")
    var paths: [String] = []

    @Option(help: "Output format: text or json.")
    var format: LintFormat = .text

    func run() throws {
        let report = Linter(paths: paths, format: format).run()
        let output = OutputBuffer.standardOutput()
        if !report.output.isEmpty { output.line(report.output) }
        output.flush()
        if !report.messages.isEmpty { OutputBuffer.standardError().line(report.messages) }
        if report.exitCode != .success { throw ExitCode(report.exitCode.rawValue) }
    }

    /// Maps argument-parser failures to exit code 2, which the tool documents,
    /// instead of the library's default of 64.
    static func main() { mainWithMappedExitCodes() }
}
