import Testing
@testable import JuiceSource
@testable import JuiceBook
@testable import JuiceSimulation

/// The one parser reads bytes: ids are found byte for byte, with the book's
/// own lookup behind it for the same text in another Unicode form, and
/// invalid UTF-8 is shown as U+FFFD in messages.
@Suite struct ScriptParserBytesTests {
    static let book: RecipeBook = {
        let yaml = """
            fruits: { café: , kiwi: }
            stock: { café: 3, kiwi: 1 }
            menu:
              crème: { recipe: { café: 1 } }
              kiwi-cup: { recipe: { kiwi: 1 } }

            """
        return RecipeCompiler.compile([SourceFile(path: "u.yaml", bytes: Array(yaml.utf8))]).book!
    }()

    private func parse(_ bytes: [UInt8], number: Int = 3) -> ScriptParser.Line {
        let parser = ScriptParser(book: Self.book, file: "u.orders")
        return bytes.withUnsafeBufferPointer { parser.parse(bytes: $0, number: number) }
    }

    @Test func idsAreFoundByTheirBytes() {
        #expect(parse(Array("crème x2".utf8)) == .command(.order(menu: 0, count: 2)))
        #expect(parse(Array("restock café 4 # delivery".utf8)) == .command(.restock(fruit: 0, amount: 4)))
        #expect(parse(Array("\tkiwi-cup\r".utf8)) == .command(.order(menu: 1, count: 1)))
    }

    /// `e` + U+0300 is `è` decomposed: not the book's bytes, but the same
    /// text to Swift, so the book's lookup finds it, as before the merge.
    @Test func anotherNormalFormStillNamesTheId() {
        #expect(parse(Array("cre\u{300}me".utf8)) == .command(.order(menu: 0, count: 1)))
        #expect(parse(Array("set cafe\u{301} 0".utf8)) == .command(.set(fruit: 0, amount: 0)))
    }

    @Test func invalidUTF8IsShownAsReplacement() {
        let line: [UInt8] = Array("restock ".utf8) + [0xFF, 0x6B] + Array(" 2".utf8)
        #expect(parse(line, number: 9) == .problem(ScriptProblem(file: "u.orders", line: 9, message: "unknown fruit '\u{FFFD}k'")))
    }

    @Test func aKeywordIsOnlyTheWholeWord() {
        #expect(parse(Array("stocks".utf8), number: 4)
            == .problem(ScriptProblem(file: "u.orders", line: 4, message: "unknown menu item 'stocks'")))
        #expect(parse(Array("stock".utf8)) == .command(.stock))
    }
}
