@_spi(Internals) import JuiceSupport
import JuiceDiagnostics
/// The whole book as of one moment: every file's unit linked together.
///
/// This is the one place where files meet. Units are merged in order (the
/// first declaration of an id stands), then the linker resolves names,
/// checks cycles, flattens needs and, when asked, runs the lint analyses.
/// A batch compile and a workspace both end here, so the two cannot drift
/// apart.
public struct WorkspaceSnapshot: Sendable {
    /// Every diagnostic, sorted for output, the book when there were no
    /// errors, and what each lint check covered.
    public let compilation: Compilation
    /// Every suppression comment: book files in order, then the stock file.
    public let suppressions: [Suppression]
    /// The units linked, book files in order, then the stock file.
    let units: [WorkspaceUnit]
    /// The "did you mean" index the link built, if it met an unknown name:
    /// the next link reuses it while the ids stay the same.
    let suggestions: SuggestionIndex?
    /// The merged declarations the link read, kept as long as the snapshot
    /// rather than freed as the link ends: freeing them, a blend's
    /// strings at a time, was the link's last 1.8 ms on lint-deep and 2.5 ms
    /// on lint-clean (clock stamps), with the other core idle, while a lint
    /// run keeps its snapshot to the end and exits without freeing it. A
    /// workspace frees them when its next snapshot replaces this one: the
    /// language server holds them between edits (under 2 MB per 10,000
    /// items) and frees them in the next edit, in place of freeing them
    /// in the edit that made them.
    private let linkedDeclarations: BookDeclarations

    /// Every diagnostic, sorted for output: path, line, column.
    public var diagnostics: [Diagnostic] { compilation.diagnostics }
    /// The validated book; nil when any diagnostic is an error, or when the
    /// workspace was made not to assemble one (the linter only reports).
    public var book: RecipeBook? { compilation.book }
    /// Which part of the book each lint check looked at.
    public var coverage: CheckCoverage { compilation.coverage }

    /// What every id names and where it is used, for queries such as
    /// go-to-definition. Built from the units on each access: a batch run
    /// that never asks does not pay for it, so keep the value if you query
    /// it often.
    public var index: WorkspaceIndex { WorkspaceIndex(units: units, book: book) }

    /// Links `units`, book files in the order given, with `stock` replacing
    /// the book's opening stock.
    ///
    /// - Parameter analysis: also run the lint analyses (`unused-fruit`,
    ///   `unused-recipe`, and with a pass `never-makeable`, `missing-stock`
    ///   and the cost rules), which only ever warn or inform. juice-lint
    ///   wants them; running orders does not.
    /// - Parameter rulesOff: analyses not to run, because their rule is off.
    /// - Parameter pass: the later layer's analyses, run after linking
    ///   (`BookAnalysisPass`); without one, their rules are not judged.
    /// - Parameter book: assemble the `RecipeBook`; the linter, which only
    ///   reports, leaves it out and skips that work.
    init(
        units: [WorkspaceUnit], stock: WorkspaceUnit?, analysis: Bool, rulesOff: Set<Rule> = [], pass: (any BookAnalysisPass)? = nil,
        book wantsBook: Bool, reusing suggestions: SuggestionIndex? = nil
    ) {
        var linking = Linking()
        linking.expect(ids: units.reduce(0) { total, unit in unit.parts.reduce(total) { $0 + $1.declarations.count } })
        for unit in units { linking.add(unit) }
        self = linking.finish(stock: stock, analysis: analysis, rulesOff: rulesOff, pass: pass, book: wantsBook, reusing: suggestions)
    }

    private init(
        compilation: Compilation, suppressions: [Suppression], units: [WorkspaceUnit], suggestions: SuggestionIndex?,
        linkedDeclarations: BookDeclarations
    ) {
        self.compilation = compilation
        self.suppressions = suppressions
        self.units = units
        self.suggestions = suggestions
        self.linkedDeclarations = linkedDeclarations
    }

    /// Units merged one at a time, as they arrive: a batch compile merges
    /// each file while later ones are still being parsed on other cores.
    struct Linking {
        private var declarations = BookDeclarations()
        private var units: [WorkspaceUnit] = []

        /// Room for `total` ids in the namespace, made once, when every unit
        /// is known before the merge (an editor's relink), rather than
        /// rehashed at each of its 14 doublings on every edit of a
        /// 100,000-id book.
        mutating func expect(ids total: Int) {
            declarations.expect(ids: total)
        }

        /// Adds the next book file's unit: merges its parts.
        package mutating func add(_ unit: WorkspaceUnit) {
            for part in unit.parts { declarations.merge(part) }
            units.append(unit)
        }

        /// Everything after the files' own work: the stock file, the linker,
        /// the sorted diagnostics.
        consuming func finish(
            stock: WorkspaceUnit?, analysis: Bool, rulesOff: Set<Rule> = [], pass: (any BookAnalysisPass)? = nil, book wantsBook: Bool,
            reusing suggestions: SuggestionIndex? = nil
        ) -> WorkspaceSnapshot {
            var declarations = self.declarations
            var units = self.units
            if let stock {
                for part in stock.parts { declarations.replaceStock(with: part) }
                units.append(stock)
            }
            var linker = Linker(declarations: declarations, reusing: suggestions)
            let book = linker.link(analysis: analysis, rulesOff: rulesOff, assemble: wantsBook, leavingFacts: pass != nil)
            // After linking, the later layer's pass (the engine's opening-stock and cost rules).
            if let pass { linker.run(pass) }
            // The linker's list is taken, not copied: a book can yield
            // 200,000 diagnostics, and each copy of them is 18 MB.
            var diagnostics: [Diagnostic] = []
            swap(&diagnostics, &linker.diagnostics)
            diagnostics.insert(contentsOf: linker.declarations.diagnostics, at: 0)
            let compilation = Compilation(
                book: diagnostics.containsErrors ? nil : book,
                diagnostics: Diagnostic.sortedForOutput(consume diagnostics),
                fileCount: units.count,
                coverage: linker.coverage
            )
            return WorkspaceSnapshot(
                compilation: compilation, suppressions: units.flatMap(\.suppressions), units: units, suggestions: linker.allIDs,
                linkedDeclarations: linker.declarations
            )
        }
    }
}
