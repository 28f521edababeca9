import ArgumentParser
import Foundation
import JuiceCommandLine
import JuiceKit

enum RunFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}

/// Replays orders against a recipe book's stock. Everything it does lives in
/// `JuiceKit`; this only parses arguments and wires streams.
@main
struct JuiceRun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "juice-run",
        abstract: "Simulate juice orders against the opening stock of a recipe book.",
        discussion: """
            The order script has one command per line:
              MENU-ID            one order
              MENU-ID xN         N orders, each all fruit or none (N up to \(ScriptParser.maxRepeat))
              restock FRUIT N    add N (at least 1) of FRUIT
            '#' starts a comment; blank lines are skipped.

            Exit codes:
              0  the script ran (refusals for lack of fruit are outcomes, not errors)
              1  the book is invalid, or a script line was skipped
              2  bad usage, or a path that does not exist or cannot be read
            """
    )

    @Option(name: .customLong("recipes"), help: ArgumentHelp("A recipe directory or file; repeatable.", valueName: "DIR"))
    var recipePaths: [String] = []

    @Option(help: "Output format: text or json (JSON Lines).")
    var format: RunFormat = .text

    @Argument(help: ArgumentHelp("The order script, or - for standard input (the default).", valueName: "SCRIPT"))
    var script: String?

    func run() throws {
        let errors = OutputBuffer.standardError()
        let files: [SourceFile]
        let paths = recipePaths.isEmpty ? ["recipes"] : recipePaths
        do {
            files = try RecipeSources.load(paths: paths)
        } catch {
            errors.line("juice-run: error: \(error)")
            throw ExitCode(ToolExitCode.usage.rawValue)
        }
        if files.isEmpty {
            errors.line("juice-run: error: no *.yaml or *.yml files under " + paths.map { "'\($0)'" }.joined(separator: ", "))
            throw ExitCode(ToolExitCode.usage.rawValue)
        }
        let compilation = RecipeCompiler.compile(files)
        // Warnings and infos are juice-lint's business; a run reports what stops it.
        let printer = HumanDiagnosticPrinter(
            files: files,
            color: TerminalColor.shouldColor(flag: .auto, isTerminal: isatty(STDERR_FILENO) == 1, environment: ProcessInfo.processInfo.environment)
        )
        for diagnostic in compilation.diagnostics where diagnostic.severity == .error {
            errors.line(printer.render(diagnostic))
        }
        guard let book = compilation.book else {
            errors.line("juice-run: error: the recipe book is invalid; run juice-lint for details")
            throw ExitCode(ToolExitCode.failure.rawValue)
        }

        let scriptName = script ?? "-"
        let descriptor: Int32
        if scriptName == "-" {
            descriptor = STDIN_FILENO
            if isatty(STDIN_FILENO) == 1 {
                errors.line("juice-run: reading orders from standard input; end with Ctrl-D")
            }
        } else {
            descriptor = open(scriptName, O_RDONLY)
            var info = stat()
            if descriptor >= 0, fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                close(descriptor)
                errors.line("juice-run: error: cannot read '\(scriptName)': it is a directory")
                throw ExitCode(ToolExitCode.usage.rawValue)
            }
            guard descriptor >= 0 else {
                let reason = errno == ENOENT ? "no such file or directory: '\(scriptName)'" : "cannot read '\(scriptName)': \(String(cString: strerror(errno)))"
                errors.line("juice-run: error: \(reason)")
                throw ExitCode(ToolExitCode.usage.rawValue)
            }
        }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        let displayName = scriptName == "-" ? "<stdin>" : RecipeSources.displayPath(scriptName)

        let output = OutputBuffer.standardOutput()
        let summary: SimulationSummary
        do {
            switch format {
            case .text:
                summary = try replay(descriptor, TextSimulationReporter(book: book, output: output, errors: errors), book, displayName)
            case .json:
                summary = try replay(descriptor, JSONLinesSimulationReporter(book: book, output: output, errors: errors), book, displayName)
            }
        } catch {
            output.flush()
            errors.line("juice-run: error: cannot read '\(displayName)': \(error)")
            throw ExitCode(ToolExitCode.usage.rawValue)
        }
        if summary.skippedLines > 0 { throw ExitCode(ToolExitCode.failure.rawValue) }
    }

    private func replay<R: SimulationReporter>(_ descriptor: Int32, _ reporter: R, _ book: RecipeBook, _ file: String) throws -> SimulationSummary {
        var simulation = Simulation(book: book, file: file, reporter: reporter)
        var reader = LineReader(descriptor: descriptor)
        try reader.forEachLine { bytes, number in
            simulation.run(line: String(decoding: bytes, as: UTF8.self), number: number)
        }
        return simulation.finish()
    }

    static func main() { mainWithMappedExitCodes() }
}
