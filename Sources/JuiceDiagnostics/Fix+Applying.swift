import JuiceSource
/// Why a fix could not be applied to a file's bytes. Nothing is written then:
/// a fix applies whole or not at all.
public enum FixError: Error, Sendable, Hashable {
    /// The edit's span is not in the file (a line or column past its text):
    /// the file changed since the diagnostic was made.
    case outsideFile(TextEdit)
    /// Two edits touch the same bytes, or insert at the same place, so no
    /// order of applying them is the clear one.
    case overlapping(TextEdit, TextEdit)
}

extension TextEdit {
    /// The byte offsets of the edit's span in `bytes`, or nil when the span
    /// is not in the file.
    ///
    /// Positions are counted the way every diagnostic's are (`SourceDecoding`,
    /// `SourceLines`, `SourcePosition.of`): a byte-order mark is not a column;
    /// lines break at `\n`, `\r\n`, a lone `\r`, NEL, U+2028 and U+2029;
    /// columns count Unicode scalars, decoded as UTF-16 after a UTF-16 mark
    /// and as UTF-8 otherwise, a bad sequence counting as the one U+FFFD it
    /// decodes to. A `\r\n` is one break: the position after it is the
    /// offset after the `\n`. Offsets count from the file's first byte, its
    /// mark included.
    public func byteRange(in bytes: [UInt8]) -> Range<Int>? {
        let offsets = SourceOffsets.offsets(of: [range.start, range.end], in: bytes)
        guard offsets.count == 2, let start = offsets[0], let end = offsets[1], start <= end else { return nil }
        return start..<end
    }
}

extension Fix {
    /// `bytes`, the file at `path`, with this fix's edits for that file made;
    /// edits naming other files are left for theirs.
    ///
    /// Edits are placed by `TextEdit.byteRange(in:)`, all against the bytes
    /// as given, and refused together when any is outside the file or two
    /// overlap (`FixError`). A replacement is written in the file's own
    /// encoding: UTF-16 in the file's byte order after a UTF-16 mark, UTF-8
    /// otherwise, so an edit never mixes encodings in one file.
    public func applied(to bytes: [UInt8], path: String) throws(FixError) -> [UInt8] {
        let edits = self.edits.filter { $0.range.file == path }
        var placed: [(range: Range<Int>, index: Int, edit: TextEdit)] = []
        placed.reserveCapacity(edits.count)
        let positions = edits.flatMap { [$0.range.start, $0.range.end] }
        let offsets = SourceOffsets.offsets(of: positions, in: bytes)
        for (index, edit) in edits.enumerated() {
            guard 2 * index + 1 < offsets.count, let start = offsets[2 * index], let end = offsets[2 * index + 1], start <= end else {
                throw .outsideFile(edit)
            }
            placed.append((start..<end, index, edit))
        }
        // By place, then as given, so a refusal names the same pair every time.
        placed.sort { ($0.range.lowerBound, $0.range.upperBound, $0.index) < ($1.range.lowerBound, $1.range.upperBound, $1.index) }
        for (previous, next) in zip(placed, placed.dropFirst())
        where previous.range.upperBound > next.range.lowerBound || previous.range.lowerBound == next.range.lowerBound {
            throw .overlapping(previous.edit, next.edit)
        }
        let encoding = SourceOffsets.Encoding(of: bytes)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + placed.reduce(0) { $0 + $1.edit.replacement.utf8.count * 2 })
        var copied = 0
        for (range, _, edit) in placed {
            result += bytes[copied..<range.lowerBound]
            result += encoding.encode(edit.replacement)
            copied = range.upperBound
        }
        result += bytes[copied...]
        return result
    }
}

