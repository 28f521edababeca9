import Foundation
import Testing
@_spi(Internals) @testable import JuiceSupport
@testable import JuiceSource
@testable import JuiceBook
@testable import JuiceShop
@testable import JuiceSimulation

/// `MenuSearch`: the menu items a partial or misspelt order may mean, by
/// id and by label, best first, ties in menu order.
@Suite struct MenuSearchTests {
    /// The canonical book in `recipes/`; its menu, in order: strawberry-juice
    /// 딸기쥬스, banana-juice, kiwi-juice, pineapple-juice,
    /// strawberry-banana-juice 딸바쥬스, mango-juice, mango-kiwi-juice.
    private static func canonicalBook() throws -> RecipeBook {
        let directory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("recipes")
        let compilation = RecipeCompiler.compile(try RecipeSources.load(paths: [directory.path]))
        #expect(compilation.diagnostics.isEmpty, "\(compilation.spots)")
        return try #require(compilation.book)
    }

    private static func ids(_ query: String, in book: RecipeBook, limit: Int = MenuSearch.defaultLimit) -> [String] {
        MenuSearch(book: book).matches(for: query, limit: limit).map { book.menu[$0].id }
    }

    @Test func aMisspeltWordFindsEveryItemWithIt() throws {
        let book = try Self.canonicalBook()
        #expect(Self.ids("strawbery", in: book) == ["strawberry-juice", "strawberry-banana-juice"])
    }

    @Test func aPartialNameFindsEveryItemWithTheWord() throws {
        let book = try Self.canonicalBook()
        #expect(Self.ids("mango", in: book) == ["mango-juice", "mango-kiwi-juice"])
    }

    @Test func caseAndSeparatorsDoNotMatter() throws {
        let book = try Self.canonicalBook()
        #expect(Self.ids("MANGO Kiwi", in: book) == ["mango-kiwi-juice"])
        #expect(Self.ids("Straw-Ban", in: book) == ["strawberry-banana-juice"])
    }

    @Test func aLabelWordAloneIsEnough() throws {
        // Neither query word is in any id; each is in one label.
        let search = MenuSearch(items: [
            (id: "special-1", label: "Green Cooler"),
            (id: "special-2", label: "Red Sunrise"),
            (id: "cooler", label: "cooler"),
        ])
        #expect(search.matches(for: "sunrise") == [1])
        #expect(search.matches(for: "green coolr") == [0])
        // Korean labels are one word each, matched whole or by their start.
        let book = try Self.canonicalBook()
        #expect(Self.ids("망고", in: book) == ["mango-juice", "mango-kiwi-juice"])
    }

    @Test func nothingCloseMatchesNothing() throws {
        let book = try Self.canonicalBook()
        #expect(Self.ids("dragonfruit", in: book) == [])
        #expect(Self.ids("mango dragonfruit", in: book) == [])  // every word must match
        #expect(Self.ids("   ", in: book) == [])
        #expect(Self.ids("-", in: book) == [])
        #expect(Self.ids("xyzzy\u{1b}[31m", in: book) == [])
        #expect(Self.ids(String(repeating: "ab", count: 1 << 16), in: book) == [])
    }

    @Test func exactWordsComeBeforeStartsAndStartsBeforeEdits() {
        let search = MenuSearch(items: [
            (id: "manga-tea", label: "manga-tea"),  // one edit from 'mango'
            (id: "mangosteen-juice", label: "mangosteen-juice"),  // starts with 'mango'
            (id: "mango-juice", label: "mango-juice"),  // 'mango' itself
        ])
        #expect(search.matches(for: "mango") == [2, 1, 0])
        // Two edits come after one: 'pinaple' is two from 'pineapple', one from 'pinapple'.
        let edits = MenuSearch(items: [(id: "pineapple", label: "pineapple"), (id: "pinapple", label: "pinapple")])
        #expect(edits.matches(for: "pinaple") == [1, 0])
    }

    @Test func tiesStayInMenuOrderAndTheListIsCapped() throws {
        let book = try Self.canonicalBook()
        // Every item ends in 'juice': the first five in menu order.
        #expect(Self.ids("juice", in: book) == [
            "strawberry-juice", "banana-juice", "kiwi-juice", "pineapple-juice", "strawberry-banana-juice",
        ])
        #expect(Self.ids("juice", in: book, limit: 2) == ["strawberry-juice", "banana-juice"])
        #expect(Self.ids("juice", in: book, limit: 0) == [])
        // One edit from 'kiwi' in two items: menu order.
        #expect(Self.ids("kiwii", in: book) == ["kiwi-juice", "mango-kiwi-juice"])
    }
}
