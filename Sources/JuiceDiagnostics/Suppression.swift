import JuiceSource


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

        package init(name: String, range: SourceRange) {
            self.name = name
            self.range = range
        }
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

    package static let directives = ["disable-line", "disable-next-line", "disable-file"]

    package init(
        scope: Scope, file: String, entries: [Entry], range: SourceRange, unknownDirective: String? = nil,
        removal: SourceRange? = nil
    ) {
        self.scope = scope
        self.file = file
        self.entries = entries
        self.range = range
        self.unknownDirective = unknownDirective
        self.removal = removal
    }
}
