import Testing
@_spi(Internals) @testable import JuiceSupport
@testable import JuiceSource
@testable import JuiceLanguageServer

/// The language server's parts that need no session: the JSON reader, the
/// framer, position conversion and the completion context.
@Suite struct LanguageServerPartsTests {
    // MARK: JSON

    @Test func jsonReadsEveryKindOfValueAndWritesItBack() throws {
        let text = #"{"a":[1,-2,3.5,1e3,true,false,null],"b":{"c":"x\"y\\z\n\u00e9\ud83e\udd5d"},"a":0}"#
        let value = try JSONValue.parse(text)
        #expect(value["a"] == .array([.int(1), .int(-2), .double(3.5), .double(1000), .bool(true), .bool(false), .null]))
        #expect(value["b"]?["c"]?.string == "x\"y\\z\né🥝")
        // The first of a repeated key is found; both are kept in order.
        #expect(value.serialized == #"{"a":[1,-2,3.5,1000.0,true,false,null],"b":{"c":"x\"y\\z\né🥝"},"a":0}"#)
    }

    @Test func jsonRefusesWhatIsNotJSONAndSaysWhere() {
        for (text, offset) in [("{\"a\":1,}", 7), ("[1 2]", 3), ("\"abc", 4), ("01", 1), ("{'a':1}", 1), ("", 0), ("nul", 0)] {
            #expect(throws: JSONParseError.self, "\(text)") { try JSONValue.parse(text) }
            do {
                _ = try JSONValue.parse(text)
            } catch {
                #expect(error.offset == offset, "\(text)")
            }
        }
    }

