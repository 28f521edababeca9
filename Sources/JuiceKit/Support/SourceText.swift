/// A file's text in UTF-8, with its line starts counted two ways: as libyaml
/// counts them, which every `SourcePosition` uses, and as the Language Server
/// Protocol counts them. Converts between positions, byte offsets of the
/// text, and LSP positions in UTF-16 code units or UTF-8 bytes.
///
/// The two ways differ: libyaml also breaks lines at NEL, U+2028 and U+2029
/// and does not count a leading byte-order mark as a column, and its columns
/// count Unicode scalars, where LSP counts UTF-16 units by default. Going
/// through the byte offset keeps a position exact across a Korean label, an
/// emoji or a CRLF line end.
struct SourceText: Sendable {
    /// How an LSP position's `character` counts.
    enum Units: Sendable {
        case utf16
        case utf8
    }

    /// The text, as valid UTF-8.
    let utf8: [UInt8]
    /// Where each libyaml line starts; the first is after a byte-order mark.
    private let yamlLineStarts: [Int]
    /// Where each LSP line starts (breaks at `\n`, `\r\n` and `\r` only).
    private let lspLineStarts: [Int]

    /// The text a client sent, as it is (a byte-order mark, if any, stays text).
    init(text: String) {
        self.init(utf8: Array(text.utf8))
    }

    /// A file's bytes as libyaml reads them: UTF-16 after its mark, otherwise
    /// UTF-8 with a bad sequence as U+FFFD (`SourceDecoding`).
    init(fileBytes bytes: [UInt8]) {
        self.init(utf8: Array(SourceDecoding.text(of: bytes).utf8))
    }

    /// Text already in UTF-8, such as an edited document's.
    init(utf8: [UInt8]) {
        self.utf8 = utf8
        let hasMark = utf8.count >= 3 && utf8[0] == 0xEF && utf8[1] == 0xBB && utf8[2] == 0xBF
        var yaml = [hasMark ? 3 : 0]
        var lsp = [0]
        var index = 0
        let count = utf8.count
        while index < count {
            switch utf8[index] {
            case 0x0A:
                index += 1
                yaml.append(index)
                lsp.append(index)
            case 0x0D:
                index += 1
                if index < count, utf8[index] == 0x0A { index += 1 }
                yaml.append(index)
                lsp.append(index)
            case 0xC2 where index + 1 < count && utf8[index + 1] == 0x85:
                index += 2
                yaml.append(index)
            case 0xE2 where index + 2 < count && utf8[index + 1] == 0x80 && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                index += 3
                yaml.append(index)
            default:
                index += 1
            }
        }
        yamlLineStarts = yaml
        lspLineStarts = lsp
    }

    /// The number of LSP lines (a text ending in a break has an empty last line).
    var lspLineCount: Int { lspLineStarts.count }

    // MARK: libyaml positions

    /// The byte offset of `position`; a column past its line's end is the
    /// line's end, and a line past the text is the text's end.
    func offset(of position: SourcePosition) -> Int {
        guard position.line >= 1 else { return yamlLineStarts[0] }
        guard position.line <= yamlLineStarts.count else { return utf8.count }
        var offset = yamlLineStarts[position.line - 1]
        var column = 1
        while column < position.column, offset < utf8.count, !isYAMLBreak(at: offset) {
            offset += Self.scalarLength(utf8[offset])
            column += 1
        }
        return min(offset, utf8.count)
    }

    /// The libyaml position of a byte offset.
    func position(atOffset offset: Int) -> SourcePosition {
        let offset = min(max(offset, yamlLineStarts[0]), utf8.count)
        let line = Self.lineIndex(of: offset, in: yamlLineStarts)
        var column = 1
        var cursor = yamlLineStarts[line]
        while cursor < offset {
            cursor += Self.scalarLength(utf8[cursor])
            column += 1
        }
        return SourcePosition(line: line + 1, column: column)
    }

    // MARK: LSP positions

