import JuiceSource
import JuiceDiagnostics
/// Compiles recipe files into a validated `RecipeBook` in one call: the
/// batch use of the workspace's pipeline, for files already in memory.
///
/// It runs in stages: YAML documents → declarations (shape, names, amounts) →
/// resolved ingredients → cycle check → flattened needs. Each stage reports every
/// problem it can see and goes on, so one run shows all of them. The first
/// two stages need one file at a time (`WorkspaceUnit`); the units are then
/// linked in the order given (`WorkspaceSnapshot`), which is what
/// `RecipeWorkspace.snapshot()` does too. Everything here runs on the
/// caller's thread; reading files from disk, and spreading the per-file
/// stages over cores, is the driver's work (`JuiceCommandLine`'s `BookLoader`).
public enum RecipeCompiler {
    /// Compiles `files`, in the order given, and `stock`.
    ///
    /// - Parameter analysis: also run the lint analyses (`unused-fruit`,
    ///   `unused-recipe`, and with a pass `never-makeable`, `missing-stock`
    ///   and the cost rules), which only ever warn or inform. juice-lint
    ///   wants them; running orders does not.
    /// - Parameter stock: a stock file (`version` and `stock` only) whose
    ///   entries replace the book's opening stock, checked like the book's.
    /// - Parameter book: assemble the `RecipeBook`; the linter, which only
    ///   reports, leaves it out and skips that work.
    public static func compile(_ files: [SourceFile], stock: SourceFile? = nil, analysis: Bool = false, book wantsBook: Bool = true) -> Compilation {
        snapshot(files, stock: stock, analysis: analysis, book: wantsBook).compilation
    }

    /// `compile`, with `pass` run after linking (`BookAnalysisPass`: the
    /// engine's opening-stock and cost rules) when `analysis` is on.
    package static func compile(
        _ files: [SourceFile], stock: SourceFile? = nil, analysis: Bool = false, pass: (any BookAnalysisPass)?, book wantsBook: Bool = true
    ) -> Compilation {
        snapshot(files, stock: stock, analysis: analysis, pass: pass, book: wantsBook).compilation
    }

    /// `compile`, with the suppression comments and the index too: each
    /// file becomes a unit, in the order given, on this thread.
    package static func snapshot(
        _ files: [SourceFile], stock: SourceFile?, analysis: Bool, rulesOff: Set<Rule> = [], pass: (any BookAnalysisPass)? = nil,
        book wantsBook: Bool
    ) -> WorkspaceSnapshot {
        var linking = WorkspaceSnapshot.Linking()
        var worker = DeclarationCollector.Worker()
        for file in files { linking.add(WorkspaceUnit(bookFile: file, worker: &worker)) }
        return linking.finish(
            stock: stock.map(WorkspaceUnit.init(stockFile:)), analysis: analysis, rulesOff: rulesOff, pass: pass, book: wantsBook
        )
    }
}
