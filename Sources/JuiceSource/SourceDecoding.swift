/// The one home of how a source file's bytes become text, the way libyaml
/// reads them: UTF-16 (either byte order) after its byte-order mark, anything
/// else as UTF-8 with a bad sequence shown as U+FFFD; a byte-order mark is
/// dropped, since libyaml does not count it as a column. Line splitting
/// (`SourceLines`) and byte-offset positions (`SourcePosition.of`) both
/// decode through it, so they cannot disagree about a column.
enum SourceDecoding {
    /// The text of `bytes[..<limit]` (the whole file by default). Offsets
    /// count from the file's first byte, its byte-order mark included.
    package static func text<Bytes: RandomAccessCollection>(of bytes: Bytes, upTo limit: Int? = nil) -> String
    where Bytes.Element == UInt8, Bytes.Index == Int {
        let start = bytes.startIndex
        let count = bytes.count
        let end = min(max(limit ?? count, 0), count)
        if count >= 2, (bytes[start], bytes[start + 1]) == (0xFF, 0xFE) || (bytes[start], bytes[start + 1]) == (0xFE, 0xFF) {
            let littleEndian = bytes[start] == 0xFF
            var units: [UInt16] = []
            units.reserveCapacity(end / 2)
            var offset = 2
            while offset < end, offset + 1 < count {
                let (low, high) = littleEndian
                    ? (bytes[start + offset], bytes[start + offset + 1])
                    : (bytes[start + offset + 1], bytes[start + offset])
                units.append(UInt16(high) << 8 | UInt16(low))
                offset += 2
            }
            return String(decoding: units, as: UTF16.self)
        }
        let first = min(LineBreaks.utf8MarkLength(bytes, at: 0), end)
        return String(decoding: bytes[(start + first)..<(start + end)], as: UTF8.self)
    }
}
