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
    /// The compiler's tables after the last use, to be freed elsewhere.
    private final class Retired: @unchecked Sendable {
        private var tables: (BookDeclarations, Linker)?

        init(_ declarations: consuming BookDeclarations, _ linker: consuming Linker) {
            tables = (declarations, linker)
        }

        /// Called once, on the one thread that frees.
        func free() { tables = nil }
    }

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

    /// `parallelAbove`: the total size from which files are read in
    /// parallel; tests set it to 0 and to `Int.max` to hold both paths equal.
    ///
    /// The files are taken over: each one's bytes are released once it is
    /// read, which saves the whole book's text when the caller kept no copy
    /// of its own.
    static func compile(
        _ files: consuming [SourceFile], stock: SourceFile?, analysis: Bool, book wantsBook: Bool, parallelAbove: Int
    ) -> Compilation {
        let totalBytes = files.reduce(0) { $0 + $1.bytes.count }
        var declarations = BookDeclarations()
        let fileCount = files.count
        ParallelFiles.forEach(
            files, parallelAbove: parallelAbove, worker: { DeclarationCollector.Worker() },
            work: { $0.collect($1) }
        ) {
            declarations.merge($0)
        }
        if let stock {
            declarations.replaceStock(with: DeclarationCollector.collectStock(file: stock))
        }
        var linker = Linker(declarations: declarations)
        let book = linker.link(analysis: analysis, assemble: wantsBook)
        let diagnostics = declarations.diagnostics + linker.diagnostics
        if totalBytes >= parallelAbove {
            // A big book's tables hold hundreds of thousands of strings and
            // take milliseconds to free; another thread frees them while the
            // report is written (clang's -disable-free does likewise).
            let retired = Retired(consume declarations, consume linker)
            DispatchQueue.global().async { retired.free() }
        }
        return Compilation(
            book: diagnostics.containsErrors ? nil : book,
            diagnostics: Diagnostic.sortedForOutput(diagnostics),
            fileCount: fileCount + (stock == nil ? 0 : 1)
        )
    }
}

