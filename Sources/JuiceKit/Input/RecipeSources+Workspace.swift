/// The one way both tools load a book: discover, read and build units on
/// every core, and hand them to a workspace.
extension RecipeSources {
    /// A workspace loaded from disk, and the files' text when it was asked for.
    public struct LoadedBook: Sendable {
        /// Every book file's unit, and the stock file's.
        public var workspace: RecipeWorkspace
        /// The files' text, book files in path order then the stock file;
        /// empty unless `keepingText` was set.
        public var sources: [SourceFile]
    }

    /// Discovers the book files under `paths`, reads each on the worker that
    /// builds its unit (a big book is never all in memory as text at once,
    /// and reading is spread over the cores like the rest), reads the stock
    /// file, and loads every unit into a workspace.
    ///
    /// - Parameter analysis: snapshots run the lint analyses.
    /// - Parameter rulesOff: analyses snapshots leave out, their rule being off.
    /// - Parameter book: snapshots assemble the `RecipeBook`.
    /// - Parameter labels: keep the labels and emoji; a lint, which reports
    ///   nothing that quotes them, has them checked only.
    /// - Parameter keepingText: hand the files' text back, for printers that
    ///   quote source lines; otherwise each file's bytes are dropped once its
    ///   unit is built.
    /// - Parameter requireFiles: an empty book (no recipe files at all) is an
    ///   error: a mistyped path must not pass as a clean, empty shop.
    /// - Throws: the first file in path order that cannot be read, then an
    ///   empty book, then the stock file's problem.
    ///
    /// The workspace keeps every unit, which costs about 14 MB more at the
    /// peak on the 100,000-item benchmark book than merging and dropping
    /// them did (95 MB against 80 MB, under the 100 MB goal): the price of a
    /// workspace that can take the next edit.
    public static func loadWorkspace(
        paths: [String], stockPath: String?, analysis: Bool, rulesOff: Set<Rule> = [], book wantsBook: Bool,
        labels: Bool = true, keepingText: Bool, requireFiles: Bool = true, absolutePaths: Bool = false,
        standardInput: SourceFile? = nil
    ) throws(SourceError) -> LoadedBook {
        try loadWorkspace(
            paths: paths, stockPath: stockPath, analysis: analysis, rulesOff: rulesOff, book: wantsBook, labels: labels,
            keepingText: keepingText, requireFiles: requireFiles, parallelAbove: ParallelFiles.minimumTotalBytes,
            absolutePaths: absolutePaths, standardInput: standardInput
        )
    }

    /// `parallelAbove`: the total size from which files are read and built in
    /// parallel; tests set it to 0 and to `Int.max` to hold both paths equal.
    static func loadWorkspace(
        paths: [String], stockPath: String?, analysis: Bool, rulesOff: Set<Rule> = [], book wantsBook: Bool,
        labels: Bool = true, keepingText: Bool, requireFiles: Bool, parallelAbove: Int, absolutePaths: Bool = false,
        standardInput: SourceFile? = nil
    ) throws(SourceError) -> LoadedBook {
        var found = try discoverSized(paths: paths)
        if absolutePaths { found = found.map { (absolutePath($0.path), $0.size) } }
        // Standard input named as the stock file stands for the stock file,
        // not for another book file beside it.
        let stdinIsStock = standardInput.map { input in stockPath.map { sameFile(input.path, $0) } ?? false } ?? false
        let piped = stdinIsStock ? nil : standardInput.map { withStandardInput($0, in: &found) }
        let totalBytes = found.reduce(0) { $0 + $1.size }
        let jobs = Self.jobs(found, piped: piped, cutting: totalBytes >= parallelAbove ? totalBytes : nil)
        let parallel = ParallelFiles.worthIt(files: jobs.count, totalBytes: totalBytes, parallelAbove: parallelAbove)
        var workspace = RecipeWorkspace(analysis: analysis, rulesOff: rulesOff, book: wantsBook)
        var sources: [SourceFile] = []
        var failure: SourceError?
        var joining: DeclarationCollector.Joining?
        var forecast = IDForecast(totalBytes: totalBytes)
        ParallelFiles.forEach(
            jobs, inParallel: parallel, worker: {
                var worker = DeclarationCollector.Worker()
                worker.keepsLabels = labels
                return worker
            },
            work: { worker, job -> LoadOutcome in
                switch job {
                case .piece(let file, let plan, let index):
                    return .piece(worker.collect(piece: index, of: plan, in: file), file, plan)
                case .file(let path):
                    let bytes: [UInt8]
                    if let piped, path == piped.path {
                        bytes = piped.bytes
                    } else {
                        do throws(SourceError) {
                            bytes = try readFile(path)
                        } catch {
                            return .failure(error)
                        }
                    }
                    let file = SourceFile(path: path, bytes: bytes)
                    return .unit(WorkspaceUnit(bookFile: file, worker: &worker), keepingText ? file : nil, bytes: bytes.count)
                }
            }
        ) { outcome in
            switch outcome {
            case .failure(let error):
                failure = error
                return false
            case .unit(let unit, let source, let bytes):
                workspace.load(unit)
                if let ids = forecast.add(bytes: bytes, ids: unit.parts.reduce(0) { $0 + $1.declarations.count }) {
                    workspace.expect(ids: ids)
                }
                if let source { sources.append(source) }
            case .piece(let piece, let file, let plan):
                var current = joining.take() ?? DeclarationCollector.Joining(plan: plan)
                let fitted = current.fits
                current.add(piece)
                if current.fits {
                    workspace.mergeAhead(piece.collector, of: file.path)
                    let bytes = plan.pieces[current.count - 1].bytes.count
                    if let ids = forecast.add(bytes: bytes, ids: piece.collector.declarations.count) { workspace.expect(ids: ids) }
                } else if fitted {
                    workspace.forgetMergedAhead()
                }
                guard current.isComplete else {
                    joining = current
                    return true
                }
                workspace.load(WorkspaceUnit(bookFile: file, joined: current))
                if keepingText { sources.append(file) }
            }
            return true
        }
        if let failure { throw failure }
        if requireFiles && found.isEmpty { throw .noRecipeFiles(paths) }
        if let stockPath {
            let bytes: [UInt8]
            if stdinIsStock, let standardInput { bytes = standardInput.bytes } else { bytes = try readFile(stockPath) }
            let stock = SourceFile(path: displayPath(stockPath), bytes: bytes)
            workspace.load(WorkspaceUnit(stockFile: stock))
            if keepingText { sources.append(stock) }
        }
        return LoadedBook(workspace: workspace, sources: sources)
    }

