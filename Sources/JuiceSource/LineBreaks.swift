/// How libyaml reads a line break and a byte-order mark: the one home of
/// both rules, for every count of lines and columns (diagnostics, quoted
/// source lines, editor positions, fixes, order scripts).
public enum LineBreaks {
    /// Whether `scalar` ends a line as libyaml counts lines: LF, CR, NEL,
    /// LINE SEPARATOR or PARAGRAPH SEPARATOR. A CR followed by an LF is one
    /// break; callers stepping scalar by scalar take the LF with the CR.
    @inlinable
    public static func isBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}": true
        default: false
        }
    }

    /// The line break that starts at `index` of UTF-8 text: its length in
    /// bytes (CR LF is one break of two), and whether the Language Server
    /// Protocol counts it too (it counts LF, CR and CR LF only); nil where
    /// no break starts. The same rule as `isBreak`, on bytes.
    public static func utf8Break(in utf8: [UInt8], at index: Int) -> (length: Int, countedByProtocol: Bool)? {
        let count = utf8.count
        switch utf8[index] {
        case 0x0A:
            return (1, true)
        case 0x0D:
            return (index + 1 < count && utf8[index + 1] == 0x0A ? 2 : 1, true)
        case 0xC2 where index + 1 < count && utf8[index + 1] == 0x85:
            return (2, false)
        case 0xE2 where index + 2 < count && utf8[index + 1] == 0x80 && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
            return (3, false)
        default:
            return nil
        }
    }

    /// The length of a UTF-8 byte-order mark at `start` of `bytes` (looking
    /// no further than `end`): 3, or 0 where there is none. libyaml skips
    /// it, so no line or column counts it.
    public static func utf8MarkLength(_ bytes: some RandomAccessCollection<UInt8>, at start: Int, end: Int? = nil) -> Int {
        let end = end ?? bytes.count
        guard end - start >= 3 else { return 0 }
        let first = bytes.index(bytes.startIndex, offsetBy: start)
        let second = bytes.index(after: first), third = bytes.index(after: second)
        return bytes[first] == 0xEF && bytes[second] == 0xBB && bytes[third] == 0xBF ? 3 : 0
    }
}
