/// `juice-lint graph`: compile a book and print its graph, or its errors.
public struct GraphRun {
    public var paths: [String]
    public var format: RecipeGraphFormat

    /// A graph of the book at `paths` (default `recipes`).
    public init(paths: [String], format: RecipeGraphFormat) {
        self.paths = paths.isEmpty ? ["recipes"] : paths
        self.format = format
    }

    /// Writes the graph to `output`, or the book's errors to `errors` and
    /// throws, for `JuiceCommandLine` to say why there is no graph.
    public func run(output: OutputBuffer, errors: OutputBuffer, errorsAreTerminal: Bool, environment: [String: String]) throws(LintError) {
        var loaded: RecipeSources.LoadedBook
        do {
            // An empty folder has an empty graph.
            loaded = try RecipeSources.loadWorkspace(
                paths: paths, stockPath: nil, analysis: false, book: true, keepingText: true, requireFiles: false
            )
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
