@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics
import JuiceLint
import JuiceLanguageServer
import JuiceCommandLine
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LintFormat: ExpressibleByArgument {}
extension ColorChoice: ExpressibleByArgument {}
extension RecipeGraphFormat: ExpressibleByArgument {}
extension ServerLog.Level: ExpressibleByArgument {}

private let exitCodes = """
    Exit codes:
      0  no errors; warnings allowed unless --strict
      1  errors, or warnings under --strict
      2  bad usage, a bad config, a missing or unreadable path
      3  internal failure, such as a report that cannot be written
      141  the reader of the output went away (a closed pipe, as in '| head'):
           the tool stopped quietly, as cat does
    """

/// Checks recipe books. Everything it does lives in `JuiceKit`; this parses
/// arguments, calls the library and writes the result.
@main
struct JuiceLint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "juice-lint",
        abstract: "Check juice-maker recipe files and report every problem.",
        discussion: """
            With no subcommand it lints: juice-lint [PATH ...] (default: recipes).
            Options: --format, --output, --color, --strict, --config, --rule, --stock,
            --max-diagnostics, --base-path, --fix, --diff, --stdin-filename;
            'juice-lint help lint' explains each. Write a path named like a
            subcommand as ./rules.

            \(exitCodes)
            """,
        version: JuiceMakerVersion.current,
        subcommands: [Lint.self, Rules.self, Explain.self, Graph.self, LanguageServerCommand.self],
        defaultSubcommand: Lint.self
    )

    static func main() {
        // A path named like a subcommand is read as the subcommand; say how to lint it.
        if let first = CommandLine.arguments.dropFirst().first,
           ["lint", "rules", "explain", "graph", "lsp", "help"].contains(first),
           FileManager.default.fileExists(atPath: first) {
            OutputBuffer.standardError().line(
                "juice-lint: note: '\(first)' is a subcommand; to lint the path '\(first)', write './\(first)'"
            )
        }
        mainWithMappedExitCodes()
    }
}

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check recipe files (the default command).",
        discussion: """
            Reads every *.yaml and *.yml file under the given paths (default: recipes) \
            as one recipe book and reports every problem, sorted by file, line and column. \
            A summary goes to standard error.

            Rule levels come from .juice-lint.yaml in the working directory (or --config), \
            then from each --rule:
              rules:
                unused-fruit: error
                missing-stock: off

            Comments silence rules where they stand:
              # juice-lint disable-line RULE[,RULE...]
              # juice-lint disable-next-line RULE[,RULE...]
              # juice-lint disable-file RULE[,RULE...]

            --fix makes every fix the linter is sure of (a sole "did you mean", a number \
            written plainly, a suppression that silences nothing), editing each file in place \
            and keeping every other byte; a file with a YAML syntax error is left alone. \
            What it fixed goes to standard error, then the book is linted again and \
            reported as usual. --fix --diff prints the fixes as a unified diff instead \
            (for patch -p1 or git apply) and changes no file.

            For editors and pipelines, 'juice-lint --stdin-filename recipes/menu.yaml -' \
            lints standard input as recipes/menu.yaml, with the rest of the book (the \
            other paths, default recipes) read from disk.

            \(exitCodes)
            """
    )

    @Argument(help: "Recipe files or directories to check (default: recipes); '-' is standard input, with --stdin-filename.")
    var paths: [String] = []

    @Option(help: "Output format: auto (github under GitHub Actions, else text), text, json, github or sarif.")
    var format: LintFormat = .auto

    @Option(help: ArgumentHelp("Write the report to FILE instead of standard output.", valueName: "FILE"))
    var output: String?

    @Option(help: "Colour the text format: auto (when writing to a terminal), always or never. NO_COLOR and FORCE_COLOR are honoured.")
    var color: ColorChoice = .auto

    @Flag(help: "Fail (exit 1) on warnings too.")
    var strict = false

    @Option(help: ArgumentHelp("Read rule levels from FILE instead of ./.juice-lint.yaml.", valueName: "FILE"))
    var config: String?

    @Option(help: ArgumentHelp("Check FILE, such as one juice-run --save-stock wrote, as the book's opening stock.", valueName: "FILE"))
    var stock: String?

    @Option(name: .customLong("rule"), help: ArgumentHelp("Set a rule's level: off, info, warning or error. Repeatable.", valueName: "RULE=LEVEL"))
    var rules: [String] = []

    @Option(help: ArgumentHelp(
        "Print at most N diagnostics, the most severe first, then a line saying how many more; 0 prints all. Default: \(DiagnosticLimit.defaultForPeople) for text and github, \(DiagnosticLimit.defaultForSARIF) for sarif (the most GitHub code scanning accepts), all for json. Counts and the exit code always cover every diagnostic.",
        valueName: "N"
    ))
    var maxDiagnostics: Int?

    @Option(help: ArgumentHelp(
        "Make sarif and github paths relative to DIR, as code scanning and annotations resolve them against the repository's root. Default: the enclosing git work tree (the nearest folder with .git), else the working directory. A file outside DIR gets its absolute path.",
        valueName: "DIR"
    ))
    var basePath: String?

    @Flag(help: "Make every fix the linter is sure of, in place, then report what is left. What was fixed goes to standard error.")
    var fix = false

    @Flag(help: "With --fix: print the fixes as a unified diff, for patch -p1 or git apply, and change no file.")
    var diff = false

    @Option(help: ArgumentHelp(
        "Lint standard input as the book file PATH, in place of that file on disk; give '-' among the paths.",
        valueName: "PATH"
    ))
    var stdinFilename: String?

    private var request: LintRequest {
        LintRequest(paths: paths, fix: fix, diff: diff, stdinFilename: stdinFilename, basePath: basePath)
    }

    func validate() throws {
        try validateMaxDiagnostics(maxDiagnostics)
        try validating { () throws(LintUsageError) in try request.validate(isDirectory: FileChecks.isDirectory) }
    }

    func run() throws {
        keepLargeBlocksOnTheHeap()
        var options = LintOptions()
        options.paths = request.diskPaths
        options.format = format
        options.color = color
        options.strict = strict
        options.configPath = config
        options.ruleOverrides = rules
        options.stockPath = stock
        options.maxDiagnostics = maxDiagnostics
        options.basePath = basePath
        if let stdinFilename {
            options.standardInput = SourceFile(path: stdinFilename, bytes: try RecipeSources.readStandardInput())
        }
        let linter = Linter(options: options, outputIsTerminal: output == nil && isatty(STDOUT_FILENO) == 1, loader: ParallelBookLoader())
        let report = fix ? try linter.fix(diffOnly: diff) : try linter.run()
        do {
            if let output {
                var text = CollectedText()
                report.writeOutput(to: &text)
                try FileWriter.write(bytes: text.bytes, to: output)
            } else {
                let stdout = OutputBuffer.standardOutput()
                report.writeOutputLine(to: stdout)
                try stdout.finish()
            }
        } catch {
            // The counts still reach standard error, after the reason the report did not.
            throw UnwrittenReport(error, trailer: report.messages)
        }
        if !report.messages.isEmpty { OutputBuffer.standardError().line(report.messages) }
        endProcess(keeping: report, code: report.exitCode)
    }
}

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rules", abstract: "List every rule with its default severity and summary.")

    func run() throws {
        let output = OutputBuffer.standardOutput()
        output.line(Rule.catalogueTable)
        try output.finish()
    }
}

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "explain", abstract: "Explain a rule, with a wrong and a fixed example.")

    @Argument(help: "The rule id, as printed in brackets after a diagnostic.")
    var rule: String

    func run() throws {
        let explanation = try Rule.named(rule).explanation
        let output = OutputBuffer.standardOutput()
        output.line(explanation)
        try output.finish()
    }
}

