/// Compiles recipe files into a validated `RecipeBook`.
///
/// It runs in stages: YAML documents → declarations (shape, names, amounts) →
/// resolved ingredients → cycle check → flattened needs. Each stage reports every
/// problem it can see and goes on, so one run shows all of them.
public enum RecipeCompiler {
    /// - Parameter analysis: also run the lint analyses (`unused-fruit`,
    ///   `unused-recipe`, `never-makeable`, `missing-stock`), which only ever
    ///   warn or inform. juice-lint wants them; running orders does not.
    /// - Parameter stock: a stock file (`version` and `stock` only) whose
    ///   entries replace the book's opening stock, checked like the book's.
    /// - Parameter book: assemble the `RecipeBook`; the linter, which only
    ///   reports, leaves it out and skips that work.
    public static func compile(_ files: [SourceFile], stock: SourceFile? = nil, analysis: Bool = false, book wantsBook: Bool = true) -> Compilation {
        compile(files, stock: stock, analysis: analysis, book: wantsBook, parallelAbove: ParallelComposer.minimumTotalBytes)
    }

    /// `parallelAbove`: the total size from which files are composed in
    /// parallel; tests set it to 0 and to `Int.max` to hold both paths equal.
    ///
    /// The files are taken over: each one's bytes are released once it is
    /// composed, which saves the whole book's text when the caller kept no
    /// copy of its own.
    static func compile(
        _ files: consuming [SourceFile], stock: SourceFile?, analysis: Bool, book wantsBook: Bool, parallelAbove: Int
    ) -> Compilation {
        var collector = DeclarationCollector()
        var files = files
        let fileCount = files.count
        ParallelComposer.forEach(releasing: &files, parallelAbove: parallelAbove) { composed in
            collector.diagnostics += composed.diagnostics
            for document in composed.documents {
                collector.collect(document)
            }
        }
        if let stock {
            let composed = YAMLComposer.compose(bytes: stock.bytes, file: stock.path)
            collector.diagnostics += composed.diagnostics
            collector.replaceStock(with: composed.documents)
        }
        var linker = Linker(declarations: collector)
        let book = linker.link(analysis: analysis, assemble: wantsBook)
        let diagnostics = collector.diagnostics + linker.diagnostics
        return Compilation(
            book: diagnostics.containsErrors ? nil : book,
            diagnostics: Diagnostic.sortedForOutput(diagnostics),
            fileCount: fileCount + (stock == nil ? 0 : 1)
        )
    }
}
