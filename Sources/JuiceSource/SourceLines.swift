/// The lines of one source file, decoded and split the way libyaml reads it, so
/// a diagnostic's line and column find the exact text libyaml counted.
///
/// - Bytes become text through `SourceDecoding`: a byte-order mark dropped,
///   UTF-16 after its mark, anything else UTF-8 with a bad sequence shown as
///   U+FFFD (libyaml stops at the first one, so no diagnostic points past it).
/// - Lines end at `\n`, `\r\n` or a lone `\r`, and also at NEL (U+0085), LINE
///   SEPARATOR (U+2028) and PARAGRAPH SEPARATOR (U+2029), which YAML 1.1 and
///   libyaml's line counter treat as line breaks too. The breaks themselves are
///   not part of any line, so a CRLF file shows no stray `\r`.
package struct SourceLines: Sendable {
    private let lines: [Substring]

    package init(bytes: [UInt8]) {
        lines = Self.split(SourceDecoding.text(of: bytes))
    }

    /// The text of a 1-based line, or nil when the file has no such line.
    package subscript(line number: Int) -> Substring? {
        guard number >= 1, number <= lines.count else { return nil }
        return lines[number - 1]
    }

    package var count: Int { lines.count }

    /// The character at a 1-based line and column (columns count Unicode
    /// scalars, as positions do), or nil past the text.
    package func character(at position: SourcePosition) -> Unicode.Scalar? {
        guard let line = self[line: position.line], position.column >= 1 else { return nil }
        let scalars = line.unicodeScalars
        guard let index = scalars.index(scalars.startIndex, offsetBy: position.column - 1, limitedBy: scalars.endIndex),
              index < scalars.endIndex
        else { return nil }
        return scalars[index]
    }

    private static func split(_ text: String) -> [Substring] {
        let scalars = text.unicodeScalars
        var lines: [Substring] = []
        var lineStart = scalars.startIndex
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            switch scalar {
            case "\r":
                lines.append(Substring(scalars[lineStart..<index]))
                index = scalars.index(after: index)
                if index < scalars.endIndex, scalars[index] == "\n" {
                    index = scalars.index(after: index)
                }
                lineStart = index
            case _ where LineBreaks.isBreak(scalar):
                lines.append(Substring(scalars[lineStart..<index]))
                index = scalars.index(after: index)
                lineStart = index
            default:
                index = scalars.index(after: index)
            }
        }
        // The text after the last break is a line too, empty when the file ends
        // with a break: libyaml reports end-of-input problems there.
        lines.append(Substring(scalars[lineStart..<scalars.endIndex]))
        return lines
    }
}
