/// A 1-based line and column in a source file.
///
/// Columns count Unicode scalars, as libyaml does, so a Hangul label advances the
/// column by one per syllable. Every libyaml mark is converted exactly once, in
/// `YAMLParser`, so nothing downstream ever sees a 0-based position.
public struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "\(line):\(column)" }
}

/// A span in one file: where a node starts, and the position just past its end.
public struct SourceRange: Sendable, Hashable {
    public var file: String
    public var start: SourcePosition
    public var end: SourcePosition

    public init(file: String, start: SourcePosition, end: SourcePosition) {
        self.file = file
        self.start = start
        self.end = end
    }
}

extension SourcePosition {
    /// The position of a byte offset, counted the way libyaml counts: lines split
    /// at `\n`, `\r\n` or a lone `\r`, and columns in Unicode scalars.
    static func of(byteOffset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> SourcePosition {
        var line = 1
        var column = 1
        var index = 0
        let limit = min(byteOffset, bytes.count)
        while index < limit {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r") && (index + 1 >= bytes.count || bytes[index + 1] != UInt8(ascii: "\n"))) {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 && byte != UInt8(ascii: "\r") {
                column += 1
            }
            index += 1
        }
        return SourcePosition(line: line, column: column)
    }
}
