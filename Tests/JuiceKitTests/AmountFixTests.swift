import Testing
@testable import JuiceSource
@testable import JuiceDiagnostics

/// Amounts spelt `007`, `+3` or `1_000` carry a fix that writes the plain
/// whole number, where that number is valid there; applying it clears the
/// report.
@Suite struct AmountFixTests {
    static let yaml = """
        fruits:
          mango:
          kiwi:
        stock:
          mango: 00
          kiwi: 010
        recipes:
          padded: { mango: 007 }
          signed: { mango: +3 }
          grouped: { mango: 1_000 }
        menu:
          juice: { recipe: { padded: 1, signed: 1, grouped: 1, kiwi: 2 } }

        """

    /// Each report with a fix: where it is, and the fix's title, span and text.
    @Test func eachSpellingGetsThePlainNumber() throws {
        let diagnostics = compile(yaml: Self.yaml, path: "book.yaml").diagnostics.filter { !$0.fixes.isEmpty }
        let found = diagnostics.map { diagnostic in
            FixSpot(diagnostic.rule.id, diagnostic.file, diagnostic.line, diagnostic.column,
                    diagnostic.fixes.map(\.title), diagnostic.fixes.flatMap(\.edits))
        }
        func edit(_ line: Int, _ start: Int, _ end: Int, _ text: String) -> TextEdit {
            TextEdit(range: SourceRange(file: "book.yaml", start: at(line, start), end: at(line, end)), replacement: text)
        }
        #expect(found == [
            FixSpot("invalid-amount", "book.yaml", 5, 10, ["write 0"], [edit(5, 10, 12, "0")]),
            FixSpot("invalid-amount", "book.yaml", 6, 9, ["write 10"], [edit(6, 9, 12, "10")]),
            FixSpot("invalid-amount", "book.yaml", 8, 20, ["write 7"], [edit(8, 20, 23, "7")]),
            FixSpot("invalid-amount", "book.yaml", 9, 20, ["write 3"], [edit(9, 20, 22, "3")]),
            FixSpot("invalid-amount", "book.yaml", 10, 21, ["write 1000"], [edit(10, 21, 26, "1000")]),
        ])
    }

    /// Applying every fix's edit to the text gives a book with no amount problem.
    @Test func applyingTheFixesClearsTheReports() throws {
        let before = compile(yaml: Self.yaml, path: "book.yaml").diagnostics
        #expect(before.contains { $0.rule == .invalidAmount })
        let edits = before.flatMap(\.fixes).flatMap(\.edits)
        #expect(edits.count == 5)
        let fixed = applying(edits, to: Self.yaml)
        let after = compile(yaml: fixed, path: "book.yaml")
        #expect(after.diagnostics.filter { $0.rule == .invalidAmount || $0.rule == .zeroAmount }.isEmpty)
        #expect(after.book != nil)
        #expect(fixed.contains("padded: { mango: 7 }"))
        #expect(fixed.contains("grouped: { mango: 1000 }"))
    }

    /// No fix where the plain number is not valid there, or the meaning is unclear.
    @Test(arguments: ["+0", "00", "0_7", "+07", "1__000", "_1000", "1000_", "+1_000", "+-3", "99_999_999_999_999_999_999", "1.5", "'3'"])
    func noFixWithoutOneValidReading(_ amount: String) throws {
        let compilation = compile(yaml: """
            fruits:
              mango:
            recipes:
              r: { mango: \(amount) }
            menu:
              juice: { recipe: { r: 1 } }

            """)
        let reports = compilation.diagnostics.filter { $0.rule == .invalidAmount || $0.rule == .zeroAmount }
        #expect(reports.count == 1, "\(amount)")
        #expect(reports.first.map { ($0.line, $0.column) } ?? (0, 0) == (4, 15), "\(amount)")
        #expect(reports.allSatisfy { $0.fixes.isEmpty }, "\(amount)")
    }

    /// The text with each edit's span replaced (spans on one line each,
    /// columns in scalars), the last edit first so earlier spans stay put.
    private func applying(_ edits: [TextEdit], to text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array(String($0).unicodeScalars) }
        for edit in edits.sorted(by: { $0.range.start > $1.range.start }) {
            let line = edit.range.start.line - 1
            lines[line].replaceSubrange(
                (edit.range.start.column - 1)..<(edit.range.end.column - 1), with: Array(edit.replacement.unicodeScalars))
        }
        return lines.map { String(String.UnicodeScalarView($0)) }.joined(separator: "\n")
    }
}

/// A diagnostic with fixes, as the assertions compare it.
struct FixSpot: Equatable, CustomStringConvertible {
    var rule: String
    var file: String
    var line: Int
    var column: Int
    var titles: [String]
    var edits: [TextEdit]

    init(_ rule: String, _ file: String, _ line: Int, _ column: Int, _ titles: [String], _ edits: [TextEdit]) {
        (self.rule, self.file, self.line, self.column, self.titles, self.edits) = (rule, file, line, column, titles, edits)
    }

    var description: String {
        "\(rule) \(file):\(line):\(column) \(titles) " + edits.map {
            "\($0.range.start.line):\($0.range.start.column)-\($0.range.end.line):\($0.range.end.column) '\($0.replacement)'"
        }.joined(separator: ", ")
    }
}
