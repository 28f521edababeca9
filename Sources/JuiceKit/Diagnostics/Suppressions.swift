#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `# juice-lint disable-…` comments, read from the source text because
/// libyaml drops comments.
///
///     stock: { kiwi: 3 }   # juice-lint disable-line unknown-fruit
///     # juice-lint disable-next-line zero-amount,unused-fruit
///     # juice-lint disable-file missing-stock
///
/// A comment is a `#` at the start of a line or after whitespace; the text is
/// matched on the line as written, so a quoted `# juice-lint` inside a string
/// would count too, which is harmless.
public struct Suppression: Sendable, Hashable {
    /// Which diagnostics a comment covers: those on one line, or the whole file.
    public enum Scope: Sendable, Hashable {
        case line(Int)
        case file
    }

    /// One rule name as written in the comment, with where it stands.
    public struct Entry: Sendable, Hashable {
        public var name: String
        public var range: SourceRange
    }

    public var scope: Scope
    public var file: String
    public var entries: [Entry]
    /// The directive itself, for a comment that names no rule or misspells the directive.
    public var range: SourceRange
    /// Set when the directive word is not one of the three.
    public var unknownDirective: String?
    /// What removing the comment removes: its whole line when nothing else
    /// is on it, otherwise the comment and the blanks before it. Nil when
    /// the `#` may not start a YAML comment (it stands inside a scalar, or
    /// the file is not YAML libyaml reads to the end): then no fix edits it.
    public var removal: SourceRange?

    static let directives = ["disable-line", "disable-next-line", "disable-file"]

    /// Every suppression comment in a file.
    public static func scan(_ file: SourceFile) -> [Suppression] {
        // Most files have no suppression; don't decode them line by line.
        guard file.bytes.containsJuiceLintMarker else { return [] }
        var found: [Suppression] = []
        let lines = SourceLines(bytes: file.bytes)
        for number in stride(from: 1, through: lines.count, by: 1) {
            guard let line = lines[line: number],
                  let suppression = parse(Array(line.unicodeScalars), line: number, isLast: number == lines.count, file: file.path)
            else { continue }
            found.append(suppression)
        }
        if !found.isEmpty { CommentCheck.dropRemovalsInsideScalars(&found, bytes: file.bytes) }
        return found
    }

    /// Reads the suppression on one line; `removal` is set as if the `#`
    /// started a comment, for `CommentCheck` to confirm.
    private static func parse(_ scalars: [Unicode.Scalar], line: Int, isLast: Bool, file: String) -> Suppression? {
        guard var suppression = parseDirective(scalars, line: line, file: file) else { return nil }
        // Columns are 1-based: the blank before column `start` is scalars[start - 2].
        var start = suppression.removal?.start.column ?? 1
        while start > 1, start - 2 < scalars.count, scalars[start - 2] == " " || scalars[start - 2] == "\t" { start -= 1 }
        let lineEnd = SourcePosition(line: line, column: scalars.count + 1)
        // Alone on its line, the comment goes with the line and its break
        // (the last line has none to take).
        let end = start == 1 && !isLast ? SourcePosition(line: line + 1, column: 1) : lineEnd
        suppression.removal = SourceRange(file: file, start: SourcePosition(line: line, column: start), end: end)
        return suppression
    }

    /// The directive and names after a `# juice-lint`; `removal` holds just
    /// where the `#` stands.
    private static func parseDirective(_ scalars: [Unicode.Scalar], line: Int, file: String) -> Suppression? {
        let marker = Array("juice-lint".unicodeScalars)
        var index = 0
        while index < scalars.count {
            defer { index += 1 }
            guard scalars[index] == "#", index == 0 || scalars[index - 1].properties.isWhitespace else { continue }
            var cursor = index + 1
            while cursor < scalars.count, scalars[cursor] == " " || scalars[cursor] == "\t" { cursor += 1 }
            guard cursor + marker.count < scalars.count,
                  Array(scalars[cursor..<cursor + marker.count]) == marker,
                  scalars[cursor + marker.count] == " " || scalars[cursor + marker.count] == "\t"
            else { continue }
            cursor += marker.count
            let words = Self.words(scalars, from: cursor, line: line, file: file)
            guard let directive = words.first else { continue }
            let hash = SourcePosition(line: line, column: index + 1)
            let comment = SourceRange(file: file, start: hash, end: hash)
            let scope: Scope
            switch directive.name {
            case "disable-line": scope = .line(line)
            case "disable-next-line": scope = .line(line + 1)
            case "disable-file": scope = .file
            default:
                return Suppression(
                    scope: .line(line), file: file, entries: [], range: directive.range, unknownDirective: directive.name, removal: comment
                )
            }
            return Suppression(
                scope: scope, file: file, entries: Array(words.dropFirst()), range: directive.range, unknownDirective: nil, removal: comment
            )
        }
        return nil
    }

    /// The words after `juice-lint`, split at spaces and commas, up to another `#`.
    private static func words(_ scalars: [Unicode.Scalar], from start: Int, line: Int, file: String) -> [Entry] {
        var entries: [Entry] = []
        var current = ""
        var wordStart = 0
        func finish(at end: Int) {
            guard !current.isEmpty else { return }
            entries.append(Entry(name: current, range: SourceRange(
                file: file, start: SourcePosition(line: line, column: wordStart + 1), end: SourcePosition(line: line, column: end + 1)
            )))
            current = ""
        }
        var index = start
        while index < scalars.count, scalars[index] != "#" {
            let scalar = scalars[index]
            if scalar == " " || scalar == "\t" || scalar == "," {
                finish(at: index)
            } else {
                if current.isEmpty { wordStart = index }
                current.unicodeScalars.append(scalar)
            }
            index += 1
        }
        finish(at: index)
        return entries
    }

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

extension Array where Element == UInt8 {
    /// Whether the bytes contain `juice-lint` anywhere (in UTF-8; a UTF-16 file
    /// is always scanned, since its bytes never match).
    var containsJuiceLintMarker: Bool {
        if count >= 2, (self[0] == 0xFF && self[1] == 0xFE) || (self[0] == 0xFE && self[1] == 0xFF) { return true }
        let marker = Array("juice-lint".utf8)
        return withUnsafeBufferPointer { bytes in
            guard bytes.count >= marker.count else { return false }
            var index = 0
            let last = bytes.count - marker.count
            while index <= last {
                // memchr-style skip to the next 'j'.
                guard let base = bytes.baseAddress,
                      let found = memchr(base + index, Int32(marker[0]), last - index + 1)
                else { return false }
                let position = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if memcmp(base + position, marker, marker.count) == 0 { return true }
                index = position + 1
            }
            return false
        }
    }
}
