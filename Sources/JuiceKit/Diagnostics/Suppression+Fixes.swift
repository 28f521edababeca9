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

/// Whether each suppression's `#` really starts a YAML comment: libyaml
/// drops comments, so a `#` is taken for one unless some scalar's span
/// covers the text a removal would take (a quoted string, a block scalar).
/// A file libyaml cannot read to the end, or nests past the depth bound, is
/// not judged, and none of its suppressions gets a removal.
enum CommentCheck {
    static func dropRemovalsInsideScalars(_ suppressions: inout [Suppression], bytes: [UInt8]) {
        let judged = suppressions.indices.filter { suppressions[$0].removal != nil }
        var spans = ScalarOverlap(removals: judged.compactMap { suppressions[$0].removal })
        do {
            try YAMLParser.parse(bytes, into: &spans)
        } catch {
            spans.complete = false
        }
        for (position, index) in judged.enumerated() where !spans.complete || spans.covered[position] {
            suppressions[index].removal = nil
        }
    }

    /// Marks the removals any scalar overlaps. Removals come one per line in
    /// line order, so each scalar finds its first candidate by bisection.
    private struct ScalarOverlap: YAMLEventHandler {
        let removals: [SourceRange]
        var covered: [Bool]
        var complete = true
        private var depth = 0

        init(removals: [SourceRange]) {
            self.removals = removals
            covered = removals.map { _ in false }
        }

        mutating func documentStart(_ start: SourcePosition) -> Bool { true }
        mutating func documentEnd(_ end: SourcePosition) -> Bool { true }
        mutating func alias(_ anchor: String, start: SourcePosition, end: SourcePosition) -> Bool { true }

        mutating func scalar(
            _ text: UnsafeBufferPointer<UInt8>, anchor: String?, tag: String?, style: YAMLNode.ScalarStyle,
            start: SourcePosition, end: SourcePosition
        ) -> Bool {
            // An empty scalar (a null left blank) holds no text, so no `#`.
            guard start < end else { return true }
            // The first removal ending after the scalar starts.
            var low = 0, high = removals.count
            while low < high {
                let middle = (low + high) / 2
                if removals[middle].end <= start { low = middle + 1 } else { high = middle }
            }
            var index = low
            while index < removals.count, removals[index].start < end {
                if start < removals[index].end { covered[index] = true }
                index += 1
            }
            return true
        }

        mutating func collectionStart(
            _ kind: YAMLNode.Kind, anchor: String?, tag: String?, flow: Bool, start: SourcePosition
        ) -> Bool {
            depth += 1
            if depth > YAMLLimits.maxDepth { complete = false }
            return complete
        }

        mutating func collectionEnd(_ end: SourcePosition) -> Bool {
            depth -= 1
            return true
        }
    }
}