    /// One worker's job: a whole file, read on the worker, or one piece of
    /// a large file read beforehand and cut by `BookFilePieces`.
    private enum LoadJob: Sendable {
        case file(String)
        case piece(SourceFile, BookFilePieces, Int)
    }

    private enum LoadOutcome: Sendable {
        case unit(WorkspaceUnit, SourceFile?, bytes: Int)
        case piece(DeclarationCollector.Piece, SourceFile, BookFilePieces)
        case failure(SourceError)
    }

    /// How many ids the book will hold, judged once an eighth of its bytes
    /// were merged: the book's namespace (`BookDeclarations.expect(ids:)`)
    /// is then made at about its size. Growing it by doubling rehashed it
    /// three more times on the 100,000-item books, each into fresh pages,
    /// on the thread that merges while the workers read. Judged once only,
    /// and never above four times the ids so far: a book whose first files
    /// are dense (a catalogue of fruits) must not reserve for nothing.
    private struct IDForecast {
        let totalBytes: Int
        private var bytes = 0
        private var ids = 0
        private var judged = false

        init(totalBytes: Int) {
            self.totalBytes = totalBytes
        }

        /// Counts a merged file or piece; the forecast, the first time an
        /// eighth of the book is in.
        mutating func add(bytes more: Int, ids moreIDs: Int) -> Int? {
            bytes += more
            ids += moreIDs
            guard !judged, bytes >= totalBytes / 8, ids >= Self.smallest else { return nil }
            judged = true
            let (limit, overflow) = ids.multipliedReportingOverflow(by: 4)
            return Forecast.whole(ids, in: bytes, of: totalBytes, limit: overflow ? ids : limit)
        }

        /// Below this many ids, growing costs too little to judge.
        static let smallest = 4096
    }

    /// A job per file, and when `cutting` (the book's total size), a job per
    /// piece of each file large enough to cut and too large for the files
    /// alone to keep the cores evenly busy: ten files of 1 MB share out well
    /// as they are, and cutting them would only add the reading up front
    /// and the joins. A large file that cannot be read here is left to its
    /// worker, which reports the failure in file order.
    private static func jobs(_ found: [(path: String, size: Int)], piped: SourceFile?, cutting totalBytes: Int?) -> [LoadJob] {
        var jobs: [LoadJob] = []
        jobs.reserveCapacity(found.count)
        for (path, size) in found {
            guard let totalBytes, size >= BookFilePieces.minimumBytes, size >= totalBytes / (2 * ParallelFiles.cores) else {
                jobs.append(.file(path))
                continue
            }
            let bytes: [UInt8]?
            if let piped, path == piped.path { bytes = piped.bytes } else { bytes = try? readFile(path) }
            guard let bytes, let plan = BookFilePieces(bytes: bytes, cores: ParallelFiles.cores) else {
                jobs.append(.file(path))
                continue
            }
            let file = SourceFile(path: path, bytes: bytes)
            for index in plan.pieces.indices { jobs.append(.piece(file, plan, index)) }
        }
        return jobs
    }
}
