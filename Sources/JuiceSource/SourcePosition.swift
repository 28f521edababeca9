/// A 1-based line and column in a source file.
///
/// Columns count Unicode scalars, as libyaml does, so a Hangul label advances the
/// column by one per syllable. Every libyaml mark is converted exactly once, in
/// `YAMLParser`, so nothing downstream ever sees a 0-based position.
///
/// Stored in 32 bits each: positions only ever point into recipe and
/// configuration files, which are at most 64 MiB, and every YAML node and
/// declaration carries two of them, so halving them is felt on a book of
/// 100,000 menu items. Values past `Int32` saturate rather than trap.
public struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    private var storedLine: Int32
    private var storedColumn: Int32

    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = Int32(clamping: newValue) }
    }

    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = Int32(clamping: newValue) }
    }

    /// A 1-based position.
    public init(line: Int, column: Int) {
        storedLine = Int32(clamping: line)
        storedColumn = Int32(clamping: column)
    }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.storedLine, lhs.storedColumn) < (rhs.storedLine, rhs.storedColumn)
    }

    public var description: String { "\(line):\(column)" }
}

/// A span in one file: where a node starts, and the position just past its end.
public struct SourceRange: Sendable, Hashable {
    public var file: String
    public var start: SourcePosition
    public var end: SourcePosition

    /// A span of `file`; `end` is just past it.
    public init(file: String, start: SourcePosition, end: SourcePosition) {
        self.file = file
        self.start = start
        self.end = end
    }
}

extension SourcePosition {
    /// The position of a byte offset, counted the way libyaml counts: a byte-order
    /// mark is not a column; lines break at `\n`, `\r\n`, a lone `\r`, NEL, U+2028
    /// and U+2029; columns count Unicode scalars, in UTF-8 or, after its BOM, UTF-16.
    ///
    /// Only reader errors need this (libyaml gives them as a byte offset), so it
    /// decodes the prefix rather than being clever.
    package static func of(byteOffset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> SourcePosition {
        let prefix = SourceDecoding.text(of: bytes, upTo: byteOffset)
        var line = 1
        var column = 1
        var afterCR = false
        for scalar in prefix.unicodeScalars {
            switch scalar {
            case "\n":
                if !afterCR { line += 1 }
                column = 1
            case _ where LineBreaks.isBreak(scalar):
                line += 1
                column = 1
            default:
                column += 1
            }
            afterCR = scalar == "\r"
        }
        return SourcePosition(line: line, column: column)
    }
}
