import DifferentialSupport
import Testing
@_spi(Internals) @testable import JuiceSupport
@testable import JuiceSource
@testable import JuiceLanguageServer

/// What a client cannot do to the language server's parts: make the JSON
/// reader, the framer, the completion context or a position conversion take
/// time out of proportion to the input, or make the framer lose the stream.
///
/// The time bounds are for a debug build on a loaded machine, far above what
/// each takes (well under a second) and far below what the quadratic code
/// they replaced took on the same input (minutes to hours).
@Suite struct LanguageServerRobustnessTests {
    private func seconds(_ body: () throws -> Void) rethrows -> Double {
        try secondsTaken(body)
    }

    // MARK: JSON

    @Test func aMillionElementArrayAndAQuarterMillionMemberObjectReadInLinearTime() throws {
        // Each element used to copy the whole array before it: 1,000,000
        // elements were about 10^12 bytes copied.
        let array = "[" + String(repeating: "7,", count: 999_999) + "8]"
        var value = JSONValue.null
        #expect(try seconds { value = try JSONValue.parse(array) } < 10)
        #expect(value.array?.count == 1_000_000)
        #expect(value.array?.first == .int(7) && value.array?.last == .int(8))

        let object = "{" + (0..<250_000).map { "\"k\($0)\":[\($0)]" }.joined(separator: ",") + "}"
        #expect(try seconds { value = try JSONValue.parse(object) } < 10)
        guard case .object(let members) = value else {
            Issue.record("not an object")
            return
        }
        #expect(members.count == 250_000)
        #expect(members[123_456].key == "k123456" && members[123_456].value == .array([.int(123_456)]))
    }

    @Test func containersCloseIntoTheRightParents() throws {
        let text = #"[{"a":[1,{"b":[]},[2,[3]]],"c":{}},[[],{"d":null}],"e"]"#
        #expect(try JSONValue.parse(text).serialized == text)
        // A member name still comes after a ',' inside an object in an array.
        #expect(throws: JSONParseError.self) { try JSONValue.parse(#"[{"a":1,2}]"#) }
        #expect(throws: JSONParseError.self) { try JSONValue.parse(#"{"a":[1}"#) }
    }

