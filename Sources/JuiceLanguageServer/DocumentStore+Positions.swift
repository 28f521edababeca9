@_spi(Internals) import JuiceSupport
import JuiceSource

/// Positions as the protocol counts them: lines from 0, and `character` in
/// the units the client and server agreed on in `initialize` (`units`).
/// Every conversion between the book's positions and the client's goes
/// through here and `SourceText`.
extension DocumentStore {
    /// An LSP `Range` for a span, through its file's text.
    mutating func lspRange(_ range: SourceRange) -> JSONValue {
        guard let text = text(at: range.file) else {
            // A file with no text here (never the case for a book file):
            // the best guess is that every scalar is one unit.
            func naive(_ position: SourcePosition) -> JSONValue {
                .object([("line", .int(max(position.line - 1, 0))), ("character", .int(max(position.column - 1, 0)))])
            }
            return .object([("start", naive(range.start)), ("end", naive(range.end))])
        }
        return lspRange(text.offset(of: range.start)..<max(text.offset(of: range.start), text.offset(of: range.end)), in: text)
    }

    /// An LSP `Range` for byte offsets of `text`.
    func lspRange(_ offsets: Range<Int>, in text: SourceText) -> JSONValue {
        .object([("start", lspPosition(offsets.lowerBound, in: text)), ("end", lspPosition(offsets.upperBound, in: text))])
    }

    /// An LSP `Position` for a byte offset of `text`.
    func lspPosition(_ offset: Int, in text: SourceText) -> JSONValue {
        let (line, character) = text.lspPosition(atOffset: offset, units: units)
        return .object([("line", .int(line)), ("character", .int(character))])
    }

    /// An LSP `Location`.
    mutating func location(_ range: SourceRange) -> JSONValue {
        .object([("uri", .string(uri(of: range.file))), ("range", lspRange(range))])
    }
}
