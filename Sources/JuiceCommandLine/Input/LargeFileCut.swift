#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JuiceBook

/// Where one large book file can be cut into pieces that are composed and
/// collected on different cores, as separate files are.
///
/// libyaml reads a file front to back on one thread, so a book that is one
/// big file would leave the other cores idle. Most of such a file is a long
/// section mapping (`menu:` with thousands of items), and a run of its
/// entries, cut out at the start of a line that begins an entry, is itself a
/// YAML mapping, indented as before: libyaml reads it with the same events
/// and, given the line it starts on, the same positions. A piece is one of:
/// - the head: the file from its start, ending wherever the next piece starts;
/// - a run of the entries of one section, `section`, indented by `indent`;
/// - a run of top-level keys, from a line at column 0 on.
///
/// The plan only looks at the start of each line, so it is a guess: a cut
/// can fall inside a quoted or flow scalar, a block scalar, or a second
/// document. `DeclarationCollector.PieceJoin` checks every piece against the
/// structure the whole file would have had, and when anything differs (or
/// any piece reports any problem at all) the file is composed whole instead.
/// The pieces are an optimisation that is only ever taken when its result is
/// the one the whole file gives.
package struct LargeFileCut: Sendable {
    enum Kind: Sendable, Hashable {
        case head
        case entries(section: String, indent: Int)
        case topLevel
    }

    package struct Piece: Sendable {
        var kind: Kind
        /// The piece's bytes in the file.
        package var bytes: Range<Int>
        /// The 1-based line the piece starts on.
        var firstLine: Int
        /// The 1-based line libyaml's stream should end on, counting the line
        /// breaks in the piece ('\n') and the line libyaml closes itself when
        /// the piece does not end with one.
        var endLine: Int
    }

    /// Files below this size are read whole: they take a few milliseconds.
    package static let minimumBytes = 512 * 1024
    /// About how much of a file one piece holds: enough to make a piece's
    /// own costs (a parser, a composer's arrays) small, and few enough pieces
    /// that at any moment only a couple of them are in memory as nodes.
    /// A file of a megabyte is cut into more pieces than two cores, so
    /// that merging the first pieces overlaps reading the last, and each
    /// worker reuses its composer's arrays: at 512 KiB, the 1.3 MB book of
    /// 100,000 unused fruits was two pieces read side by side and then two
    /// merges with both cores idle. 256 KiB took it (both rules off) from
    /// 62.8 to 58.2 ms and 66 to 55 MB, lint-single 250 to 248 ms.
    /// 32 KiB took it from 45.2 to 39.2 ms and 45 to 38 MB (medians of 21,
    /// interleaved; 128 KiB 42.1, 64 KiB 40.2): a piece's nodes (about
    /// 220 KB) stay in the core's cache while it is collected, and the last
    /// merge, which runs alone, is a fortieth of the file rather than a
    /// quarter. 16 KiB took it on from 39.6 to 38.4 ms (medians of 21).
    /// lint-single, capped at `maximumPieces`, did not move.
    static let targetPieceBytes = 16 * 1024
    static let maximumPieces = 256

    /// The sections whose entries may be cut apart: every top-level key
    /// (`BookSection`, the one list) but `version`.
    static let sections = Set(BookSection.allCases.filter { $0 != .version }.map(\.rawValue))

    package let pieces: [Piece]

    /// The pieces for `bytes`, or nil when the file is small or no cut was
    /// found: then it is read whole.
    /// (`minimumBytes` and `pieceBytes` are smaller in tests, to cut small books.)
    package init?(bytes: [UInt8], cores: Int, minimumBytes: Int = Self.minimumBytes, pieceBytes: Int = Self.targetPieceBytes) {
        guard cores > 1, bytes.count >= minimumBytes, Self.isPlainUTF8(bytes) else { return nil }
        let count = min(Self.maximumPieces, max(2, bytes.count / max(1, pieceBytes)))
        let found = bytes.withUnsafeBufferPointer { Self.plan($0, pieces: count) }
        guard found.count > 1 else { return nil }
        pieces = found
    }

    /// A UTF-16 or UTF-32 file (by its byte-order mark or its zero bytes) is
    /// not cut: a piece would lose the encoding the start of the file gives.
    private static func isPlainUTF8(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2 else { return true }
        return bytes[0] != 0xFE && bytes[0] != 0xFF && bytes[0] != 0 && bytes[1] != 0
    }

    /// One pass over the line starts. A cut is made at the first line past
    /// each target offset where one may be made; a line at column 0 inside a
    /// run of entries must start a new piece, since a run of entries is
    /// read as one indented mapping and cannot close it.
    private static func plan(_ text: UnsafeBufferPointer<UInt8>, pieces count: Int) -> [Piece] {
        guard let base = text.baseAddress else { return [] }
        let step = text.count / count
        var pieces: [Piece] = []
        var current = Piece(kind: .head, bytes: 0..<0, firstLine: 1, endLine: 1)
        var nextTarget = step
        /// The section whose body the line is in, and its entries' indent once seen.
        var section: String?
        var entryIndent: Int?
        var line = 1
        var start = 0

        func cut(at offset: Int, kind: Kind) {
            current.bytes = current.bytes.lowerBound..<offset
            current.endLine = line
            pieces.append(current)
            current = Piece(kind: kind, bytes: offset..<offset, firstLine: line, endLine: line)
            nextTarget = max(nextTarget, offset) + step
        }

        while start < text.count {
            let rest = text.count - start
            let newline = memchr(base + start, 0x0A, rest).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base }
            let end = newline ?? text.count
            var indent = 0
            while start + indent < end && text[start + indent] == 0x20 { indent += 1 }
            let first = start + indent < end ? text[start + indent] : 0x0A
            let blank = first == 0x0A || first == 0x0D || first == 0x23 // '#'
            if !blank {
                if indent == 0 {
                    // A new top-level key (or anything else at column 0).
                    let name = sectionName(text, from: start, to: end)
                    if case .entries = current.kind {
                        cut(at: start, kind: .topLevel)
                    } else if start >= nextTarget && name != nil && pieces.count + 1 < maximumPieces {
                        cut(at: start, kind: .topLevel)
                    }
                    section = name
                    entryIndent = nil
                } else if let name = section {
                    if entryIndent == nil { entryIndent = indent }
                    if indent == entryIndent, start >= nextTarget, pieces.count + 1 < maximumPieces,
                       isPlainKeyStart(first) {
                        cut(at: start, kind: .entries(section: name, indent: indent))
                    }
                }
            }
            if newline == nil { break }
            line += 1
            start = end + 1
        }
        current.bytes = current.bytes.lowerBound..<text.count
        // libyaml ends a last line that has no line break itself.
        current.endLine = text.count > 0 && text[text.count - 1] != 0x0A ? line + 1 : line
        pieces.append(current)
        return pieces
    }

    /// `name:` alone on a line (a comment may follow) for one of `sections`.
    private static func sectionName(_ text: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> String? {
        var index = start
        while index < end && text[index] != 0x3A { index += 1 } // ':'
        guard index < end, index > start else { return nil }
        let name = String(decoding: UnsafeBufferPointer(rebasing: text[start..<index]), as: UTF8.self)
        guard sections.contains(name) else { return nil }
        var after = index + 1
        while after < end && text[after] == 0x20 { after += 1 }
        guard after == end || text[after] == 0x23 || text[after] == 0x0D else { return nil }
        return name
    }

    /// An id written plain starts with a letter or digit (`RecipeValues`).
    private static func isPlainKeyStart(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
    }
}
