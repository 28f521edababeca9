@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics

/// An `unused-suppression` report and the fix it can carry: made once every
/// report is known, since whether removing one name should take the whole
/// comment depends on whether every other name in it is reported too.
struct SuppressionReport {
    enum Remedy {
        /// Replace the misspelt word (the report's span) with the
        /// suggestion, when it is the sole closest one.
        case rename(String, (name: String, isSole: Bool)?)
        /// Remove the name, or the whole comment when every name in it goes.
        case removeEntry
        case removeComment
    }

    var diagnostic: Diagnostic
    var suppression: Int
    var entry: Int?
    var remedy: Remedy

    init(_ diagnostic: Diagnostic, _ suppression: Int, entry: Int? = nil, remedy: Remedy) {
        self.diagnostic = diagnostic
        self.suppression = suppression
        self.entry = entry
        self.remedy = remedy
    }

    /// The reports' diagnostics, each with its fix. A name is removed alone
    /// only while another name in its comment still does something (or is
    /// misspelt, and so meant to); when every name is reported for removal,
    /// each report's fix removes the comment, so applying any one of them
    /// leaves no comment that names no rule. Nothing is edited where the
    /// `#` may not start a comment (`Suppression.removal` is nil).
    static func withFixes(_ reports: [SuppressionReport], suppressions: [Suppression]) -> [Diagnostic] {
        var removed = suppressions.map { [Bool](repeating: false, count: $0.entries.count) }
        for report in reports {
            if case .removeEntry = report.remedy, let entry = report.entry { removed[report.suppression][entry] = true }
        }
        return reports.map { report in
            var diagnostic = report.diagnostic
            let suppression = suppressions[report.suppression]
            guard let removal = suppression.removal else { return diagnostic }
            let removeComment = Fix(title: "remove the suppression comment", edits: [TextEdit(range: removal, replacement: "")])
            switch report.remedy {
            case .rename(let word, let match):
                guard let match, match.isSole else { break }
                diagnostic.fixes = [Fix(
                    title: "replace '\(word.escapingControlCharacters)' with '\(match.name)'",
                    edits: [TextEdit(range: diagnostic.range, replacement: match.name)]
                )]
            case .removeComment:
                diagnostic.fixes = [removeComment]
            case .removeEntry:
                guard let entry = report.entry else { break }
                if removed[report.suppression].allSatisfy({ $0 }) {
                    diagnostic.fixes = [removeComment]
                } else if let span = entrySpan(entry, of: suppression) {
                    diagnostic.fixes = [Fix(
                        title: "remove '\(suppression.entries[entry].name.escapingControlCharacters)' from the suppression",
                        edits: [TextEdit(range: span, replacement: "")]
                    )]
                }
            }
            return diagnostic
        }
    }

    /// The name with the separator that joins it to the list: the one
    /// before it, or for the first name the one after, so `a, b` loses
    /// `, b` or `a, `.
    private static func entrySpan(_ entry: Int, of suppression: Suppression) -> SourceRange? {
        let entries = suppression.entries
        guard entries.indices.contains(entry), entries.count > 1 else { return nil }
        var span = entries[entry].range
        if entry > 0 {
            span.start = entries[entry - 1].range.end
        } else {
            span.end = entries[1].range.start
        }
        return span
    }
}