struct Graph: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "graph", abstract: "Print the validated recipe graph as Mermaid or Graphviz DOT.")

    @Argument(help: "Recipe files or directories (default: recipes).")
    var paths: [String] = []

    @Option(help: "mermaid or dot.")
    var format: RecipeGraphFormat = .mermaid

    func run() throws {
        let output = OutputBuffer.standardOutput()
        try GraphRun(paths: paths, format: format, loader: ParallelBookLoader()).run(
            output: output, errors: .standardError(),
            errorsAreTerminal: isatty(STDERR_FILENO) == 1, environment: ProcessInfo.processInfo.environment
        )
        try output.finish()
    }
}

struct LanguageServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "Run the language server for recipe files, on standard input and output.",
        discussion: """
            Speaks the Language Server Protocol 3.17 over standard input and output: \
            live diagnostics across files, completion, hover, go to definition, references, \
            symbols, rename and quick fixes. Each workspace folder's recipes/ (or the folder) \
            is one book, with its .juice-lint.yaml. Standard output carries protocol messages \
            only; logs go to standard error. See docs/language-server.md.

            Exit codes:
              0  the client sent 'shutdown' before 'exit' (or before closing the input)
              1  the session ended without 'shutdown'
            """
    )

    @Option(help: "How much to log to standard error: off, error, warning, info or debug.")
    var logLevel: ServerLog.Level = .warning

    @Flag(help: "Talk over standard input and output: the only transport, accepted because editors pass it.")
    var stdio = false

    func run() throws {
        let errors = OutputBuffer.standardError()
        let log = ServerLog(level: logLevel) { errors.line($0) }
        var server = LanguageServer(files: .disk(loading: ParallelBookLoader()), log: log)
        let status = LanguageServerTransport.serve(&server, log: log)
        if status != 0 { throw ExitCode(status) }
    }
}