    @Test func numbersAtTheEdgesOfInt() throws {
        let text = "[0,-0,-12,9223372036854775807,-9223372036854775808,9223372036854775808,-9223372036854775809,1.5,-2e3]"
        #expect(try JSONValue.parse(text) == .array([
            .int(0), .int(0), .int(-12), .int(Int.max), .int(Int.min), .double(9223372036854775808), .double(-0x1p63),
            .double(1.5), .double(-2000),
        ]))
    }

    @Test func aUnicodeEscapeIsFourHexDigitsWithNoSign() throws {
        #expect(try JSONValue.parse(#""\u00e9\u00C9""#).string == "éÉ")
        for text in [#""\u+041""#, #""\u-000""#, #""\u 041""#, #""\u04g1""#] {
            #expect(throws: JSONParseError.self, "\(text)") { try JSONValue.parse(text) }
        }
        #expect(DocumentURI.path(of: "file:///a%2Bb%c3%a9") == "/a+bé")
        #expect(DocumentURI.path(of: "file:///a%+fb") == nil)
        #expect(DocumentURI.path(of: "file:///a%-1b") == nil)
    }

    // MARK: Framing

    private func frames(_ stream: [UInt8]) -> [MessageFramer.Frame] {
        var framer = MessageFramer()
        framer.append(stream)
        var out: [MessageFramer.Frame] = []
        while let frame = framer.next() { out.append(frame) }
        return out
    }

    @Test func afterADroppedHeaderTheNextMessageIsReadBehindTheOldBody() {
        let body = Array(#"{"jsonrpc":"2.0","method":"$/x","params":{}}"#.utf8)
        let next = Array(#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#.utf8)
        let good = Array("Content-Length: \(next.count)\r\n\r\n".utf8) + next
        // A malformed length, a misspelt name: the whole body is left in
        // front of the next header, `:` and all.
        #expect(frames(Array("Content-Length: 1x\r\n\r\n".utf8) + body + good) == [
            .dropped("a Content-Length that is not a whole number: '1x'"), .body(next),
        ])
        #expect(frames(Array("Content-Lenght: \(body.count)\r\n\r\n".utf8) + body + good) == [
            .dropped("a header block with no Content-Length"), .body(next),
        ])
        // A length 5 short: its end (`ams":{}}`) is before the next header.
        #expect(frames(Array("Content-Length: \(body.count - 5)\r\n\r\n".utf8) + body + good) == [
            .body(Array(body.prefix(body.count - 5))), .body(next),
        ])
        // Another header before it on the leftover's line, and a name in any case.
        #expect(frames(body + Array("content-LENGTH : 2\r\n\r\n{}".utf8)) == [.body(Array("{}".utf8))])
        #expect(frames(Array("x\r\n\r\n".utf8) + body + Array("Content-Type: a\r\nContent-Length: 2\r\n\r\n{}".utf8)) == [
            .dropped("a header block with no Content-Length"), .body(Array("{}".utf8)),
        ])
    }

    @Test func aHeaderWhoseNameOnlyEndsInContentLengthIsNotTheLength() {
        #expect(frames(Array("X-Content-Length: 5\r\nContent-Length: 2\r\n\r\n{}".utf8)) == [.body(Array("{}".utf8))])
        #expect(frames(Array("Content-Length: 2\r\nX-Content-Length: 5\r\n\r\n{}".utf8)) == [.body(Array("{}".utf8))])
        #expect(frames(Array("X-Content-Length: 5\r\n\r\n{}".utf8)) == [.dropped("a header block with no Content-Length")])
        #expect(frames(Array("Content-Length-X: 5\r\n\r\n".utf8)) == [.dropped("a header block with no Content-Length")])
    }

    // MARK: Completion and positions on a long line

    @Test func completionOnALongLineTakesLinearTime() {
        let text = SourceText(text: String(repeating: "a", count: 200_000))
        var context: CompletionContext?
        #expect(seconds { context = CompletionContext(text: text, offset: 200_000) } < 10)
        #expect(context?.atKey == true && context?.partial.count == 200_000)
        // The key is still read from the first `:`, after a long run without one.
        let long = String(repeating: "x", count: 100_000)
        let flow = SourceText(text: long + ": { a")
        #expect(seconds { context = CompletionContext(text: flow, offset: flow.utf8.count) } < 10)
        #expect(context == CompletionContext(path: [long], atKey: true, siblings: [], partial: "a"))
    }

    @Test func positionsOnAOneLineFlowMappingOfTenThousandEntries() {
        // Where each entry starts: libyaml column, byte offset, UTF-16 units.
        var line = "fruits: {"
        var entries: [(column: Int, offset: Int, units: Int)] = []
        var scalars = line.unicodeScalars.count, bytes = line.utf8.count, units = line.utf16.count
        for index in 0..<10_000 {
            let entry = (index == 0 ? "" : ", ") + "f\(index)🥝: {label: 딸기}"
            let separator = index == 0 ? 0 : 2
            entries.append((scalars + separator + 1, bytes + separator, units + separator))
            line += entry
            scalars += entry.unicodeScalars.count
            bytes += entry.utf8.count
            units += entry.utf16.count
        }
        let text = SourceText(text: line + "}\n")
        var checked = 0
        // Each conversion used to walk from the line's start: about 4 * 10^9
        // steps for these 40,000.
        let elapsed = seconds {
            for entry in entries {
                let offset = text.offset(of: SourcePosition(line: 1, column: entry.column))
                guard offset == entry.offset,
                      text.lspPosition(atOffset: offset, units: .utf16) == (0, entry.units),
                      text.offset(lspLine: 0, character: entry.units, units: .utf16) == offset,
                      text.position(atOffset: offset) == SourcePosition(line: 1, column: entry.column)
                else { continue }
                checked += 1
            }
        }
        #expect(checked == 10_000)
        #expect(elapsed < 10)
    }

    /// Every conversion agrees with the plain walk from the line's start
    /// (the code the checkpoints replaced) on random text with every kind
    /// of line break, multi-byte scalars and lines longer than a checkpoint.
    @Test func checkpointedConversionsAgreeWithThePlainWalk() {
        let pieces = ["a", ":", " ", "é", "딸", "🥝", "\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}", String(repeating: "b", count: 300)]
        var random = SplitMix64(seed: 1_314)
        for round in 0..<60 {
            var string = round % 5 == 0 ? "\u{FEFF}" : ""
            for _ in 0..<random.int(in: 0...400) { string += pieces[random.int(in: 0...(pieces.count - 1))] }
            let text = SourceText(text: string), naive = NaivePositions(string)
            let count = text.utf8.count
            for offset in stride(from: -1, through: count + 1, by: max(1, count / 300)) {
                #expect(text.position(atOffset: offset) == naive.position(offset), "round \(round) offset \(offset)")
                #expect(text.lspPosition(atOffset: offset, units: .utf16) == naive.lspPosition(offset, utf16: true), "round \(round)")
                #expect(text.lspPosition(atOffset: offset, units: .utf8) == naive.lspPosition(offset, utf16: false), "round \(round)")
            }
            for line in -1...(naive.lspStarts.count + 1) {
                for character in [0, 1, 2, 5, 37, 255, 256, 257, 600, 2_000, Int.max] {
                    #expect(text.offset(lspLine: line, character: character, units: .utf16) == naive.offset(lspLine: line, character, utf16: true),
                            "round \(round) \(line):\(character)")
                    #expect(text.offset(lspLine: line, character: character, units: .utf8) == naive.offset(lspLine: line, character, utf16: false),
                            "round \(round) \(line):\(character)")
                }
            }
            for line in -1...(naive.yamlStarts.count + 1) {
                for column in [Int.min, 0, 1, 2, 6, 200, 301, 1_000, Int.max] {
                    #expect(text.offset(of: SourcePosition(line: line, column: column)) == naive.offset(line: line, column: column),
                            "round \(round) \(line):\(column)")
                }
                let range = text.yamlLine(line)
                #expect(range == naive.yamlLine(line), "round \(round) line \(line)")
            }
            for line in -1...(naive.lspStarts.count + 1) {
                #expect(text.lspLine(line) == naive.lspLine(line), "round \(round) line \(line)")
            }
        }
    }
}

