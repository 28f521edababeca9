/// Compiles recipe files into a validated `RecipeBook` in one call: the
/// batch use of the workspace's pipeline, for files already in memory.
///
/// It runs in stages: YAML documents → declarations (shape, names, amounts) →
/// resolved ingredients → cycle check → flattened needs. Each stage reports every
/// problem it can see and goes on, so one run shows all of them. The first
/// two stages need one file at a time (`WorkspaceUnit`) and run on every core
/// (`ParallelFiles`); the units are then linked in the order given
/// (`WorkspaceSnapshot`), which is what `RecipeWorkspace.snapshot()` does
/// too. Reading files from disk is the input layer's work
/// (`RecipeSources.loadWorkspace`).
public enum RecipeCompiler {
    /// Compiles `files`, in the order given, and `stock`.
    ///
    /// - Parameter analysis: also run the lint analyses (`unused-fruit`,
    ///   `unused-recipe`, `never-makeable`, `missing-stock`), which only ever
    ///   warn or inform. juice-lint wants them; running orders does not.
    /// - Parameter stock: a stock file (`version` and `stock` only) whose
    ///   entries replace the book's opening stock, checked like the book's.
    /// - Parameter book: assemble the `RecipeBook`; the linter, which only
    ///   reports, leaves it out and skips that work.
    public static func compile(_ files: [SourceFile], stock: SourceFile? = nil, analysis: Bool = false, book wantsBook: Bool = true) -> Compilation {
        snapshot(files, stock: stock, analysis: analysis, book: wantsBook, parallelAbove: ParallelFiles.minimumTotalBytes).compilation
    }

    /// `compile`, with the suppression comments and the index too.
    /// `parallelAbove`: the total size from which files are composed and
    /// collected in parallel; tests set it to 0 and to `Int.max` to hold both
    /// paths equal.
    ///
    /// The files are taken over: each one's bytes are released once its unit
    /// is built, which saves the whole book's text when the caller kept no
    /// copy of its own.
    static func snapshot(
        _ files: consuming [SourceFile], stock: SourceFile?, analysis: Bool, rulesOff: Set<Rule> = [], book wantsBook: Bool,
        parallelAbove: Int
    ) -> WorkspaceSnapshot {
        let parallel = ParallelFiles.worthIt(
            files: files.count, totalBytes: files.reduce(0) { $0 + $1.bytes.count }, parallelAbove: parallelAbove
        )
        var linking = WorkspaceSnapshot.Linking()
        ParallelFiles.forEach(
            files, inParallel: parallel, worker: { DeclarationCollector.Worker() },
            work: { worker, file in WorkspaceUnit(bookFile: file, worker: &worker) }
        ) {
            linking.add($0)
            return true
        }
        return linking.finish(stock: stock.map(WorkspaceUnit.init(stockFile:)), analysis: analysis, rulesOff: rulesOff, book: wantsBook)
    }
}
