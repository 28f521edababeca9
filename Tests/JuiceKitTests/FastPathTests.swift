import Foundation
import Testing
@testable import JuiceKit

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

    /// Amounts read from a String take a byte-level path; the general reader
    /// over a UTF-8 view is the reference.
    @Test(arguments: [
        "", "0", "1", "7", "20", "007", "00", "0x1", "-1", "-0", "--1", "+1", "1_000", "1.5", "1e3", " 1", "1 ",
        "٣", "１２", "999999999999999999", "9999999999999999999", "9223372036854775807", "9223372036854775808",
        "000000000000000000000", "12345678901234567a",
    ])
    func wholeNumberFastPathAgrees(_ text: String) {
        #expect(RecipeValues.wholeNumber(text) == RecipeValues.wholeNumber(text[...].utf8))
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

    @Test(arguments: [
        "q\"x", "  q\"x  # note", "q\"x x3", "q\"x\tx1000000", "망고쥬스", "restock a\"b 5", "restock 망고 12 # more",
        "", "   ", "# only", "q\"x x0", "q\"x x1000001", "q\"x x03", "q\"x y3", "restock a\"b 0", "restock a\"b 05",
        "restock nope 1", "set 망고 2", "stock", "unknown", "q\"x x3 extra", "restock a\"b", "restock a\"b 99999999999999999999",
    ])
    func quickLinesMatchTheParser(line: String) {
        let quick = QuickLineParser(book: Self.book)
        let parser = ScriptParser(book: Self.book, file: "t")
        let general: ScriptCommand?? = try? parser.parse(line, number: 1)
        let bytes = Array(line.utf8)
        let fast = bytes.withUnsafeBufferPointer { quick.parse($0) }
        switch fast {
        case .nothing: #expect(general == .some(nil), "\(line)")
        case .command(let command): #expect(general == .some(command), "\(line)")
        case .undecided: break  // The general parser decides; nothing to compare.
        }
    }

    @Test func theCommonFormsAreDecidedFast() {
        let quick = QuickLineParser(book: Self.book)
        for line in ["q\"x", "q\"x x3  # three", "restock 망고 12", "   ", "# c"] {
            let result = Array(line.utf8).withUnsafeBufferPointer { quick.parse($0) }
            #expect(result != .undecided, "\(line)")
        }
    }
}
