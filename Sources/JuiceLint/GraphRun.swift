@_spi(Internals) import JuiceSupport
import JuiceDiagnostics
import JuiceBook
/// `juice-lint graph`: compile a book and print its graph, or its errors.
public struct GraphRun {
    public var paths: [String]
    public var format: RecipeGraphFormat

    /// How the book is read: the command line hands in its parallel loader.
    public var loader: any BookLoader

    /// A graph of the book at `paths` (default `recipes`).
    public init(paths: [String], format: RecipeGraphFormat, loader: any BookLoader = SequentialBookLoader()) {
        self.paths = paths.isEmpty ? ["recipes"] : paths
        self.format = format
        self.loader = loader
    }

    /// Writes the graph to `output`, or the book's errors to `errors` and
    /// throws, for `JuiceCommandLine` to say why there is no graph.
    public func run(output: OutputBuffer, errors: OutputBuffer, errorsAreTerminal: Bool, environment: [String: String]) throws(LintError) {
        var loaded: LoadedBook
        do {
            // An empty folder has an empty graph.
            loaded = try loader.load(BookLoadRequest(
                paths: paths, analysis: false, assemblesBook: true, keepsText: true, requiresFiles: false
            ))
        } catch {
            throw .source(error)
        }
        let files = loaded.sources
        let compilation = loaded.workspace.snapshot().compilation
        guard let book = compilation.book else {
            let color = TerminalColor.shouldColor(flag: .auto, isTerminal: errorsAreTerminal, environment: environment)
            let printer = HumanDiagnosticPrinter(files: files, color: color)
            for diagnostic in compilation.diagnostics where diagnostic.severity == .error {
                errors.line(printer.render(diagnostic))
            }
            throw .invalidBookHasNoGraph
        }
        output.write(RecipeGraph.render(book, format: format))
        output.flush()
    }
}
