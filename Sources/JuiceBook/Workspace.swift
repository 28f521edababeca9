@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics
/// The recipe book as a set of files keyed by path, each with its parsed
/// and collected unit, edited one file at a time.
///
/// The same core serves a batch run and an editor session: `update` or
/// `remove` one file and ask for a `snapshot`. Only the edited file's own
/// work (parse, collect, suppression scan) is redone; every other file's
/// unit is kept as it was. Linking and the analyses need the whole book and
/// are redone for the next snapshot, which is cached until the next edit.
/// A snapshot equals a fresh batch compile of the same files (held by a
/// seeded property test over random edit sequences).
///
/// Book files are linked in path order (byte-wise, as discovery sorts them),
/// so the first declaration of an id is the one in the earliest path.
public struct RecipeWorkspace: Sendable {
    /// Whether snapshots run the lint analyses, which only warn or inform.
    public let analysis: Bool
    /// Analyses snapshots leave out because their rule is off: a batch run
    /// knows its configuration up front; an editor, whose settings change,
    /// runs them all and applies levels after.
    public let rulesOff: Set<Rule>
    /// Whether snapshots assemble the `RecipeBook` (the linter does without).
    public let assemblesBook: Bool
    /// The later layer's analyses, run on each snapshot after linking when
    /// `analysis` is on (the engine's `OpeningStockAnalysis`).
    package let pass: (any BookAnalysisPass)?

    private var units: [String: WorkspaceUnit] = [:]
    /// The paths of the book files, in the order they are linked (byte-wise).
    ///
    /// The keys of `units`, kept in order as paths come and go: the
    /// language server asks for them on every edit, and sorting 100 paths
    /// each time was 3% of an edit's time (perf).
    public private(set) var paths: [String] = []
    private var stock: WorkspaceUnit?
    private var cached: WorkspaceSnapshot?
    /// Every book unit merged so far, in path order, while the files have
    /// only ever been added in that order (as a batch load adds them): the
    /// merge then runs as each file arrives, while later files are still
    /// being parsed on other cores, rather than all at the snapshot. Any
    /// other edit drops it, and the snapshot merges everything again.
    private var merged: (linking: WorkspaceSnapshot.Linking, last: String)? = (WorkspaceSnapshot.Linking(), "")
    /// The last link's "did you mean" index, for the next link to reuse.
    private var suggestions: SuggestionIndex?

    /// How many files' own work (parse, collect, suppression scan) this
    /// workspace has done: an unchanged file is never done twice. Units
    /// built elsewhere and handed over with `load` do not count.
    public private(set) var unitsBuilt = 0
    /// How many times the book was linked: once per snapshot after an edit.
    public private(set) var linkCount = 0

    /// An empty workspace.
    ///
    /// - Parameter analysis: run the lint analyses (`unused-fruit`,
    ///   `unused-recipe`; with a pass, `never-makeable`, `missing-stock` and
    ///   the cost rules); juice-lint wants them, running orders does not.
    /// - Parameter rulesOff: analyses not to run, because their rule is off.
    /// - Parameter book: assemble the `RecipeBook` when the book is valid.
    public init(analysis: Bool = false, rulesOff: Set<Rule> = [], book: Bool = true) {
        self.init(analysis: analysis, rulesOff: rulesOff, pass: nil, book: book)
    }

    /// An empty workspace whose snapshots run `pass` after linking
    /// (`BookAnalysisPass`): the opening-stock and cost rules.
    package init(analysis: Bool, rulesOff: Set<Rule> = [], pass: (any BookAnalysisPass)?, book: Bool = true) {
        self.analysis = analysis
        self.rulesOff = rulesOff
        self.pass = pass
        assemblesBook = book
    }

    /// The stock file's path, if one replaces the book's stock.
    public var stockPath: String? { stock?.path }

    /// The unit of the book file at `path`, if there is one.
    public func unit(at path: String) -> WorkspaceUnit? { units[path] }

    /// Sets the bytes of the book file at `path`, adding it if it is new.
    /// Only this file is parsed and collected again.
    public mutating func update(path: String, bytes: [UInt8]) {
        unitsBuilt += 1
        load(WorkspaceUnit(bookFile: SourceFile(path: path, bytes: bytes)))
    }

    /// Adds or replaces a finished unit, built elsewhere (on the input
    /// layer's worker threads, say): a book file's under its path, a stock
    /// file's as the stock file.
    public mutating func load(_ unit: WorkspaceUnit) {
        cached = nil
        switch unit.role {
        case .book:
            // Still in path order (a new path after every other): merged now.
            if var prefix = merged.take(), isNext(unit.path, after: prefix) {
                prefix.linking.add(unit)
                prefix.last = unit.path
                merged = prefix
            }
            if units.updateValue(unit, forKey: unit.path) == nil {
                // The first place whose path sorts after it.
                var low = 0
                var high = paths.count
                while low < high {
                    let middle = low + (high - low) / 2
                    if paths[middle].utf8.lexicographicallyPrecedes(unit.path.utf8) { low = middle + 1 } else { high = middle }
                }
                paths.insert(unit.path, at: low)
            }
        case .stock:
            stock = unit
        }
    }

    /// Whether the book file at `path` is the next one the merged prefix
    /// takes: a new path after all the others.
    private func isNext(_ path: String, after prefix: (linking: WorkspaceSnapshot.Linking, last: String)) -> Bool {
        units[path] == nil && (units.isEmpty || prefix.last.utf8.lexicographicallyPrecedes(path.utf8))
    }

    /// Removes the book file at `path`; nothing happens if there is none.
    public mutating func remove(path: String) {
        guard units.removeValue(forKey: path) != nil else { return }
        paths.removeAll { $0 == path }
        cached = nil
        merged = nil
    }

    /// Replaces the stock file with `file`, or with none (the book's own
    /// stock entries count again) when `file` is nil.
    public mutating func replaceStock(with file: SourceFile?) {
        cached = nil
        guard let file else {
            stock = nil
            return
        }
        unitsBuilt += 1
        stock = WorkspaceUnit(stockFile: file)
    }

    /// The book as it stands: every diagnostic, the book when valid, the
    /// check coverage and the index. Linked once per edit; asking again
    /// without an edit returns the cached snapshot.
    public mutating func snapshot() -> WorkspaceSnapshot {
        if let cached { return cached }
        linkCount += 1
        let made: WorkspaceSnapshot
        if let prefix = merged.take() {
            made = prefix.linking.finish(stock: stock, analysis: analysis, rulesOff: rulesOff, pass: pass, book: assemblesBook, reusing: suggestions)
        } else {
            let ordered = paths.compactMap { units[$0] }
            made = WorkspaceSnapshot(
                units: ordered, stock: stock, analysis: analysis, rulesOff: rulesOff, pass: pass, book: assemblesBook,
                reusing: suggestions
            )
        }
        cached = made
        if let built = made.suggestions { suggestions = built }
        return made
    }

    /// The `RecipeBook` of the files as they stand, when they make a valid
    /// one, for a workspace whose snapshots leave the book out: links again,
    /// without the analyses. The language server links for diagnostics on
    /// every edit and needs the book only for a hover, so it pays for the
    /// book only then.
    public func assembledBook() -> RecipeBook? {
        let ordered = paths.compactMap { units[$0] }
        return WorkspaceSnapshot(units: ordered, stock: stock, analysis: false, book: true, reusing: suggestions).book
    }
}
