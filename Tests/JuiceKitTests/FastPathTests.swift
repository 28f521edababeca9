import Foundation
import Testing
@_spi(Internals) @testable import JuiceSupport
@testable import JuiceSource
@testable import JuiceDiagnostics
@_spi(Internals) @testable import JuiceYAML
@testable import JuiceBook
@testable import JuiceEngine
@testable import JuiceSimulation
@testable import JuiceLint
@testable import JuiceLanguageServer

/// The byte-level fast paths must give exactly what the general code gives.
@Suite struct FastPathTests {
    /// Strings that need no escape are copied whole; the rest go scalar by
    /// scalar. Both must give RFC 8259 JSON, the same either way.
    @Test(arguments: [
        ("mango", #""mango""#),
        ("망고 주스", #""망고 주스""#),
        ("wait… what", #""wait… what""#),
        ("a\u{2028}b\u{2029}c", #""a\u2028b\u2029c""#),
        ("say \"hi\" \\ bye", #""say \"hi\" \\ bye""#),
        ("tab\tnew\nline\r\u{08}\u{0C}", #""tab\tnew\nline\r\b\f""#),
        ("\u{01}\u{1F}\u{7F}", #""\u0001\u001f\u007f""#),
        ("", #""""#),
    ])
    func jsonStringsAreEscapedTheSameOnBothPaths(text: String, expected: String) {
        var output = ""
        JSONWriter.appendString(text, to: &output)
        #expect(output == expected)
    }

    /// Reserved ids are compared, not looked up: the two lists must agree.
    @Test func reservedIDsAreTheSameBothWays() {
        for id in RecipeValues.reservedIDs { #expect(RecipeValues.isReserved(id)) }
        for id in ["", "mango", "Stock", "stocks", "restoc", "sett", "set ", "re-stock"] {
            #expect(RecipeValues.isReserved(id) == RecipeValues.reservedIDs.contains(id), "\(id)")
        }
    }

    /// One reader for every whole number (`WholeNumber`): what each spelling
    /// reads as, from a `String` and from a `Substring` alike.
    @Test(arguments: [
        ("", WholeNumber.notANumber), ("0", .value(0)), ("1", .value(1)), ("7", .value(7)), ("20", .value(20)),
        ("007", .leadingZero(7)), ("00", .leadingZero(0)), ("0x1", .notANumber), ("-1", .negative), ("-0", .notANumber),
        ("--1", .notANumber), ("+1", .notANumber), ("1_000", .notANumber), ("1.5", .notANumber), ("1e3", .notANumber),
        (" 1", .notANumber), ("1 ", .notANumber), ("٣", .notANumber), ("１２", .notANumber),
        ("999999999999999999", .value(999_999_999_999_999_999)), ("9999999999999999999", .tooLarge),
        ("9223372036854775807", .value(Int.max)), ("9223372036854775808", .tooLarge),
        ("000000000000000000000", .leadingZero(0)), ("12345678901234567a", .notANumber),
        ("09223372036854775808", .leadingZero(nil)), ("-", .notANumber), ("-99999999999999999999", .negative),
    ])
    func wholeNumbersReadTheSameFromEveryText(_ text: String, expected: WholeNumber) {
        #expect(WholeNumber(text) == expected, "\(text)")
        #expect(WholeNumber(text[...]) == expected, "\(text)")
        #expect(WholeNumber(("[" + text + "]").dropFirst().dropLast()) == expected, "\(text)")
    }

    @Test func paddedValuesAllowLeadingZerosOnly() {
        #expect(WholeNumber("007").paddedValue == 7)
        #expect(WholeNumber("42").paddedValue == 42)
        #expect(WholeNumber("00").paddedValue == 0)
        #expect(WholeNumber("09223372036854775808").paddedValue == nil)
        #expect(WholeNumber("-3").paddedValue == nil)
        #expect(WholeNumber("+3").paddedValue == nil)
    }

    static let book: RecipeBook = {
        let yaml = #"""
            fruits: { 'a"b': , 'c\d': , 망고: }
            stock: { 'a"b': 1, 'c\d': 0, 망고: 3 }
            menu:
              'q"x': { recipe: { 'a"b': 2, 'c\d': 1 } }
              망고쥬스: { recipe: { 망고: 1 } }
            """#
        return RecipeCompiler.compile([SourceFile(path: "x.yaml", bytes: Array(yaml.utf8))]).book!
    }()

    @Test(arguments: [
        (0, JuiceMaker.Outcome.served),
        (0, .refused([Shortage(fruit: 0, need: 2, have: 1), Shortage(fruit: 1, need: 1, have: 0)])),
        (1, .refused([Shortage(fruit: 2, need: Int.max, have: 0)])),
    ])
    func orderEventsMatchTheJSONWriter(menu: Int, outcome: JuiceMaker.Outcome) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fast-\(UUID().uuidString)").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { unlink(path) }
        var reporter = JSONLinesSimulationReporter(
            book: Self.book, output: OutputBuffer(descriptor: descriptor), errors: OutputBuffer(descriptor: descriptor)
        )
        reporter.order(sequence: 123456789, line: 0, menu: menu, outcome: outcome)
        reporter.output.flush()
        close(descriptor)
        let written = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let expected = JSONLinesSimulationReporter.orderEventText(book: Self.book, sequence: 123456789, line: 0, menu: menu, outcome: outcome)
        #expect(written == expected + "\n")
    }

    @Test(arguments: [(0, 1, 5, 6), (1, 1_000_000, Int.max, Int.max), (2, 7, 1, 0)])
    func restockEventsMatchTheJSONWriter(fruit: Int, line: Int, amount: Int, stock: Int) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fast-\(UUID().uuidString)").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { unlink(path) }
        var reporter = JSONLinesSimulationReporter(
            book: Self.book, output: OutputBuffer(descriptor: descriptor), errors: OutputBuffer(descriptor: descriptor)
        )
        reporter.restock(line: line, fruit: fruit, amount: amount, stock: stock)
        reporter.output.flush()
        close(descriptor)
        let written = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        #expect(written == JSONLinesSimulationReporter.restockEventText(book: Self.book, line: line, fruit: fruit, amount: amount, stock: stock) + "\n")
    }

    /// Order events as the reporter writes them, with ids escaped once:
    /// checked against the text itself as well as the writer (RFC 8259 escapes
    /// for `"` and `\`, UTF-8 as is, numbers up to `Int.max`).
    @Test(arguments: [
        (0, JuiceMaker.Outcome.served,
         #"{"type":"order","seq":123456789,"line":0,"menu":"q\"x","status":"served","short":[]}"#),
        (0, .refused([Shortage(fruit: 0, need: 2, have: 1), Shortage(fruit: 1, need: 1, have: 0)]),
         #"{"type":"order","seq":123456789,"line":0,"menu":"q\"x","status":"refused","short":[{"fruit":"a\"b","need":2,"have":1},{"fruit":"c\\d","need":1,"have":0}]}"#),
        (1, .refused([Shortage(fruit: 2, need: Int.max, have: 0)]),
         #"{"type":"order","seq":123456789,"line":0,"menu":"망고쥬스","status":"refused","short":[{"fruit":"망고","need":9223372036854775807,"have":0}]}"#),
    ])
    func orderEventsAreWrittenExactly(menu: Int, outcome: JuiceMaker.Outcome, expected: String) {
        let written = Self.written { reporter in
            reporter.order(sequence: 123456789, line: 0, menu: menu, outcome: outcome)
        }
        #expect(written == expected + "\n")
    }

    @Test(arguments: [
        (0, 1, 5, 6, #"{"type":"restock","line":1,"fruit":"a\"b","amount":5,"stock":6}"#),
        (1, 1_000_000, Int.max, Int.max,
         #"{"type":"restock","line":1000000,"fruit":"c\\d","amount":9223372036854775807,"stock":9223372036854775807}"#),
        (2, 7, 1, 0, #"{"type":"restock","line":7,"fruit":"망고","amount":1,"stock":0}"#),
    ])
    func restockEventsAreWrittenExactly(fruit: Int, line: Int, amount: Int, stock: Int, expected: String) {
        let written = Self.written { reporter in
            reporter.restock(line: line, fruit: fruit, amount: amount, stock: stock)
        }
        #expect(written == expected + "\n")
    }

    /// Two events in a row: each line is a document of its own, with no comma between.
    @Test func consecutiveEventsAreSeparateLines() {
        let written = Self.written { reporter in
            reporter.set(line: 2, fruit: 2, stock: 4)
            reporter.stock(line: 3, counts: [1, 0, 4])
        }
        #expect(written == #"""
            {"type":"set","line":2,"fruit":"망고","stock":4}
            {"type":"stock","line":3,"stock":{"a\"b":1,"c\\d":0,"망고":4}}

            """#)
    }

    /// What a reporter over `book` writes for `events`.
    static func written(_ events: (inout JSONLinesSimulationReporter) -> Void) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fast-\(UUID().uuidString)").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { unlink(path) }
        var reporter = JSONLinesSimulationReporter(
            book: Self.book, output: OutputBuffer(descriptor: descriptor), errors: OutputBuffer(descriptor: descriptor)
        )
        events(&reporter)
        reporter.output.flush()
        close(descriptor)
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    @Test(arguments: [
        "q\"x", "  q\"x  # note", "q\"x x3", "q\"x\tx1000000", "망고쥬스", "restock a\"b 5", "restock 망고 12 # more",
        "", "   ", "# only", "q\"x x0", "q\"x x1000001", "q\"x x03", "q\"x y3", "restock a\"b 0", "restock a\"b 05",
        "restock nope 1", "set 망고 2", "stock", "unknown", "q\"x x3 extra", "restock a\"b", "restock a\"b 99999999999999999999",
    ])
    func bytesAndTextParseTheSame(line: String) {
        let parser = ScriptParser(book: Self.book, file: "t")
        let general: ScriptCommand?? = try? parser.parse(line, number: 1)
        let bytes = Array(line.utf8)
        let fast = bytes.withUnsafeBufferPointer { parser.parse(bytes: $0, number: 1) }
        switch fast {
        case .nothing: #expect(general == .some(nil), "\(line)")
        case .command(let command): #expect(general == .some(command), "\(line)")
        case .problem(let problem):
            #expect(throws: problem) { try parser.parse(line, number: 1) }
        }
    }

    @Test func theCommonFormsParseFromBytes() {
        let parser = ScriptParser(book: Self.book, file: "t")
        for line in ["q\"x", "q\"x x3  # three", "restock 망고 12", "   ", "# c"] {
            let result = Array(line.utf8).withUnsafeBufferPointer { parser.parse(bytes: $0, number: 1) }
            guard case .problem = result else { continue }
            Issue.record("\(line) was refused: \(result)")
        }
    }
}
