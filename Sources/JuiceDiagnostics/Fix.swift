import JuiceSource
/// A change that resolves a diagnostic, as data: the editor offers it as a
/// quick fix, `juice-lint --fix` applies it, SARIF lists it. Printers that do
/// not know fixes ignore them, so adding one never changes a report.
///
/// Only made where the right edit is clear (one did-you-mean candidate, one
/// plain spelling of a number, a suppression that suppresses nothing).
public struct Fix: Sendable, Hashable {
    /// What applying it does, as a menu entry says it: "replace 'mangoo' with 'mango'".
    public var title: String
    /// The edits, which never overlap; each names its own file.
    public var edits: [TextEdit]

    /// A fix made of `edits`, described by `title`.
    public init(title: String, edits: [TextEdit]) {
        self.title = title
        self.edits = edits
    }
}

/// Replace the text of one span of one file.
///
/// The span is a `SourceRange`, positioned as every diagnostic is (1-based
/// lines, columns in Unicode scalars), so an edit travels with the
/// diagnostic it fixes; `byteRange(in:)` turns it into byte offsets of the
/// file's bytes for whoever writes the file.
public struct TextEdit: Sendable, Hashable {
    /// The span replaced; an empty span inserts.
    public var range: SourceRange
    /// The new text, in UTF-8.
    public var replacement: String

    /// Replaces `range` with `replacement`.
    public init(range: SourceRange, replacement: String) {
        self.range = range
        self.replacement = replacement
    }
}
