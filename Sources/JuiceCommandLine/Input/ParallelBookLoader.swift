import JuiceSource
import JuiceBook
/// The tools' book loader: discovers the files, reads each on the worker
/// that builds its unit (a big book is never all in memory as text at once,
/// and reading is spread over the cores like the rest), cuts a file too
/// large to share out evenly into pieces (`LargeFileCut`), and hands the
/// units to a workspace in path order. The result is the same as
/// `SequentialBookLoader`'s; only the threads differ, and they live here,
/// in the driver, not in the core.
public struct ParallelBookLoader: BookLoader {
    /// The total size from which files are read and built in parallel;
    /// tests set it to 0 and to `Int.max` to hold both paths equal.
    let parallelAbove: Int

    public init() {
        parallelAbove = ParallelFiles.minimumTotalBytes
    }

    init(parallelAbove: Int) {
        self.parallelAbove = parallelAbove
    }

    public func load(_ request: BookLoadRequest) throws(SourceError) -> LoadedBook {
        let files = try BookFiles(request)
        let totalBytes = files.found.reduce(0) { $0 + $1.size }
        let jobs = Self.jobs(files, cutting: totalBytes >= parallelAbove ? totalBytes : nil)
        let parallel = ParallelFiles.worthIt(files: jobs.count, totalBytes: totalBytes, parallelAbove: parallelAbove)
        var workspace = RecipeWorkspace(
            analysis: request.analysis, rulesOff: request.rulesOff, pass: request.pass, book: request.assemblesBook
        )
        var sources: [SourceFile] = []
        var failure: SourceError?
        var pieceJoin: DeclarationCollector.PieceJoin?
        let labels = request.keepsLabels, keepingText = request.keepsText
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
                    do throws(SourceError) {
                        bytes = try files.bytes(of: path)
                    } catch {
                        return .failure(error)
                    }
                    let file = SourceFile(path: path, bytes: bytes)
                    return .unit(WorkspaceUnit(bookFile: file, worker: &worker), keepingText ? file : nil)
                }
            }
        ) { outcome in
            switch outcome {
            case .failure(let error):
                failure = error
                return false
            case .unit(let unit, let source):
                workspace.load(unit)
                if let source { sources.append(source) }
            case .piece(let piece, let file, let plan):
                var current = pieceJoin.take() ?? DeclarationCollector.PieceJoin(plan: plan)
                current.add(piece)
                guard current.isComplete else {
                    pieceJoin = current
                    return true
                }
                workspace.load(WorkspaceUnit(bookFile: file, joined: current))
                if keepingText { sources.append(file) }
            }
            return true
        }
        if let failure { throw failure }
        try files.finish(&workspace, sources: &sources)
        return LoadedBook(workspace: workspace, sources: sources)
    }

    /// One worker's job: a whole file, read on the worker, or one piece of
    /// a large file read beforehand and cut by `LargeFileCut`.
    private enum LoadJob: Sendable {
        case file(String)
        case piece(SourceFile, LargeFileCut, Int)
    }

    private enum LoadOutcome: Sendable {
        case unit(WorkspaceUnit, SourceFile?)
        case piece(DeclarationCollector.Piece, SourceFile, LargeFileCut)
        case failure(SourceError)
    }

    /// A job per file, and when `cutting` (the book's total size), a job per
    /// piece of each file large enough to cut and too large for the files
    /// alone to keep the cores evenly busy: ten files of 1 MB share out well
    /// as they are, and cutting them would only add the reading up front
    /// and the joins. A large file that cannot be read here is left to its
    /// worker, which reports the failure in file order.
    private static func jobs(_ files: BookFiles, cutting totalBytes: Int?) -> [LoadJob] {
        var jobs: [LoadJob] = []
        jobs.reserveCapacity(files.found.count)
        for (path, size) in files.found {
            guard let totalBytes, size >= LargeFileCut.minimumBytes, size >= totalBytes / (2 * ParallelFiles.cores) else {
                jobs.append(.file(path))
                continue
            }
            guard let bytes = try? files.bytes(of: path), let plan = LargeFileCut(bytes: bytes, cores: ParallelFiles.cores) else {
                jobs.append(.file(path))
                continue
            }
            let file = SourceFile(path: path, bytes: bytes)
            for index in plan.pieces.indices { jobs.append(.piece(file, plan, index)) }
        }
        return jobs
    }
}