    @Test func jsonNestingIsBoundedWithoutRecursion() throws {
        let deep = String(repeating: "[", count: JSONValue.maximumDepth) + String(repeating: "]", count: JSONValue.maximumDepth)
        #expect(try JSONValue.parse(deep).array?.count == 1)
        let tooDeep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(tooDeep) }
    }

    @Test func jsonLoneSurrogatesAndBadUTF8BecomeReplacementCharacters() throws {
        #expect(try JSONValue.parse(#""\ud83e x""#).string == "\u{FFFD} x")
        #expect(try JSONValue.parse(Array("\"a".utf8) + [0xFF] + Array("b\"".utf8)).string == "a\u{FFFD}b")
    }

    // MARK: Framing

    private func frames(_ pieces: [[UInt8]]) -> [MessageFramer.Frame] {
        var framer = MessageFramer()
        var out: [MessageFramer.Frame] = []
        for piece in pieces {
            framer.append(piece)
            while let frame = framer.next() { out.append(frame) }
        }
        return out
    }

    @Test func framerJoinsPiecesAndCountsBytes() {
        let body = Array(#"{"label":"딸기"}"#.utf8)
        let stream = Array("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
        // Every split point, one byte at a time included.
        #expect(frames(stream.map { [$0] }) == [.body(body)])
        #expect(frames([Array(stream[..<10]), Array(stream[10...]) + stream]) == [.body(body), .body(body)])
    }

    @Test func framerDropsBadHeadersAndReadsOn() {
        let good = Array("Content-Length: 2\r\n\r\n{}".utf8)
        #expect(frames([Array("Content-Type: x\r\n\r\n".utf8) + good]) == [.dropped("a header block with no Content-Length"), .body(Array("{}".utf8))])
        #expect(frames([Array("Content-Length: -3\r\n\r\n".utf8) + good]) == [
            .dropped("a Content-Length that is not a whole number: '-3'"), .body(Array("{}".utf8)),
        ])
        // A length one short leaves a byte before the next header, which is still read.
        let short = Array("Content-Length: 1\r\n\r\n{}".utf8) + good
        #expect(frames([short]) == [.body(Array("{".utf8)), .body(Array("{}".utf8))])
        let huge = MessageFramer.maximumBodyBytes + 1
        let result = frames([Array("Content-Length: \(huge)\r\n\r\n".utf8), [UInt8](repeating: 0x20, count: 10)])
        #expect(result == [.dropped("a message of \(huge) bytes, over the 256 MiB limit")])
        let endless = [UInt8](repeating: 0x41, count: MessageFramer.maximumHeaderBytes + 10)
        #expect(frames([endless, good]) == [.dropped("a header block longer than 65536 bytes"), .body(Array("{}".utf8))])
    }

    // MARK: Positions

    @Test func positionsCountUTF16UnitsAfterHangulAndEmoji() {
        // libyaml's columns count scalars: 'x' is column 17 on line 2.
        let text = SourceText(text: "a: 1\r\nb: { 딸기🍓 망고: 1, x: 2 }\r\n")
        let position = SourcePosition(line: 2, column: 17)
        let offset = text.offset(of: position)
        #expect(text[offset..<offset + 1] == "x")
        #expect(text.lspPosition(atOffset: offset, units: .utf16) == (1, 17))
        #expect(text.lspPosition(atOffset: offset, units: .utf8) == (1, 27))
        #expect(text.position(lspLine: 1, character: 17, units: .utf16) == position)
        // Half a surrogate pair is the emoji's start; past the line is its end.
        #expect(text.offset(lspLine: 1, character: 8, units: .utf16) == text.offset(of: SourcePosition(line: 2, column: 8)))
        #expect(text.lspPosition(atOffset: text.offset(lspLine: 1, character: 500, units: .utf16), units: .utf16) == (1, 23))
        #expect(text.offset(lspLine: 99, character: 0, units: .utf16) == text.utf8.count)
    }

    @Test func libyamlLineBreaksThatLSPDoesNotCountAreKeptApart() {
        // NEL breaks a libyaml line but not an LSP line; a BOM is no column.
        let text = SourceText(text: "\u{FEFF}a\u{85}b: c\n")
        let b = text.offset(of: SourcePosition(line: 2, column: 1))
        #expect(text[b..<b + 1] == "b")
        #expect(text.lspPosition(atOffset: b, units: .utf16) == (0, 3))
        #expect(text.position(atOffset: b) == SourcePosition(line: 2, column: 1))
    }

    // MARK: Completion context

    private func context(_ text: String) -> CompletionContext? {
        let marker = text.utf8.firstIndex(of: UInt8(ascii: "|")) ?? text.utf8.endIndex
        let offset = text.utf8.distance(from: text.utf8.startIndex, to: marker)
        return CompletionContext(text: SourceText(text: text.replacing("|", with: "")), offset: offset)
    }

    @Test func completionContextReadsFlowAndBlockStyle() {
        let flow = context("menu:\n  kiwi-juice:\n    recipe: { kiwi: 3, ma| , banana: 1 }\n")
        #expect(flow == CompletionContext(path: ["menu", "kiwi-juice", "recipe"], atKey: true, siblings: ["kiwi", "banana"], partial: "ma"))
        let block = context("recipes:\n  base:\n    mango: 1\n    pi|\n    kiwi: 2\nmenu:\n")
        #expect(block == CompletionContext(path: ["recipes", "base"], atKey: true, siblings: ["mango", "kiwi"], partial: "pi"))
        #expect(context("version: 1\nst|")?.path == [])
        #expect(context("stock:\n  kiwi: 1|")?.atKey == false)
        #expect(context("menu:\n  a:\n    label: '{ x|")  == nil)
        #expect(context("menu:\n  a: # recipe: { |") == nil)
        // An entry before a nested mapping is still a sibling after it
        // (the long form's `recipe:`), and so is one after the cursor.
        let long = context("recipes:\n  jam: { recipe: { mango: 1 }, y| , label: J }\n")
        #expect(long == CompletionContext(path: ["recipes", "jam"], atKey: true, siblings: ["recipe", "label"], partial: "y"))
    }
}