extension Suppression {
    /// Drops the diagnostics the suppressions cover, and reports as
    /// `unused-suppression` every entry that covered nothing, names an unknown
    /// rule, or names an error rule, which cannot be suppressed: a book with
    /// errors cannot be used, whatever the comments say. `unused-suppression`
    /// reports can themselves be silenced by a comment naming `unused-suppression`.
    ///
    /// An entry is judged only if its rule ran where the comment stands:
    /// entries naming a rule that is off, or one whose check did not look at
    /// that file (`checked` is false: the unused checks on a book with
    /// errors, say), are not reported, since the diagnostic they silence may
    /// come back once the rule runs. Neither is an `unused-suppression` entry
    /// that would silence the report of such an entry.
    public static func apply(
        _ suppressions: [Suppression], to diagnostics: [Diagnostic], isOff: (Rule) -> Bool = { _ in false },
        checked: (Rule, _ file: String) -> Bool = { _, _ in true }
    ) -> [Diagnostic] {
        // Most books have no suppression comment: then nothing is covered or stale.
        guard !suppressions.isEmpty else { return diagnostics }
        var used = suppressions.map { [Bool](repeating: false, count: $0.entries.count) }
        var byFile: [String: [Int]] = [:]
        for (index, suppression) in suppressions.enumerated() { byFile[suppression.file, default: []].append(index) }

        func covers(_ diagnostic: Diagnostic) -> Bool {
            guard diagnostic.rule.isConfigurable else { return false }
            var suppressed = false
            for index in byFile[diagnostic.file] ?? [] {
                let suppression = suppressions[index]
                if case .line(let line) = suppression.scope, line != diagnostic.line { continue }
                for (entry, item) in suppression.entries.enumerated() where item.name == diagnostic.rule.id {
                    used[index][entry] = true
                    suppressed = true
                }
            }
            return suppressed
        }

        var kept = diagnostics.filter { !covers($0) }
        var unused: [SuppressionReport] = []
        // The reports of entries whose rule did not run here: not made, but an
        // `unused-suppression` entry that would silence one is not stale either.
        var unjudged: [Diagnostic] = []
        let ruleIDs = Rule.allCases.map(\.id)
        for (index, suppression) in suppressions.enumerated() {
            if let directive = suppression.unknownDirective {
                let match = Suggestion.closestMatch(to: directive, in: directives)
                unused.append(SuppressionReport(Diagnostic(
                    .unusedSuppression, at: suppression.range, "unknown suppression '\(directive)'",
                    help: match.map { Suggestion.didYouMean(suggesting: $0.name) }
                        ?? "use " + directives.map { "'\($0)'" }.joined(separator: ", ")
                ), index, remedy: .rename(directive, match)))
                continue
            }
            if suppression.entries.isEmpty {
                unused.append(SuppressionReport(Diagnostic(
                    .unusedSuppression, at: suppression.range, "suppression names no rule",
                    help: "list the rules to silence, such as '# juice-lint disable-line unused-fruit'"
                ), index, remedy: .removeComment))
            }
            for (entry, item) in suppression.entries.enumerated() where !used[index][entry] && item.name != Rule.unusedSuppression.id {
                guard let rule = Rule(rawValue: item.name) else {
                    // Misspelt, it was meant to silence something: rename it,
                    // never remove it.
                    let match = Suggestion.closestMatch(to: item.name, in: ruleIDs)
                    unused.append(SuppressionReport(Diagnostic(
                        .unusedSuppression, at: item.range, "unknown rule '\(item.name)' in suppression",
                        help: match.map { Suggestion.didYouMean(suggesting: $0.name) } ?? "run 'juice-lint rules' to list them"
                    ), index, entry: entry, remedy: .rename(item.name, match)))
                    continue
                }
                if !rule.isConfigurable {
                    unused.append(SuppressionReport(Diagnostic(
                        .unusedSuppression, at: item.range, "'\(item.name)' is an error and cannot be suppressed",
                        help: "fix the problem it reports; a book with errors cannot be used"
                    ), index, entry: entry, remedy: .removeEntry))
                } else if !isOff(rule) {
                    let report = Diagnostic(
                        .unusedSuppression, at: item.range, "suppression of '\(item.name)' suppressed nothing",
                        help: "remove it; nothing here reports '\(item.name)' any more"
                    )
                    if checked(rule, suppression.file) {
                        unused.append(SuppressionReport(report, index, entry: entry, remedy: .removeEntry))
                    } else {
                        unjudged.append(report)
                    }
                }
            }
        }
        var reported = unused.filter { !covers($0.diagnostic) }
        for report in unjudged { _ = covers(report) }
        // An `unused-suppression` entry that silenced nothing is reported last.
        for (index, suppression) in suppressions.enumerated() {
            for (entry, item) in suppression.entries.enumerated()
            where item.name == Rule.unusedSuppression.id && !used[index][entry] && !isOff(.unusedSuppression) {
                reported.append(SuppressionReport(Diagnostic(
                    .unusedSuppression, at: item.range, "suppression of 'unused-suppression' suppressed nothing",
                    help: "remove it; no suppression here is unused"
                ), index, entry: entry, remedy: .removeEntry))
            }
        }
        kept += SuppressionReport.withFixes(reported, suppressions: suppressions)
        return kept
    }
}
