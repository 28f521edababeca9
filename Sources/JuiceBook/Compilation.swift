import JuiceDiagnostics
/// What compiling a book produced: every diagnostic, and the book when there
/// were no errors. A `WorkspaceSnapshot` makes it, whether for a workspace
/// or for a one-call `RecipeCompiler.compile`.
public struct Compilation: Sendable {
    /// Nil whenever any diagnostic is an error: no graph is built from an invalid book.
    public let book: RecipeBook?
    /// Sorted for output: path, line, column.
    public let diagnostics: [Diagnostic]
    /// The files linked: book files and the stock file, if any.
    public let fileCount: Int
    /// Which part of the book each lint check looked at, so that a
    /// suppression is judged only where its rule ran.
    public let coverage: CheckCoverage
}