/// Line-and-column positions to byte offsets, in one pass over a file.
package enum SourceOffsets {
    /// How a file's text is stored, as `SourceDecoding` reads it.
    package enum Encoding: Equatable {
        case utf8
        case utf16(littleEndian: Bool)

        package init(of bytes: [UInt8]) {
            if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE {
                self = .utf16(littleEndian: true)
            } else if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF {
                self = .utf16(littleEndian: false)
            } else {
                self = .utf8
            }
        }

        /// `text` in this encoding, without a byte-order mark.
        package func encode(_ text: String) -> [UInt8] {
            switch self {
            case .utf8:
                return Array(text.utf8)
            case .utf16(let littleEndian):
                var bytes: [UInt8] = []
                bytes.reserveCapacity(text.utf16.count * 2)
                for unit in text.utf16 {
                    let (high, low) = (UInt8(truncatingIfNeeded: unit >> 8), UInt8(truncatingIfNeeded: unit))
                    bytes += littleEndian ? [low, high] : [high, low]
                }
                return bytes
            }
        }
    }

    /// The offset of each position, or nil for one the file does not have.
    package static func offsets(of positions: [SourcePosition], in bytes: [UInt8]) -> [Int?] {
        var result = [Int?](repeating: nil, count: positions.count)
        // Positions in order, so each place in the file is compared with the
        // next one only: a fix run places every edit of a file in one pass.
        let order = positions.indices.sorted { positions[$0] < positions[$1] }
        var next = 0
        walk(bytes, while: { next < order.count }) { offset, here, _ in
            // One before this place was passed: a column past its line's end.
            while next < order.count, positions[order[next]] < here { next += 1 }
            while next < order.count, positions[order[next]] == here {
                result[order[next]] = offset
                next += 1
            }
        }
        return result
    }

    /// The position of each byte offset, the inverse of `offsets(of:in:)`
    /// for offsets between scalars, in one pass. One inside a scalar or a
    /// CRLF, or in the byte-order mark, is the place after it; one past the
    /// end is the end.
    package static func positions(of offsets: [Int], in bytes: [UInt8]) -> [SourcePosition] {
        var result = [SourcePosition](repeating: SourcePosition(line: 1, column: 1), count: offsets.count)
        let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
        var next = 0
        walk(bytes, while: { next < order.count }) { offset, here, atEnd in
            while next < order.count, atEnd || offsets[order[next]] <= offset {
                result[order[next]] = here
                next += 1
            }
        }
        return result
    }

    /// Visits the offset of each scalar with its line and column, then the
    /// end of the text, while `more` holds: lines break as `SourceLines`
    /// splits them, a CRLF being one break.
    private static func walk(
        _ bytes: [UInt8], while more: () -> Bool, _ visit: (_ offset: Int, _ position: SourcePosition, _ atEnd: Bool) -> Void
    ) {
        var line = 1, column = 1
        var cursor = Cursor(bytes)
        while more(), case let (scalar, length)? = cursor.next() {
            visit(cursor.offset, SourcePosition(line: line, column: column), false)
            var consumed = length
            switch scalar {
            case "\r":
                if case let (following, followingLength)? = cursor.peek(after: length), following == "\n" {
                    consumed += followingLength
                }
                line += 1
                column = 1
            case _ where LineBreaks.isBreak(scalar):
                line += 1
                column = 1
            default:
                column += 1
            }
            cursor.offset += consumed
        }
        if more() { visit(cursor.offset, SourcePosition(line: line, column: column), true) }
    }

    /// Reads scalars with their byte lengths, from after the byte-order mark.
    private struct Cursor {
        package let bytes: [UInt8]
        let encoding: Encoding
        package var offset: Int

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            encoding = Encoding(of: bytes)
            switch encoding {
            case .utf16: offset = 2
            case .utf8: offset = LineBreaks.utf8MarkLength(bytes, at: 0)
            }
        }

        /// The scalar at `offset` and how many bytes it takes, or nil at the end.
        func next() -> (Unicode.Scalar, Int)? { peek(after: 0) }

        /// The scalar `skip` bytes after `offset`.
        func peek(after skip: Int) -> (Unicode.Scalar, Int)? {
            let start = offset + skip
            guard start < bytes.count else { return nil }
            switch encoding {
            case .utf8:
                // ASCII, most of any recipe file, needs no parser.
                if bytes[start] < 0x80 { return (Unicode.Scalar(bytes[start]), 1) }
                var parser = Unicode.UTF8.ForwardParser()
                var iterator = bytes[start...].makeIterator()
                switch parser.parseScalar(from: &iterator) {
                case .valid(let encoded): return (Unicode.UTF8.decode(encoded), encoded.count)
                case .error(let length): return ("\u{FFFD}", length)
                case .emptyInput: return nil
                }
            case .utf16(let littleEndian):
                // A trailing odd byte is no unit: SourceDecoding drops it.
                func unit(at index: Int) -> UInt16? {
                    guard index + 1 < bytes.count else { return nil }
                    let (low, high) = littleEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
                    return UInt16(high) << 8 | UInt16(low)
                }
                guard let first = unit(at: start) else { return nil }
                if UTF16.isLeadSurrogate(first), let second = unit(at: start + 2), UTF16.isTrailSurrogate(second) {
                    let value = 0x10000 + (UInt32(first - 0xD800) << 10 | UInt32(second - 0xDC00))
                    return (Unicode.Scalar(value) ?? "\u{FFFD}", 4)
                }
                return (Unicode.Scalar(first) ?? "\u{FFFD}", 2)
            }
        }
    }
}
