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
package struct SourceText: Sendable {
    /// How an LSP position's `character` counts.
    package enum Units: Sendable {
        case utf16
        case utf8
    }

    /// The text, as valid UTF-8.
    package let utf8: [UInt8]
    /// Where each libyaml line starts; the first is after a byte-order mark.
    private let yamlLineStarts: [Int]
    /// Where each LSP line starts (breaks at `\n`, `\r\n` and `\r` only).
    package let lspLineStarts: [Int]
    /// The scalars and UTF-16 units before every `checkpointSpacing`th byte
    /// (the first scalar start at or after it). A conversion counts from the
    /// nearest checkpoint rather than from its line's start, so it costs the
    /// same on a flow mapping of thousands of entries written on one line as
    /// on a short line: counting from the line's start made publishing such
    /// a file's diagnostics quadratic.
    private let checkpoints: [Checkpoint]

    /// What comes before a byte offset that starts a scalar.
    private struct Checkpoint: Sendable {
        package var offset: Int
        var scalars: Int
        var units: Int

        /// The UTF-16 units, or the scalars.
        package func count(inUnits: Bool) -> Int { inUnits ? units : scalars }
    }

    /// Bytes between checkpoints: a conversion reads at most about this many.
    static let checkpointSpacing = 256

    /// The text a client sent, as it is (a byte-order mark, if any, stays text).
    package init(text: String) {
        self.init(utf8: Array(text.utf8))
    }

    /// A file's bytes as libyaml reads them: UTF-16 after its mark, otherwise
    /// UTF-8 with a bad sequence as U+FFFD (`SourceDecoding`).
    package init(fileBytes bytes: [UInt8]) {
        self.init(utf8: Array(SourceDecoding.text(of: bytes).utf8))
    }

    /// Text already in UTF-8, such as an edited document's.
    package init(utf8: [UInt8]) {
        self.utf8 = utf8
        var yaml = [LineBreaks.utf8MarkLength(utf8, at: 0)]
        var lsp = [0]
        var index = 0
        let count = utf8.count
        while index < count {
            guard let lineBreak = LineBreaks.utf8Break(in: utf8, at: index) else {
                index += 1
                continue
            }
            index += lineBreak.length
            yaml.append(index)
            if lineBreak.countedByProtocol { lsp.append(index) }
        }
        yamlLineStarts = yaml
        lspLineStarts = lsp
        checkpoints = Self.checkpoints(of: utf8)
    }

    private static func checkpoints(of utf8: [UInt8]) -> [Checkpoint] {
        var checkpoints = [Checkpoint(offset: 0, scalars: 0, units: 0)]
        checkpoints.reserveCapacity(utf8.count / checkpointSpacing + 1)
        var scalars = 0, units = 0
        var next = checkpointSpacing
        utf8.withUnsafeBufferPointer { bytes in
            for index in bytes.indices where bytes[index] & 0xC0 != 0x80 {
                if index >= next {
                    checkpoints.append(Checkpoint(offset: index, scalars: scalars, units: units))
                    next = (index / checkpointSpacing + 1) * checkpointSpacing
                }
                scalars += 1
                units += bytes[index] >= 0xF0 ? 2 : 1
            }
        }
        return checkpoints
    }

    /// The number of LSP lines (a text ending in a break has an empty last line).
    var lspLineCount: Int { lspLineStarts.count }

    // MARK: libyaml positions

    /// The byte offset of `position`; a column past its line's end is the
    /// line's end, and a line past the text is the text's end.
    package func offset(of position: SourcePosition) -> Int {
        guard position.line >= 1 else { return yamlLineStarts[0] }
        guard position.line <= yamlLineStarts.count else { return utf8.count }
        guard let line = yamlLine(position.line) else { return utf8.count }
        let (target, overflow) = counts(before: line.lowerBound).scalars.addingReportingOverflow(max(position.column - 1, 0))
        let limit = overflow ? Int.max : target
        guard var (cursor, counted) = walkStart(on: line, towards: limit, inUnits: false) else { return line.upperBound }
        while counted < limit, cursor < line.upperBound {
            cursor += Self.scalarLength(utf8[cursor])
            counted += 1
        }
        return min(cursor, line.upperBound)
    }

    /// The libyaml position of a byte offset.
    package func position(atOffset offset: Int) -> SourcePosition {
        let offset = min(max(offset, yamlLineStarts[0]), utf8.count)
        let line = Self.lineIndex(of: offset, in: yamlLineStarts)
        return SourcePosition(line: line + 1, column: counts(before: offset).scalars - counts(before: yamlLineStarts[line]).scalars + 1)
    }

    // MARK: LSP positions

    /// The LSP position (0-based line, character in `units`) of a byte offset.
    package func lspPosition(atOffset offset: Int, units: Units) -> (line: Int, character: Int) {
        let offset = min(max(offset, 0), utf8.count)
        let line = Self.lineIndex(of: offset, in: lspLineStarts)
        let start = lspLineStarts[line]
        switch units {
        case .utf8:
            return (line, offset - start)
        case .utf16:
            return (line, counts(before: offset).units - counts(before: start).units)
        }
    }

    /// The byte offset of an LSP position. As the protocol says, a character
    /// past the line's end means the end of the line, and a line past the
    /// text means its end; a character inside a scalar (half a surrogate
    /// pair, part of a UTF-8 sequence) means that scalar's start.
    package func offset(lspLine line: Int, character: Int, units: Units) -> Int {
        guard line >= 0 else { return 0 }
        guard line < lspLineStarts.count else { return utf8.count }
        let line = lspLineStarts[line]..<lspLineEnd(line)
        guard units == .utf16 else { return Self.offset(in: utf8, line: line, character: character, units: .utf8) }
        let (target, overflow) = counts(before: line.lowerBound).units.addingReportingOverflow(max(character, 0))
        let limit = overflow ? Int.max : target
        guard let (cursor, counted) = walkStart(on: line, towards: limit, inUnits: true) else { return line.upperBound }
        return Self.offset(in: utf8, line: line, character: limit, units: .utf16, from: cursor, counted: counted)
    }

    /// The offset of `character` (in `units`) on `line`, a line's text in
    /// `utf8`, read as `offset(lspLine:character:units:)` says, counting
    /// from `cursor` on the line, which has `counted` units before it.
    package static func offset(in utf8: [UInt8], line: Range<Int>, character: Int, units: Units, from cursor: Int? = nil, counted: Int = 0) -> Int {
        var cursor = cursor ?? line.lowerBound, counted = counted
        let character = max(character, 0)
        if units == .utf8 {
            // A byte count needs no walk: step back to the scalar's start.
            cursor = character - counted < line.upperBound - cursor ? cursor + character - counted : line.upperBound
            while cursor > line.lowerBound, cursor < utf8.count, utf8[cursor] & 0xC0 == 0x80 { cursor -= 1 }
            return cursor
        }
        while cursor < line.upperBound {
            let length = scalarLength(utf8[cursor])
            let width = length == 4 ? 2 : 1
            if counted > character - width { break }
            counted += width
            cursor += length
        }
        return min(cursor, line.upperBound)
    }

    /// Where to start walking on `line` towards the scalar or UTF-16 unit
    /// count `target` (counted from the text's start): the last checkpoint
    /// at or below it, or the line's start, and the count there; nil when
    /// that checkpoint is past the line, which has fewer than `target`.
    private func walkStart(on line: Range<Int>, towards target: Int, inUnits: Bool) -> (offset: Int, count: Int)? {
        var low = 0, high = checkpoints.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if checkpoints[middle].count(inUnits: inUnits) <= target { low = middle } else { high = middle - 1 }
        }
        let checkpoint = checkpoints[low]
        if checkpoint.offset > line.upperBound { return nil }
        if checkpoint.offset > line.lowerBound { return (checkpoint.offset, checkpoint.count(inUnits: inUnits)) }
        let counted = counts(before: line.lowerBound)
        return (line.lowerBound, inUnits ? counted.units : counted.scalars)
    }

    /// The scalars and UTF-16 units that start before `offset`.
    private func counts(before offset: Int) -> (scalars: Int, units: Int) {
        let offset = min(max(offset, 0), utf8.count)
        var index = min(offset / Self.checkpointSpacing, checkpoints.count - 1)
        if checkpoints[index].offset > offset { index -= 1 }
        var (scalars, units) = (checkpoints[index].scalars, checkpoints[index].units)
        for cursor in checkpoints[index].offset..<offset where utf8[cursor] & 0xC0 != 0x80 {
            scalars += 1
            units += utf8[cursor] >= 0xF0 ? 2 : 1
        }
        return (scalars, units)
    }

    /// The LSP position of a libyaml position.
    package func lspPosition(of position: SourcePosition, units: Units) -> (line: Int, character: Int) {
        lspPosition(atOffset: offset(of: position), units: units)
    }

    /// The libyaml position of an LSP position.
    package func position(lspLine line: Int, character: Int, units: Units) -> SourcePosition {
        position(atOffset: offset(lspLine: line, character: character, units: units))
    }

    // MARK: Lines

    /// The byte range of a libyaml line's text, without its break.
    package func yamlLine(_ number: Int) -> Range<Int>? {
        guard number >= 1, number <= yamlLineStarts.count else { return nil }
        let start = yamlLineStarts[number - 1]
        guard number < yamlLineStarts.count else { return start..<utf8.count }
        var end = yamlLineStarts[number]
        switch utf8[end - 1] {
        case 0x0A: end -= end - 2 >= start && utf8[end - 2] == 0x0D ? 2 : 1
        case 0x0D: end -= 1
        case 0x85: end -= 2
        default: end -= 3
        }
        return start..<max(start, end)
    }

    /// The byte range of an LSP line's text, without its break.
    package func lspLine(_ line: Int) -> Range<Int>? {
        guard line >= 0, line < lspLineStarts.count else { return nil }
        return lspLineStarts[line]..<lspLineEnd(line)
    }

    /// Where an LSP line's text ends, before its break.
    private func lspLineEnd(_ line: Int) -> Int {
        let start = lspLineStarts[line]
        guard line + 1 < lspLineStarts.count else { return utf8.count }
        let next = lspLineStarts[line + 1]
        let crlf = utf8[next - 1] == 0x0A && next - 2 >= start && utf8[next - 2] == 0x0D
        return max(start, next - (crlf ? 2 : 1))
    }

    /// The text of a byte range.
    package subscript(range: Range<Int>) -> String {
        let clamped = range.clamped(to: 0..<utf8.count)
        return String(decoding: utf8[clamped], as: UTF8.self)
    }

    /// How the text ends its lines: the first break's bytes, `\n` when none.
    package var lineBreak: String {
        guard lspLineStarts.count > 1 else { return "\n" }
        let end = lspLineStarts[1]
        return end >= 2 && utf8[end - 2] == 0x0D && utf8[end - 1] == 0x0A ? "\r\n" : (utf8[end - 1] == 0x0D ? "\r" : "\n")
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