/// How long `body` took, in seconds.
func secondsTaken(_ body: () throws -> Void) rethrows -> Double {
    let elapsed = try ContinuousClock().measure(body)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// Positions the plain way: every conversion walks from its line's start.
private struct NaivePositions {
    let utf8: [UInt8]
    var yamlStarts: [Int] = []
    var lspStarts = [0]

    init(_ text: String) {
        utf8 = Array(text.utf8)
        yamlStarts = [utf8.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0]
        var index = 0
        while index < utf8.count {
            if utf8[index] == 0x0A || utf8[index] == 0x0D {
                index += utf8[index] == 0x0D && index + 1 < utf8.count && utf8[index + 1] == 0x0A ? 2 : 1
                yamlStarts.append(index)
                lspStarts.append(index)
            } else if utf8[index...].starts(with: [0xC2, 0x85]) {
                index += 2
                yamlStarts.append(index)
            } else if utf8[index...].starts(with: [0xE2, 0x80, 0xA8]) || utf8[index...].starts(with: [0xE2, 0x80, 0xA9]) {
                index += 3
                yamlStarts.append(index)
            } else {
                index += 1
            }
        }
    }

    private func length(_ lead: UInt8) -> Int { lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4 }
    private func isYAMLBreak(_ at: Int) -> Bool {
        utf8[at] == 0x0A || utf8[at] == 0x0D || utf8[at...].starts(with: [0xC2, 0x85])
            || utf8[at...].starts(with: [0xE2, 0x80, 0xA8]) || utf8[at...].starts(with: [0xE2, 0x80, 0xA9])
    }
    private func line(of offset: Int, _ starts: [Int]) -> Int { (starts.lastIndex { $0 <= offset }) ?? 0 }

    func offset(line: Int, column: Int) -> Int {
        guard line >= 1 else { return yamlStarts[0] }
        guard line <= yamlStarts.count else { return utf8.count }
        var offset = yamlStarts[line - 1], counted = 1
        while counted < column, offset < utf8.count, !isYAMLBreak(offset) {
            offset += length(utf8[offset])
            counted += 1
        }
        return min(offset, utf8.count)
    }

    func position(_ offset: Int) -> SourcePosition {
        let offset = min(max(offset, yamlStarts[0]), utf8.count)
        let line = line(of: offset, yamlStarts)
        var cursor = yamlStarts[line], column = 1
        while cursor < offset {
            cursor += length(utf8[cursor])
            column += 1
        }
        return SourcePosition(line: line + 1, column: column)
    }

    func lspPosition(_ offset: Int, utf16: Bool) -> (line: Int, character: Int) {
        let offset = min(max(offset, 0), utf8.count)
        let line = line(of: offset, lspStarts)
        guard utf16 else { return (line, offset - lspStarts[line]) }
        var cursor = lspStarts[line], character = 0
        while cursor < offset {
            character += length(utf8[cursor]) == 4 ? 2 : 1
            cursor += length(utf8[cursor])
        }
        return (line, character)
    }

    func offset(lspLine line: Int, _ character: Int, utf16: Bool) -> Int {
        guard line >= 0 else { return 0 }
        guard line < lspStarts.count else { return utf8.count }
        var cursor = lspStarts[line], counted = 0
        while cursor < utf8.count, utf8[cursor] != 0x0A, utf8[cursor] != 0x0D {
            let width = utf16 ? (length(utf8[cursor]) == 4 ? 2 : 1) : length(utf8[cursor])
            if counted > character - width { break }
            counted += width
            cursor += length(utf8[cursor])
        }
        return cursor
    }

    func yamlLine(_ number: Int) -> Range<Int>? {
        guard number >= 1, number <= yamlStarts.count else { return nil }
        var end = yamlStarts[number - 1]
        while end < utf8.count, !isYAMLBreak(end) { end += 1 }
        return yamlStarts[number - 1]..<end
    }

    func lspLine(_ line: Int) -> Range<Int>? {
        guard line >= 0, line < lspStarts.count else { return nil }
        var end = lspStarts[line]
        while end < utf8.count, utf8[end] != 0x0A, utf8[end] != 0x0D { end += 1 }
        return lspStarts[line]..<end
    }
}
