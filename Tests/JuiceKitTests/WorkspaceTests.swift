import Foundation
import Testing
@testable import JuiceSource
@testable import JuiceBook
import JuiceEngine

/// The workspace API: files updated, removed and replaced one at a time,
/// snapshots cached until the next edit, and the index.
@Suite struct WorkspaceTests {
    static let fruits = """
        fruits:
          mango:
          kiwi:
        stock:
          mango: 5
          kiwi: 5
        """
    static let menu = """
        recipes:
          base: { mango: 2 }
        menu:
          sunrise:
            recipe: { base: 1, kiwi: 3 }
        """

    static func workspace() -> RecipeWorkspace {
        var workspace = RecipeWorkspace(analysis: true, pass: OpeningStockAnalysis(), book: true)
        workspace.update(path: "book/fruits.yaml", bytes: Array(fruits.utf8))
        workspace.update(path: "book/menu.yaml", bytes: Array(menu.utf8))
        return workspace
    }

    @Test func anUnchangedFileIsNeverBuiltAgain() {
        var workspace = Self.workspace()
        #expect(workspace.unitsBuilt == 2)
        #expect(workspace.snapshot().book != nil)
        workspace.update(path: "book/menu.yaml", bytes: Array(Self.menu.replacingOccurrences(of: "kiwi: 3", with: "kiwi: 4").utf8))
        let snapshot = workspace.snapshot()
        // Only the edited file's own work was redone.
        #expect(workspace.unitsBuilt == 3)
        #expect(needs(of: "sunrise", in: snapshot.book) == ["mango": 2, "kiwi": 4])
        workspace.remove(path: "book/nothing.yaml")
        workspace.replaceStock(with: SourceFile(path: "stock.yaml", bytes: Array("stock: { mango: 1, kiwi: 1 }".utf8)))
        #expect(workspace.unitsBuilt == 4)
    }

    @Test func aSnapshotIsLinkedOncePerEdit() {
        var workspace = Self.workspace()
        _ = workspace.snapshot()
        _ = workspace.snapshot()
        #expect(workspace.linkCount == 1)
        // Removing a file that is not there is no edit.
        workspace.remove(path: "book/nothing.yaml")
        _ = workspace.snapshot()
        #expect(workspace.linkCount == 1)
        workspace.remove(path: "book/fruits.yaml")
        _ = workspace.snapshot()
        _ = workspace.snapshot()
        #expect(workspace.linkCount == 2)
    }

    @Test func removingAFileUnresolvesItsNames() throws {
        var workspace = Self.workspace()
        #expect(workspace.snapshot().diagnostics.isEmpty)
        workspace.remove(path: "book/fruits.yaml")
        let snapshot = workspace.snapshot()
        #expect(snapshot.book == nil)
        #expect(snapshot.compilation.fileCount == 1)
        let unknown = snapshot.diagnostics.filter { $0.rule == .unknownFruit }
        #expect(unknown.map(\.file) == ["book/menu.yaml", "book/menu.yaml"])
        #expect(unknown.map(\.range.start) == [SourcePosition(line: 2, column: 11), SourcePosition(line: 5, column: 24)])
        #expect(unknown.map(\.message) == ["unknown fruit 'mango'", "unknown fruit 'kiwi'"])
        // Putting it back gives the first book again.
        workspace.update(path: "book/fruits.yaml", bytes: Array(Self.fruits.utf8))
        #expect(workspace.snapshot().diagnostics.isEmpty)
        #expect(workspace.snapshot().book?.menu.map(\.id) == ["sunrise"])
    }

    /// The "did you mean" index is reused from the last link only while
    /// the ids are the same, in the same order: renaming one id, which
    /// keeps their count, must give the new name.
    @Test func theDidYouMeanFollowsARenamedID() throws {
        var workspace = Self.workspace()
        workspace.update(path: "book/menu.yaml", bytes: Array(Self.menu.replacingOccurrences(of: "kiwi: 3", with: "kiwy: 3").utf8))
        func help() throws -> String? {
            try #require(workspace.snapshot().diagnostics.first { $0.rule == .unknownFruit }).help
        }
        #expect(try help() == "did you mean 'kiwi'?")
        // The same ids: the index is reused, and says the same.
        workspace.update(path: "book/fruits.yaml", bytes: Array((Self.fruits + "\n").utf8))
        #expect(try help() == "did you mean 'kiwi'?")
        // One id renamed, the count unchanged.
        workspace.update(path: "book/fruits.yaml", bytes: Array(Self.fruits.replacingOccurrences(of: "kiwi", with: "kiwu").utf8))
        #expect(try help() == "did you mean 'kiwu'?")
        // Two ids swapped: the same names in another order are other ids.
        let swapped = "fruits:\n  kiwi:\n  mango:\nstock:\n  mango: 5\n  kiwi: 5\n"
        workspace.update(path: "book/fruits.yaml", bytes: Array(swapped.utf8))
        #expect(try help() == "did you mean 'kiwi'?")
    }

