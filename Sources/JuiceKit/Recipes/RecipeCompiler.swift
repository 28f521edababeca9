import Dispatch

/// Compiles recipe files into a validated `RecipeBook`.
///
/// It runs in stages: YAML documents → declarations (shape, names, amounts) →
/// resolved ingredients → cycle check → flattened needs. Each stage reports every
/// problem it can see and goes on, so one run shows all of them. The first
/// two stages need one file at a time and run on every core
/// (`ParallelFiles`); the files' declarations are then merged in order
/// (`BookDeclarations`) and everything after that sees the whole book.
public enum RecipeCompiler {
    /// - Parameter analysis: also run the lint analyses (`unused-fruit`,
    ///   `unused-recipe`, `never-makeable`, `missing-stock`), which only ever
    ///   warn or inform. juice-lint wants them; running orders does not.
    /// - Parameter stock: a stock file (`version` and `stock` only) whose
    ///   entries replace the book's opening stock, checked like the book's.
    /// - Parameter book: assemble the `RecipeBook`; the linter, which only
    ///   reports, leaves it out and skips that work.
    public static func compile(_ files: [SourceFile], stock: SourceFile? = nil, analysis: Bool = false, book wantsBook: Bool = true) -> Compilation {
        compile(files, stock: stock, analysis: analysis, book: wantsBook, parallelAbove: ParallelFiles.minimumTotalBytes)
    }

    /// `parallelAbove`: the total size from which files are composed and
    /// collected in parallel; tests set it to 0 and to `Int.max` to hold both
    /// paths equal.
    ///
    /// The files are taken over: each one's bytes are released once it is
    /// compiled, which saves the whole book's text when the caller kept no
    /// copy of its own.
    static func compile(
        _ files: consuming [SourceFile], stock: SourceFile?, analysis: Bool, book wantsBook: Bool, parallelAbove: Int
    ) -> Compilation {
        let fileCount = files.count
        let parallel = ParallelFiles.worthIt(
            files: fileCount, totalBytes: files.reduce(0) { $0 + $1.bytes.count }, parallelAbove: parallelAbove
        )
        var declarations = BookDeclarations()
        ParallelFiles.forEach(
            files, inParallel: parallel, worker: { DeclarationCollector.Worker() }, work: { $0.collect($1) }
        ) {
            declarations.merge($0)
            return true
        }
        return link(take(&declarations), stock: stock, analysis: analysis, book: wantsBook, fileCount: fileCount, big: parallel)
    }

    /// What `compile(reading:)` gives: the compilation, each file's `inspect`
    /// result (book files in order, then the stock file), and the files' text
    /// when it was asked for.
    struct ReadCompilation<Inspection: Sendable> {
        var compilation: Compilation
        var inspections: [Inspection]
        var sources: [SourceFile]
    }

    /// Compiles the book files at `paths`, reading each on the worker that
    /// compiles it, so a big book is never all in memory as text at once and
    /// reading is spread over the cores like the rest. `sizes` (from
    /// discovery) decide whether to go parallel.
    ///
    /// - Parameter inspect: also run on each file's bytes while they are at
    ///   hand (`juice-lint` finds its suppression comments so).
    /// - Parameter keepingText: hand the files' text back, for printers that
    ///   quote source lines.
    /// - Throws: the first file in path order that cannot be read, then the
    ///   stock file's problem: the order in which `RecipeSources.loadBook`
    ///   reads them.
    static func compile<Inspection: Sendable>(
        reading paths: [String], sizes: [Int], stockPath: String?, analysis: Bool, book wantsBook: Bool,
        keepingText: Bool, parallelAbove: Int = ParallelFiles.minimumTotalBytes,
        inspect: @escaping @Sendable (SourceFile) -> Inspection
    ) throws(SourceError) -> ReadCompilation<Inspection> {
        typealias Outcome = Result<(DeclarationCollector, Inspection, SourceFile?), SourceError>
        let parallel = ParallelFiles.worthIt(files: paths.count, totalBytes: sizes.reduce(0, +), parallelAbove: parallelAbove)
        var declarations = BookDeclarations()
        var inspections: [Inspection] = []
        var sources: [SourceFile] = []
        var failure: SourceError?
        ParallelFiles.forEach(
            paths, inParallel: parallel, worker: { DeclarationCollector.Worker() },
            work: { worker, path -> Outcome in
                let bytes: [UInt8]
                do throws(SourceError) {
                    bytes = try RecipeSources.readFile(path)
                } catch {
                    return .failure(error)
                }
                let file = SourceFile(path: path, bytes: bytes)
                let inspection = inspect(file)
                return .success((worker.collect(file), inspection, keepingText ? file : nil))
            }
        ) { outcome in
            switch outcome {
            case .failure(let error):
                failure = error
                return false
            case .success(let (collector, inspection, source)):
                declarations.merge(collector)
                inspections.append(inspection)
                if let source { sources.append(source) }
                return true
            }
        }
        if let failure { throw failure }
        let stock = try stockPath.map { path throws(SourceError) in
            SourceFile(path: RecipeSources.displayPath(path), bytes: try RecipeSources.readFile(path))
        }
        if let stock {
            inspections.append(inspect(stock))
            if keepingText { sources.append(stock) }
        }
        let compilation = link(
            take(&declarations), stock: stock, analysis: analysis, book: wantsBook, fileCount: paths.count, big: parallel
        )
        return ReadCompilation(compilation: compilation, inspections: inspections, sources: sources)
    }

    /// The merged tables, leaving empty ones behind: the merge closure still
    /// holds the variable, and `link` must own the only reference so that the
    /// thread it hands the tables to is the one that frees them.
    private static func take(_ declarations: inout BookDeclarations) -> BookDeclarations {
        var taken = BookDeclarations()
        swap(&taken, &declarations)
        return taken
    }

    /// Everything after the files' own work: the stock file, the linker, the
    /// sorted diagnostics.
    private static func link(
        _ declarations: consuming BookDeclarations, stock: SourceFile?, analysis: Bool, book wantsBook: Bool,
        fileCount: Int, big: Bool
    ) -> Compilation {
        if let stock {
            declarations.replaceStock(with: DeclarationCollector.collectStock(file: stock))
        }
        var linker = Linker(declarations: copy declarations)
        let book = linker.link(analysis: analysis, assemble: wantsBook)
        let diagnostics = declarations.diagnostics + linker.diagnostics
        let coverage = linker.coverage
        // A big book's tables hold hundreds of thousands of strings and take
        // milliseconds to free; another thread frees them while the report is
        // written (clang's -disable-free does likewise). Nothing here keeps a
        // reference, so that thread's release is the last.
        let retired = Retired(consume declarations, consume linker)
        if big {
            DispatchQueue.global().async { retired.free() }
        } else {
            retired.free()
        }
        return Compilation(
            book: diagnostics.containsErrors ? nil : book,
            diagnostics: Diagnostic.sortedForOutput(diagnostics),
            fileCount: fileCount + (stock == nil ? 0 : 1),
            coverage: coverage
        )
    }

    /// The compiler's tables after the last use, to be freed elsewhere.
    ///
    /// Unchecked `Sendable`: the tables are moved in before the box is handed
    /// to another thread, and `free()`, called once there, is the only access
    /// after that.
    private final class Retired: @unchecked Sendable {
        private var tables: (BookDeclarations, Linker)?

        init(_ declarations: consuming BookDeclarations, _ linker: consuming Linker) {
            tables = (declarations, linker)
        }

        /// Called once, on the one thread that frees.
        func free() { tables = nil }
    }
}