    /// The LSP position (0-based line, character in `units`) of a byte offset.
    func lspPosition(atOffset offset: Int, units: Units) -> (line: Int, character: Int) {
        let offset = min(max(offset, 0), utf8.count)
        let line = Self.lineIndex(of: offset, in: lspLineStarts)
        let start = lspLineStarts[line]
        switch units {
        case .utf8:
            return (line, offset - start)
        case .utf16:
            var character = 0
            var cursor = start
            while cursor < offset {
                let length = Self.scalarLength(utf8[cursor])
                character += length == 4 ? 2 : 1
                cursor += length
            }
            return (line, character)
        }
    }

    /// The byte offset of an LSP position. As the protocol says, a character
    /// past the line's end means the end of the line, and a line past the
    /// text means its end; a character inside a scalar (half a surrogate
    /// pair, part of a UTF-8 sequence) means that scalar's start.
    func offset(lspLine line: Int, character: Int, units: Units) -> Int {
        guard line >= 0 else { return 0 }
        guard line < lspLineStarts.count else { return utf8.count }
        var cursor = lspLineStarts[line]
        var counted = 0
        while cursor < utf8.count, utf8[cursor] != 0x0A, utf8[cursor] != 0x0D {
            let length = Self.scalarLength(utf8[cursor])
            let width = units == .utf8 ? length : (length == 4 ? 2 : 1)
            if counted + width > character { break }
            counted += width
            cursor += length
        }
        return min(cursor, utf8.count)
    }

    /// The LSP position of a libyaml position.
    func lspPosition(of position: SourcePosition, units: Units) -> (line: Int, character: Int) {
        lspPosition(atOffset: offset(of: position), units: units)
    }

    /// The libyaml position of an LSP position.
    func position(lspLine line: Int, character: Int, units: Units) -> SourcePosition {
        position(atOffset: offset(lspLine: line, character: character, units: units))
    }

    // MARK: Lines

    /// The byte range of a libyaml line's text, without its break.
    func yamlLine(_ number: Int) -> Range<Int>? {
        guard number >= 1, number <= yamlLineStarts.count else { return nil }
        let start = yamlLineStarts[number - 1]
        var end = start
        while end < utf8.count, !isYAMLBreak(at: end) { end += 1 }
        return start..<end
    }

    /// The byte range of an LSP line's text, without its break.
    func lspLine(_ line: Int) -> Range<Int>? {
        guard line >= 0, line < lspLineStarts.count else { return nil }
        let start = lspLineStarts[line]
        var end = start
        while end < utf8.count, utf8[end] != 0x0A, utf8[end] != 0x0D { end += 1 }
        return start..<end
    }

    /// The text of a byte range.
    subscript(range: Range<Int>) -> String {
        let clamped = range.clamped(to: 0..<utf8.count)
        return String(decoding: utf8[clamped], as: UTF8.self)
    }

    /// How the text ends its lines: the first break's bytes, `\n` when none.
    var lineBreak: String {
        guard lspLineStarts.count > 1 else { return "\n" }
        let end = lspLineStarts[1]
        return end >= 2 && utf8[end - 2] == 0x0D && utf8[end - 1] == 0x0A ? "\r\n" : (utf8[end - 1] == 0x0D ? "\r" : "\n")
    }

    private func isYAMLBreak(at offset: Int) -> Bool {
        switch utf8[offset] {
        case 0x0A, 0x0D: return true
        case 0xC2: return offset + 1 < utf8.count && utf8[offset + 1] == 0x85
        case 0xE2: return offset + 2 < utf8.count && utf8[offset + 1] == 0x80 && (utf8[offset + 2] == 0xA8 || utf8[offset + 2] == 0xA9)
        default: return false
        }
    }

    /// The length of the UTF-8 sequence a lead byte starts (the text is
    /// valid UTF-8, so a lead byte tells it).
    private static func scalarLength(_ lead: UInt8) -> Int {
        switch lead {
        case ..<0xC0: return 1
        case ..<0xE0: return 2
        case ..<0xF0: return 3
        default: return 4
        }
    }

    /// The index of the last line start at or before `offset`.
    private static func lineIndex(of offset: Int, in starts: [Int]) -> Int {
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