    /// The first definition by path order stands, wherever it was added from.
    @Test func theEarliestPathDefinesAnID() throws {
        var workspace = Self.workspace()
        workspace.update(path: "book/a.yaml", bytes: Array("fruits:\n  kiwi:\n".utf8))
        let duplicate = try #require(workspace.snapshot().diagnostics.first { $0.rule == .duplicateDefinition })
        #expect(duplicate.file == "book/fruits.yaml")
        #expect(duplicate.range.start == SourcePosition(line: 3, column: 3))
        #expect(duplicate.notes.first?.range.file == "book/a.yaml")
        #expect(duplicate.notes.first?.range.start == SourcePosition(line: 2, column: 3))
        workspace.remove(path: "book/a.yaml")
        #expect(workspace.snapshot().diagnostics.isEmpty)
    }

    @Test func aStockFileReplacesTheBooksStockUntilCleared() throws {
        var workspace = Self.workspace()
        workspace.replaceStock(with: SourceFile(path: "stock.yaml", bytes: Array("stock:\n  mango: -2\n  kiwi: 1\n".utf8)))
        let negative = try #require(workspace.snapshot().diagnostics.first { $0.severity == .error })
        #expect(negative.rule == .negativeAmount)
        #expect(negative.file == "stock.yaml")
        #expect(negative.range.start == SourcePosition(line: 2, column: 10))
        #expect(workspace.stockPath == "stock.yaml")
        workspace.replaceStock(with: SourceFile(path: "stock.yaml", bytes: Array("stock:\n  mango: 9\n  kiwi: 1\n".utf8)))
        #expect(workspace.snapshot().book?.openingStock == [9, 1])
        workspace.replaceStock(with: nil)
        #expect(workspace.stockPath == nil)
        #expect(workspace.snapshot().book?.openingStock == [5, 5])
        #expect(workspace.snapshot().compilation.fileCount == 2)
    }

    @Test func theIndexFindsDefinitionsReferencesNeedsAndSuppressions() throws {
        var workspace = Self.workspace()
        workspace.update(path: "book/extra.yaml", bytes: Array("""
            fruits:
              lime:   # juice-lint disable-line unused-fruit
            stock:
              lime: 0
            """.utf8))
        let index = workspace.snapshot().index
        let kiwi = index.definitions(of: "kiwi")
        #expect(kiwi.map(\.kind) == [.fruit])
        #expect(kiwi.map(\.range) == [SourceRange(file: "book/fruits.yaml", start: .init(line: 3, column: 3), end: .init(line: 3, column: 7))])
        #expect(index.definitions(of: "base").map(\.kind) == [.recipe])
        #expect(index.definitions(of: "sunrise").map(\.kind) == [.menuItem])
        let uses = index.references(to: "kiwi")
        #expect(uses.map(\.role) == [.stock, .ingredient])
        #expect(uses.map(\.range.file) == ["book/fruits.yaml", "book/menu.yaml"])
        #expect(uses.map(\.range.start) == [SourcePosition(line: 6, column: 3), SourcePosition(line: 5, column: 24)])
        #expect(index.references(to: "base").map(\.range.start) == [SourcePosition(line: 5, column: 15)])
        let book = workspace.snapshot().book
        #expect(needs(of: "sunrise", in: book) == ["mango": 2, "kiwi": 3])
        #expect(needs(of: "base", in: book) == ["mango": 2])
        let suppression = try #require(index.suppressions.first)
        #expect(index.suppressions.count == 1)
        #expect(suppression.file == "book/extra.yaml")
        #expect(suppression.scope == .line(2))
        #expect(suppression.entries.map(\.name) == ["unused-fruit"])
        #expect(suppression.entries.first?.range.start == SourcePosition(line: 2, column: 37))
    }

    /// A unit is a pure function of its path and bytes: built twice, it
    /// links to the same result, on any thread.
    @Test func unitsBuiltElsewhereLoadTheSame() async {
        let file = SourceFile(path: "book/menu.yaml", bytes: Array(Self.menu.utf8))
        let unit = await Task.detached { WorkspaceUnit(bookFile: file) }.value
        var loaded = RecipeWorkspace(analysis: true, pass: OpeningStockAnalysis(), book: true)
        loaded.update(path: "book/fruits.yaml", bytes: Array(Self.fruits.utf8))
        loaded.load(unit)
        var built = Self.workspace()
        #expect(loaded.unitsBuilt == 1)
        #expect(loaded.snapshot().diagnostics == built.snapshot().diagnostics)
        #expect(sameBook(loaded.snapshot().book, built.snapshot().book))
    }
}

/// What one order of a menu item, or one batch of a recipe, takes, by fruit
/// id: the engine's answer for the editor's hover.
func needs(of id: String, in book: RecipeBook?) -> [String: Int]? {
    guard let book else { return nil }
    let component: RecipeBook.Component
    if let item = book.menuIndex(id) { component = .menuItem(item) } else if let recipe = book.recipeIndex(id) { component = .recipe(recipe) } else { return nil }
    return Capacity.need(of: component, in: book).map { Dictionary(uniqueKeysWithValues: $0.map { (book.fruits[$0.fruit].id, $0.amount) }) }
}
