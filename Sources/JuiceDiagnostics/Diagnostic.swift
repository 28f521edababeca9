import JuiceSource
/// One problem found in the input, as data.
///
/// Diagnostics never render themselves: text, JSON and the CI formats are separate
/// printers, so every output format shows exactly the same facts.
public struct Diagnostic: Sendable, Hashable {
    /// A related place, such as the first definition of a duplicate.
    public struct Note: Sendable, Hashable {
        public var range: SourceRange
        public var message: String

        /// A note at `range`; control characters in the message are escaped.
        public init(range: SourceRange, message: String) {
            self.range = range
            self.message = message.escapingControlCharacters
        }
    }

    public var rule: Rule
    public var severity: Severity
    /// Where the offending node starts and ends (end is just past the node).
    public var range: SourceRange
    /// Lowercase, no trailing period, the offending thing named in quotes.
    /// Control characters arrive escaped, so every printer can rely on one line.
    public var message: String
    public var notes: [Note]
    /// A suggestion such as "did you mean 'mango'?".
    public var help: String?
    /// Edits that resolve it, where the right one is clear; printers ignore them.
    public var fixes: [Fix]

    public init(
        _ rule: Rule,
        at range: SourceRange,
        _ message: String,
        notes: [Note] = [],
        help: String? = nil,
        severity: Severity? = nil,
        fixes: [Fix] = []
    ) {
        self.rule = rule
        self.severity = severity ?? rule.defaultSeverity
        self.range = range
        self.message = message.escapingControlCharacters
        self.notes = notes
        self.help = help?.escapingControlCharacters
        self.fixes = fixes
    }

    public var file: String { range.file }
    public var line: Int { range.start.line }
    public var column: Int { range.start.column }
}

extension Diagnostic {
    /// The order every printer uses: path, then line, then column, then rule id,
    /// so output is stable whatever order the checks ran in.
    /// Exact repeats are dropped: a collection shared through an alias is checked
    /// once per use, but its problem is one problem. Repeats that differ only
    /// in their fixes are one problem too, keeping only the fixes every use
    /// agrees on: an edit to shared text must suit each place that uses it.
    ///
    /// Repeats are found by sorting, not hashing: a repeat sorts next to the
    /// diagnostic it repeats, so only neighbours with the same file, start,
    /// rule and message are compared whole. Hashing every diagnostic whole
    /// was most of a run on a book with 100,000 warnings (perf).
    ///
    /// The list is taken, sorted and thinned where it stands: on a book with
    /// 200,000 diagnostics a sorted copy beside the original held 18 MB
    /// more at the run's peak, and copying retained every string twice.
    public static func sortedForOutput(_ diagnostics: consuming [Diagnostic]) -> [Diagnostic] {
        // Already in order with no two alike (a snapshot's list, filtered):
        // one pass proves it, and nothing is moved.
        if diagnostics.indices.dropFirst().allSatisfy({ precedes(diagnostics[$0 - 1], diagnostics[$0]) }) { return diagnostics }
        // The sort is stable, so ties keep their first-seen order and the
        // repeat that stands is the first.
        diagnostics.sort(by: precedes)
        // Diagnostics `0..<kept` stay; `runStart` is where the run with the
        // current sort key starts among them.
        var kept = 0
        var runStart = 0
        for index in diagnostics.indices {
            if kept > 0, precedes(diagnostics[kept - 1], diagnostics[index]) { runStart = kept }
            if let repeated = (runStart..<kept).first(where: { diagnostics[$0].isSameProblem(as: diagnostics[index]) }) {
                if diagnostics[repeated].fixes != diagnostics[index].fixes {
                    let agreed = diagnostics[index].fixes
                    diagnostics[repeated].fixes.removeAll { !agreed.contains($0) }
                }
            } else {
                if kept != index { diagnostics.swapAt(kept, index) }
                kept += 1
            }
        }
        diagnostics.removeSubrange(kept...)
        return diagnostics
    }

    /// Output order: path, then start, then rule id, then message.
    ///
    /// Inlined where it is used, so only the fields it reads are loaded:
    /// called, it was handed whole copies of both diagnostics, five retains
    /// and releases each, a million times in sorting 200,000 (callgrind).
    @inline(__always)
    private static func precedes(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        if a.file != b.file { return a.file.utf8.lexicographicallyPrecedes(b.file.utf8) }
        if a.range.start != b.range.start { return a.range.start < b.range.start }
        if a.rule != b.rule { return a.rule < b.rule }
        return a.message < b.message
    }

    /// Equal but for the fixes: one problem, however many uses found it.
    private func isSameProblem(as other: Diagnostic) -> Bool {
        rule == other.rule && severity == other.severity && range == other.range && message == other.message
            && notes == other.notes && help == other.help
    }
}

extension Array where Element == Diagnostic {
    /// True when any diagnostic is an error, which makes a book invalid.
    public var containsErrors: Bool { contains { $0.severity == .error } }
}
