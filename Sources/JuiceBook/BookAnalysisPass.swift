import JuiceDiagnostics
/// A lint analysis that a later layer makes after linking, from what the
/// link left for it (`LinkFacts`).
///
/// The opening-stock and cost rules (`never-makeable`, `missing-stock`,
/// `price-below-cost`, `missing-cost`, `cost-too-large`) ask what an order
/// takes and what a serving costs, which is the engine's to say; the book
/// cannot import the engine, so the engine's pass (`OpeningStockAnalysis`)
/// is handed to whoever links (`RecipeWorkspace`, `RecipeCompiler`,
/// `BookLoadRequest.pass`), and `WorkspaceSnapshot` calls it once the
/// linker is done. Without one, those rules are not judged, and
/// `CheckCoverage` says so.
package protocol BookAnalysisPass: Sendable {
    /// Appends what the pass finds about `link` to `diagnostics`, in the
    /// order they are found, and records in `coverage` where it did not
    /// judge (`CheckCoverage.skip`, `restrict`). Rules in `link.rulesOff`
    /// are not judged.
    func analyse(_ link: LinkFacts, into diagnostics: inout [Diagnostic], coverage: inout CheckCoverage)
}

