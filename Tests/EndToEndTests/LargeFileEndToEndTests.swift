import Foundation
import Testing

/// One large book file, which juice-lint cuts into pieces read on every
/// core (`LargeFileCut`): the problems are reported where the whole file
/// puts them, both when the pieces are taken (a problem the link finds) and
/// when a problem inside the file sends it back to a whole read (a key
/// repeated across two pieces, which only the whole file sees).
@Suite struct LargeFileEndToEndTests {
    /// About 1.4 MB: well past the size from which a file is cut. Item `i`
    /// starts on line `itemLine(i)`.
    static func book(itemCount: Int = 12_000, unknownAt unknown: Int? = nil, repeating repeated: Int? = nil) -> String {
        var text = "version: 1\nfruits:\n  apple: { label: Apple }\n  kiwi:\n    label: Kiwi\nstock:\n  apple: 50\n  kiwi: 40\nmenu:\n"
        for item in 0..<itemCount {
            let fruit = item == unknown ? "kiwwi" : "kiwi"
            text += "  juice-\(item):\n    label: A long label for juice number \(item) 신선한\n    price: \(100 + item)\n"
            text += "    recipe:\n      apple: 2\n      \(fruit): 1\n"
        }
        if let repeated { text += "  juice-\(repeated):\n    recipe: { apple: 1 }\n" }
        return text
    }

    static func itemLine(_ item: Int) -> Int { 10 + 6 * item }

    @Test func aCleanLargeFileIsClean() throws {
        let book = try TemporaryBook(text: ["book.yaml": Self.book()])
        defer { book.remove() }
        let result = try book.lint("--format", "json", "book.yaml")
        #expect(result.exitCode == 0)
        #expect(result.stdout == #"{"version":1,"diagnostics":[],"summary":{"files":1,"errors":0,"warnings":0,"infos":0,"omitted":0}}"# + "\n")
    }

    @Test func anUnknownFruitDeepInTheFileIsPlacedExactly() throws {
        let book = try TemporaryBook(text: ["book.yaml": Self.book(unknownAt: 9_001)])
        defer { book.remove() }
        let result = try book.lint("book.yaml")
        #expect(result.exitCode == 1)
        // The recipe's second ingredient of item 9,001: line 54,021.
        let line = Self.itemLine(9_001) + 5
        #expect(result.stdout == """
            book.yaml:\(line):7: error: unknown fruit 'kiwwi' [unknown-fruit]
                  |
            \(line) |       kiwwi: 1
                  |       ^~~~~
                  = help: did you mean 'kiwi'?

            """)
        #expect(result.stderr == "files: 1, errors: 1, warnings: 0, infos: 0\n")
    }

    @Test func aKeyRepeatedAcrossPiecesIsADuplicateKey() throws {
        let book = try TemporaryBook(text: ["book.yaml": Self.book(repeating: 3)])
        defer { book.remove() }
        let result = try book.lint("book.yaml")
        #expect(result.exitCode == 1)
        #expect(result.stdout == """
            book.yaml:72010:3: error: duplicate key 'juice-3' [duplicate-key]
                  |
            72010 |   juice-3:
                  |   ^~~~~~~
            book.yaml:28:3: note: 'juice-3' first appears here
                  |
               28 |   juice-3:
                  |   ^~~~~~~
                  = help: remove one of them, or merge their contents

            """)
        #expect(Self.itemLine(12_000) == 72_010 && Self.itemLine(3) == 28)
        #expect(result.stderr == "files: 1, errors: 1, warnings: 0, infos: 0\n")
    }
}
