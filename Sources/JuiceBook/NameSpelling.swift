import JuiceSource
import JuiceDiagnostics
@_spi(Internals) import JuiceYAML
/// How a name's scalar was written, as far as a fix that replaces the name
/// needs to know: where the name's own text sits in the node's span, and
/// how the new name must be written there to stay valid YAML and read as
/// the same kind of scalar.
///
/// Judged once, where the node is at hand (`init`), and kept as one byte
/// beside the name, because whether the name is unknown is only learnt
/// after every file is read. Anything not plainly written (an alias, a tag
/// or anchor, an escape or a doubled quote, a block scalar, a name over
/// several lines) is `other`, and gets no fix: there the right edit is not
/// clear from the span.
package enum NameSpelling: UInt8, Sendable {
    /// Plain, on one line, with nothing else in its span: the span is the name.
    case plain
    /// `'name'` with no doubled quote inside.
    case singleQuoted
    /// `"name"` with no escape inside.
    case doubleQuoted
    case other

    /// How `id`, a scalar of `document`, was written. The span's width tells
    /// apart a node written as its bare text (plus the quotes) from one with
    /// properties or escapes, which only ever widen it.
    init(_ document: borrowing YAMLDocument, _ id: YAMLNode.ID) {
        let node = document[id]
        guard node.kind == .scalar, !node.hasTag, node.start.line == node.end.line,
              document.anchor(of: id) == nil
        else {
            self = .other
            return
        }
        let width = node.end.column - node.start.column
        // The text is valid UTF-8, so its scalars are its bytes that do not
        // continue a sequence: counted so, without decoding them (this runs
        // for every ingredient of the book).
        let length = document.withText(of: id) { bytes in
            var length = 0
            for byte in bytes where byte & 0xC0 != 0x80 { length += 1 }
            return length
        }
        switch node.style {
        case .plain where width == length: self = .plain
        case .singleQuoted where width == length + 2: self = .singleQuoted
        case .doubleQuoted where width == length + 2: self = .doubleQuoted
        default: self = .other
        }
    }

    /// The span of the name's own text, given the node's span: inside the
    /// quotes for a quoted name. Nil for `other`.
    func nameRange(of range: SourceRange) -> SourceRange? {
        switch self {
        case .plain:
            return range
        case .singleQuoted, .doubleQuoted:
            var inner = range
            inner.start.column += 1
            inner.end.column -= 1
            return inner
        case .other:
            return nil
        }
    }

    /// What replaces the name's text so the node reads as `name`: in quotes'
    /// own escaping inside quotes; bare when plain allows it, else in single
    /// quotes. Nil when `name` cannot be written on one line (a control
    /// character or line break), or for `other`.
    package func written(_ name: String) -> String? {
        guard !name.unicodeScalars.contains(where: Self.needsEscape) else { return nil }
        switch self {
        case .plain:
            return Self.isPlainSafe(name) ? name : "'" + name.replacing("'", with: "''") + "'"
        case .singleQuoted:
            return name.replacing("'", with: "''")
        case .doubleQuoted:
            return name.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
        case .other:
            return nil
        }
    }

    /// Characters no quoting here writes as themselves.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: return true
        default: return false
        }
    }

    /// Whether `name` reads back as itself, a string, when written bare as
    /// a key, in block or flow context: letters, digits, `_`, and `-` or `.`
    /// after the first character, or any non-ASCII letter-like scalar; and
    /// not a spelling of null.
    static func isPlainSafe(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !["null", "Null", "NULL"].contains(name) else { return false }
        func safe(_ scalar: Unicode.Scalar, first: Bool) -> Bool {
            if !scalar.isASCII { return !scalar.properties.isWhitespace && !needsEscape(scalar) }
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" { return true }
            return !first && (scalar == "-" || scalar == ".")
        }
        return safe(first, first: true) && name.unicodeScalars.dropFirst().allSatisfy { safe($0, first: false) }
    }
}

extension Fix {
    /// The fix for a misspelt name, written as `spelling` at `range` (the
    /// node's span): replace it with the suggestion, when the suggestion is
    /// the sole closest name and the edit is clear; otherwise none.
    static func replacingName(
        _ name: String, with match: (name: String, isSole: Bool)?, at range: SourceRange, spelling: NameSpelling
    ) -> [Fix] {
        guard let match, match.isSole, let span = spelling.nameRange(of: range), let text = spelling.written(match.name) else {
            return []
        }
        return [Fix(
            title: "replace '\(name.escapingControlCharacters)' with '\(match.name.escapingControlCharacters)'",
            edits: [TextEdit(range: span, replacement: text)]
        )]
    }
}
