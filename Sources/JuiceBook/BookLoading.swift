import JuiceSource
import JuiceDiagnostics

/// What a tool asks of a book load, before anything is read: which files,
/// and what the workspace's snapshots should do with them.
public struct BookLoadRequest: Sendable {
    /// The paths as given: files, or directories searched for `*.yaml` and `*.yml`.
    public var paths: [String]
    /// A stock file whose entries replace the book's opening stock.
    public var stockPath: String?
    /// Snapshots run the lint analyses.
    public var analysis: Bool
    /// Analyses snapshots leave out, their rule being off.
    public var rulesOff: Set<Rule>
    /// Snapshots assemble the `RecipeBook`.
    public var assemblesBook: Bool
    /// Keep the labels and emoji; a lint, which reports nothing that quotes
    /// them, has them checked only.
    public var keepsLabels: Bool
    /// Hand the files' text back, for printers that quote source lines;
    /// otherwise each file's bytes are dropped once its unit is built.
    public var keepsText: Bool
    /// An empty book (no recipe files at all) is an error: a mistyped path
    /// must not pass as a clean, empty shop.
    public var requiresFiles: Bool
    /// Show every path absolute (the language server's URIs).
    public var absolutePaths: Bool
    /// A file whose text came from standard input, standing for the file at
    /// its path (`juice-lint --stdin-filename PATH -`).
    public var standardInput: SourceFile?
    /// The later layer's analyses, run after linking when `analysis` is on
    /// (`BookAnalysisPass`: the engine's opening-stock and cost rules).
    package var pass: (any BookAnalysisPass)?

    public init(
        paths: [String], stockPath: String? = nil, analysis: Bool, rulesOff: Set<Rule> = [], assemblesBook: Bool,
        keepsLabels: Bool = true, keepsText: Bool, requiresFiles: Bool = true, absolutePaths: Bool = false,
        standardInput: SourceFile? = nil
    ) {
        self.paths = paths
        self.stockPath = stockPath
        self.analysis = analysis
        self.rulesOff = rulesOff
        self.assemblesBook = assemblesBook
        self.keepsLabels = keepsLabels
        self.keepsText = keepsText
        self.requiresFiles = requiresFiles
        self.absolutePaths = absolutePaths
        self.standardInput = standardInput
    }
}

/// A workspace loaded from disk, and the files' text when it was asked for.
public struct LoadedBook: Sendable {
    /// Every book file's unit, and the stock file's.
    public var workspace: RecipeWorkspace
    /// The files' text, book files in path order then the stock file;
    /// empty unless `keepsText` was set.
    public var sources: [SourceFile]

    public init(workspace: RecipeWorkspace, sources: [SourceFile]) {
        self.workspace = workspace
        self.sources = sources
    }
}

/// How a tool gets its book: the one seam between the layers that use a
/// book and the driver that decides how files are read. The command line
/// hands in its loader (`ParallelBookLoader`: every core, a large file cut
/// in pieces); `SequentialBookLoader` is the plain one, on this thread.
/// Both give the same workspace, diagnostics and errors.
public protocol BookLoader: Sendable {
    /// Discovers, reads and loads the book `request` names.
    ///
    /// - Throws: the first file in path order that cannot be read, then an
    ///   empty book (when `requiresFiles`), then the stock file's problem.
    func load(_ request: BookLoadRequest) throws(SourceError) -> LoadedBook
}

/// Loads a book one file after another, on the caller's thread.
public struct SequentialBookLoader: BookLoader {
    public init() {}

    public func load(_ request: BookLoadRequest) throws(SourceError) -> LoadedBook {
        let files = try BookFiles(request)
        var workspace = RecipeWorkspace(analysis: request.analysis, rulesOff: request.rulesOff, pass: request.pass, book: request.assemblesBook)
        var sources: [SourceFile] = []
        var worker = DeclarationCollector.Worker()
        worker.keepsLabels = request.keepsLabels
        for (path, _) in files.found {
            let file = SourceFile(path: path, bytes: try files.bytes(of: path))
            workspace.load(WorkspaceUnit(bookFile: file, worker: &worker))
            if request.keepsText { sources.append(file) }
        }
        try files.finish(&workspace, sources: &sources)
        return LoadedBook(workspace: workspace, sources: sources)
    }
}

/// What both loaders do alike around the per-file work: find the book
/// files a request names, put standard input in the place of the file it
/// stands for, read a file's bytes, and end the load with the empty-book
/// check and the stock file.
package struct BookFiles: Sendable {
    /// Every book file's path as shown, and its size, in path order.
    package let found: [(path: String, size: Int)]
    /// Standard input, when it stands for one of `found`.
    private let piped: SourceFile?
    private let request: BookLoadRequest
    /// Standard input stands for the stock file rather than a book file.
    private let stdinIsStock: Bool

    /// Discovers the files; throws the first path that cannot be listed.
    package init(_ request: BookLoadRequest) throws(SourceError) {
        self.request = request
        var found = try RecipeSources.discoverSized(paths: request.paths)
        if request.absolutePaths { found = found.map { (RecipeSources.absolutePath($0.path), $0.size) } }
        let stdinIsStock = request.standardInput.map { input in request.stockPath.map { RecipeSources.sameFile(input.path, $0) } ?? false } ?? false
        piped = stdinIsStock ? nil : request.standardInput.map { RecipeSources.withStandardInput($0, in: &found) }
        self.found = found
        self.stdinIsStock = stdinIsStock
    }

    /// A book file's bytes: standard input's where it stands for the file,
    /// otherwise read from disk.
    package func bytes(of path: String) throws(SourceError) -> [UInt8] {
        if let piped, piped.path == path { return piped.bytes }
        return try RecipeSources.readFile(path)
    }

    /// Ends a load: no book file at all is an error when the request
    /// requires files (a mistyped path must not pass as an empty shop); then
    /// the stock file, if one is named, joins the workspace.
    package func finish(_ workspace: inout RecipeWorkspace, sources: inout [SourceFile]) throws(SourceError) {
        if request.requiresFiles && found.isEmpty { throw .noRecipeFiles(request.paths) }
        guard let stockPath = request.stockPath else { return }
        let bytes: [UInt8]
        if stdinIsStock, let standardInput = request.standardInput { bytes = standardInput.bytes } else { bytes = try RecipeSources.readFile(stockPath) }
        let stock = SourceFile(path: RecipeSources.displayPath(stockPath), bytes: bytes)
        workspace.load(WorkspaceUnit(stockFile: stock))
        if request.keepsText { sources.append(stock) }
    }
}
