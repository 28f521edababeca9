import JuiceSource
import JuiceDiagnostics
import JuiceBook
import JuiceEngine
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One lint run: configuration, load, compile, rule levels, suppressions,
/// render. The executable only parses arguments, calls this, and writes.
public struct Linter: Sendable {
    public var options: LintOptions
    public var environment: [String: String]
    /// Whether the report goes to a terminal, for `--color auto`.
    public var outputIsTerminal: Bool
    /// How the book is read: the command line hands in its parallel loader.
    public var loader: any BookLoader

    /// A run with these options; `outputIsTerminal` decides `--color auto`.
    public init(
        options: LintOptions, environment: [String: String] = ProcessInfo.processInfo.environment, outputIsTerminal: Bool = false,
        loader: any BookLoader = SequentialBookLoader()
    ) {
        self.options = options
        self.environment = environment
        self.outputIsTerminal = outputIsTerminal
        self.loader = loader
    }

    /// Lints the paths and makes the report, which is rendered as it is
    /// written; reading files is the only I/O.
    /// A configuration or a path that is wrong throws, for `JuiceCommandLine` to report.
    public func run() throws(LintError) -> Report {
        let configuration = try runConfiguration()
        let paths = bookPaths
        // Only the text format keeps the files' text, to quote source lines.
        let keepingText = if case .text = options.format.resolved(environment: environment) { true } else { false }
        var loaded: LoadedBook
        do throws(SourceError) {
            var request = BookLoadRequest(
                paths: paths, stockPath: options.stockPath, analysis: true, rulesOff: configuration.rulesOff, assemblesBook: false,
                keepsLabels: false, keepsText: keepingText, standardInput: options.standardInput
            )
            // The opening-stock and cost rules ask the engine, after linking.
            request.pass = OpeningStockAnalysis()
            loaded = try loader.load(request)
        } catch {
            throw .source(error)
        }
        let snapshot = loaded.workspace.snapshot()
        let fileCount = snapshot.compilation.fileCount
        let sources = loaded.sources
        let diagnostics = configuration.finish(snapshot)
        let counts = DiagnosticCounts(files: fileCount, diagnostics: diagnostics)
        let messages = HumanDiagnosticPrinter.summary(counts)
        let failed = counts.errors > 0 || (options.strict && counts.warnings > 0)
        var made = Report(
            body: .diagnostics(report(diagnostics, counts: counts, files: sources)),
            messages: messages,
            exitCode: failed ? .failure : .success,
            counts: counts
        )
        made.loaded = (loaded, snapshot)
        return made
    }

    /// Compiles the files and applies rule levels and suppression comments:
    /// `run` without the file system, for files already in memory.
    public static func check(_ files: [SourceFile], stock: SourceFile? = nil, configuration: LintConfiguration) -> [Diagnostic] {
        let snapshot = RecipeCompiler.snapshot(
            files, stock: stock, analysis: true, rulesOff: configuration.rulesOff, pass: OpeningStockAnalysis(), book: false
        )
        return configuration.finish(snapshot)
    }

    /// The paths that make the book: those given, or `recipes`.
    var bookPaths: [String] { options.paths.isEmpty ? ["recipes"] : options.paths }

    /// The configuration for a run (the file, then each `--rule`), or the
    /// reason it cannot be had, as the error that ends the command.
    func runConfiguration() throws(LintError) -> LintConfiguration {
        do {
            return try loadConfiguration()
        } catch {
            throw .configuration(error)
        }
    }

    func loadConfiguration() throws(ConfigurationError) -> LintConfiguration {
        var configuration = LintConfiguration()
        let path = options.configPath ?? LintConfiguration.defaultFileName
        if options.configPath != nil || FileManager.default.fileExists(atPath: path) {
            let bytes: [UInt8]
            do {
                bytes = try RecipeSources.readFile(path)
            } catch {
                throw ConfigurationError("configuration: \(error)")
            }
            configuration = try LintConfiguration.parse(bytes, path: RecipeSources.displayPath(path))
        }
        for assignment in options.ruleOverrides {
            try configuration.override(assignment)
        }
        return configuration
    }

    private func report(_ diagnostics: [Diagnostic], counts: DiagnosticCounts, files: [SourceFile]) -> DiagnosticReport {
        let format = options.format.resolved(environment: environment)
        let (shown, omitted) = DiagnosticLimit(requested: options.maxDiagnostics, format: format).select(diagnostics)
        let printer: DiagnosticReport.Printer
        switch format {
        case .auto, .text:
            let color = TerminalColor.shouldColor(flag: options.color, isTerminal: outputIsTerminal, environment: environment)
            // Only the files a shown diagnostic quotes are split into lines:
            // a clean 15 MB book spent a tenth of its run on that for nothing.
            var quoted = Set<String>()
            for diagnostic in shown {
                quoted.insert(diagnostic.range.file)
                for note in diagnostic.notes { quoted.insert(note.range.file) }
            }
            printer = .text(HumanDiagnosticPrinter(files: files.filter { quoted.contains($0.path) }, color: color))
        case .json:
            printer = .json(counts)
        case .github:
            printer = .github(sourceRoot())
        case .sarif:
            printer = .sarif(sourceRoot())
        }
        return DiagnosticReport(shown, omitted: omitted, printer: printer)
    }

    /// What the CI formats' paths are relative to; only they ask, so the
    /// other formats never look for a git work tree.
    func sourceRoot() -> SourceRoot {
        SourceRoot.resolving(options.basePath, workingDirectory: FileManager.default.currentDirectoryPath)
    }
}
