import Testing
@_spi(Internals) @testable import JuiceSupport
@testable import JuiceSource
@testable import JuiceBook
@testable import JuiceLanguageServer

/// What an editor's client relies on, in process: the rename capability as
/// the client declared it, one publication per open with its version, an
/// outline whose ranges hold whole entries, and version 2 of the language
/// in completion, rename and references. The same is checked end to end in
/// Tests/LanguageServer (test_rename.py, test_publishing.py,
/// test_symbols.py, test_language_two.py).
@Suite struct LanguageServerEditorTests {
    private typealias Client = LanguageServerTests

    /// A version 2 file with comments above and after entries, a block and
    /// a flow body, a key with no value, a long-form recipe and stock that
    /// names a recipe.
    static let two = """
        version: 2
        # the fruits
        fruits:
          # tropical
          # and sweet
          mango: { cost: 3 }  # per kilo
          kiwi:
            label: K

          lime:    # sour
        recipes:
          syrup:
            recipe: { mango: 3 }
            yield: 4   # bottles
          base: { kiwi: 1 }
        menu:
          punch: { recipe: { syrup: 1, base: 1, lime: 1 } }
        stock:
          mango: 10
          kiwi: 5
          lime: 1
          syrup: 2

        """
    static let uri = "file:///shop/recipes/two.yaml"

    private static func initialize(_ capabilities: JSONValue, files: ServerFileAccess = .none, root: String = "file:///shop") -> (LanguageServer, JSONValue?) {
        var server = LanguageServer(files: files)
        let sent = server.receive(batch: [
            Client.message("initialize", id: 1, .object([("rootUri", .string(root)), ("capabilities", capabilities)])),
        ])
        return (server, sent.first { $0["id"]?.int == 1 }?["result"])
    }

    private static func open(_ uri: String, _ text: String, version: Int) -> [UInt8] {
        Client.message("textDocument/didOpen", .object([("textDocument", .object([
            ("uri", .string(uri)), ("languageId", .string("yaml")), ("version", .int(version)), ("text", .string(text)),
        ]))]))
    }

    /// A running session with `two` open.
    private static func session() -> LanguageServer {
        var (server, _) = initialize(.object([]))
        _ = server.receive(batch: [Client.message("initialized"), open(uri, two, version: 1)])
        return server
    }

    private static func publications(_ sent: [JSONValue], _ uri: String) -> [JSONValue] {
        sent.filter { $0["method"]?.string == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.string == uri }
    }

    // MARK: Rename capability

    @Test func renameOffersPrepareOnlyToAClientThatPrepares() {
        func renameProvider(_ rename: JSONValue?) -> JSONValue? {
            let capabilities: JSONValue = rename.map { .object([("textDocument", .object([("rename", $0)]))]) } ?? .object([])
            return Self.initialize(capabilities).1?["capabilities"]?["renameProvider"]
        }
        #expect(renameProvider(.object([("prepareSupport", .bool(true))])) == .object([("prepareProvider", .bool(true))]))
        #expect(renameProvider(.object([("prepareSupport", .bool(false))])) == .bool(true))
        #expect(renameProvider(.object([("dynamicRegistration", .bool(false))])) == .bool(true))
        #expect(renameProvider(nil) == .bool(true))
        #expect(renameProvider(.object([("prepareSupport", .string("yes"))])) == .bool(true))
    }

    // MARK: Publishing

    @Test func theBooksDiagnosticsWaitForTheFirstOpenAndGoOutOnceWithItsVersion() throws {
        let menu = "/shop/recipes/menu.yaml", uri = "file:///shop/recipes/menu.yaml"
        let files = LanguageServerSessionTests.disk([
            "/shop/recipes/fruits.yaml": try Client.fixture("fruits"), menu: try Client.fixture("menu"),
        ])
        var (server, _) = Self.initialize(.object([]), files: files)
        #expect(server.holdsFirstPublication)
        #expect(Self.publications(server.receive(batch: [Client.message("initialized")]), uri).isEmpty)
        let sent = server.receive(batch: [Self.open(uri, try Client.fixture("menu"), version: 7)])
        let published = Self.publications(sent, uri)
        #expect(published.count == 1)
        #expect(published.first?["params"]?["version"]?.int == 7)
        #expect(Client.published(sent, uri) == [["never-makeable", "5", "2"]])
        #expect(!server.holdsFirstPublication && server.firstDocumentsWaitEnded().isEmpty)

        // A client that opens nothing: the transport's wait ends, and the
        // book's diagnostics go out as the disk has them, with no version.
        var idle = Self.initialize(.object([]), files: files).0
        #expect(Self.publications(idle.receive(batch: [Client.message("initialized")]), uri).isEmpty)
        let late = idle.firstDocumentsWaitEnded()
        #expect(Self.publications(late, uri).count == 1)
        #expect(Self.publications(late, uri).first?["params"]?["version"] == nil)
        #expect(Client.published(late, uri) == [["never-makeable", "5", "2"]])
        #expect(idle.firstDocumentsWaitEnded().isEmpty)
    }

    // MARK: Document symbols

    /// Each symbol as name, range and selection range (line, character,
    /// line, character), depth first.
    private static func outline(_ symbols: JSONValue?) -> [String] {
        func span(_ range: JSONValue?) -> String {
            let numbers = [range?["start"]?["line"], range?["start"]?["character"], range?["end"]?["line"], range?["end"]?["character"]]
            return numbers.map { "\($0?.int ?? -1)" }.joined(separator: ",")
        }
        var lines: [String] = []
        var stack = (symbols?.array ?? []).reversed().map { ($0, 0) }
        while let (symbol, depth) = stack.popLast() {
            lines.append(String(repeating: " ", count: depth) + "\(symbol["name"]?.string ?? "?") \(span(symbol["range"])) \(span(symbol["selectionRange"]))")
            stack += (symbol["children"]?.array ?? []).reversed().map { ($0, depth + 1) }
        }
        return lines
    }

    @Test func aSymbolsRangeIsItsWholeEntryWithItsComments() {
        var server = Self.session()
        let sent = server.receive(batch: [Client.message("textDocument/documentSymbol", id: 2, .object([
            ("textDocument", .object([("uri", .string(Self.uri))])),
        ]))])
        let symbols = sent.first { $0["id"]?.int == 2 }?["result"]
        #expect(Self.outline(symbols) == [
            // From the comment above `fruits:` to lime's trailing comment.
            "fruits 1,0,9,17 2,0,2,6",
            // Two comment lines above, and the comment after the flow body.
            " mango 3,2,5,32 5,2,5,7",
            // A block body ends at its last line, not at the blank line or the next key.
            " kiwi 6,2,7,12 6,2,6,6",
            // No value: the key, its colon and its comment.
            " lime 9,2,9,17 9,2,9,6",
            "recipes 10,0,14,19 10,0,10,7",
            " syrup 11,2,13,24 11,2,11,7",
            "  mango 12,14,12,22 12,14,12,19",
            " base 14,2,14,19 14,2,14,6",
            "  kiwi 14,10,14,17 14,10,14,14",
            "menu 15,0,16,51 15,0,15,4",
            " punch 16,2,16,51 16,2,16,7",
            "  syrup 16,21,16,29 16,21,16,26",
            "  base 16,31,16,38 16,31,16,35",
            "  lime 16,40,16,47 16,40,16,44",
        ])
    }

    @Test func aCommentMoreIndentedThanTheNextKeyStaysWithTheBodyAbove() {
        let text = "fruits:\n  kiwi:\n    label: K\n    # about kiwi's label\n  # about lime\n  lime: {}\n"
        var server = Self.initialize(.object([])).0
        _ = server.receive(batch: [Client.message("initialized"), Self.open(Self.uri, text, version: 1)])
        let sent = server.receive(batch: [Client.message("textDocument/documentSymbol", id: 2, .object([
            ("textDocument", .object([("uri", .string(Self.uri))])),
        ]))])
        #expect(Self.outline(sent.first { $0["id"]?.int == 2 }?["result"]) == [
            "fruits 0,0,5,10 0,0,0,6", " kiwi 1,2,2,12 1,2,1,6", " lime 4,2,5,10 5,2,5,6",
        ])
    }

    // MARK: Version 2: completion, rename, references

    /// The labels completion offers where `marker` is in `text`, opened as a
    /// new file (ASCII only, so characters are bytes).
    private static func completions(_ text: String, at marker: String = "|") -> [String] {
        var server = session()
        let uri = "file:///shop/recipes/edited.yaml"
        guard let range = text.range(of: marker) else { return ["no marker"] }
        let before = text[..<range.lowerBound]
        let line = before.count { $0 == "\n" }
        let character = before.utf8.count - (before.utf8.lastIndex(of: UInt8(ascii: "\n")).map { before.utf8.distance(from: before.utf8.startIndex, to: $0) + 1 } ?? 0)
        _ = server.receive(batch: [open(uri, text.replacing(marker, with: ""), version: 1)])
        let sent = server.receive(batch: [Client.message("textDocument/completion", id: 3, Client.at(uri, line, character))])
        // In the order the client shows them: by sortText.
        let items = sent.first { $0["id"]?.int == 3 }?["result"]?["items"]?.array ?? []
        return items.sorted { ($0["sortText"]?.string ?? "") < ($1["sortText"]?.string ?? "") }.compactMap { $0["label"]?.string }
    }

    @Test func completionOffersVersionTwoKeysWhereTheyApply() {
        #expect(Self.completions("version: 2\nfruits:\n  fig: { label: F, | }\n") == ["emoji", "cost", "pack", "keeps", "restock", "substitutes"])
        #expect(Self.completions("fruits:\n  fig:\n    |\n") == ["label", "emoji", "cost", "pack", "keeps", "restock", "substitutes"])
        // Version 1 has no cost, pack, keeps or restock: offering them would offer an error.
        #expect(Self.completions("version: 1\nfruits:\n  fig: { label: F, | }\n") == ["emoji"])
        // A long-form recipe's keys, once the body is the long form.
        #expect(Self.completions("recipes:\n  jam: { recipe: { mango: 1 }, | }\n") == ["yield", "label", "keeps"])
        #expect(Self.completions("recipes:\n  jam:\n    yield: 2\n    |\n") == ["recipe", "label", "keeps"])
        // Its ingredients are ids, the recipe itself left out.
        #expect(Self.completions("recipes:\n  jam: { recipe: { mango: 1, | } }\n").sorted() == ["base", "kiwi", "lime", "punch", "syrup"])
        // An empty body may become either form: ids first, then the keys.
        #expect(Self.completions("recipes:\n  jam: { | }\n") == ["kiwi", "lime", "mango", "base", "syrup", "punch", "recipe", "yield", "label", "keeps"])
        #expect(Self.completions("version: 1\nrecipes:\n  jam: { | }\n") == ["kiwi", "lime", "mango", "base", "syrup", "punch"])
        // Stock names recipes too in version 2, fruits only in version 1.
        #expect(Self.completions("stock:\n  kiwi: 1\n  |\n") == ["lime", "mango", "base", "syrup"])
        #expect(Self.completions("version: 1\nstock:\n  kiwi: 1\n  |\n") == ["lime", "mango"])
    }

    @Test func completionOffersThePlannersKeysWhereTheyApply() {
        // A fruit's restock: its own three keys, less those written.
        #expect(Self.completions("fruits:\n  fig: { restock: { | } }\n") == ["up-to", "below", "lead"])
        #expect(Self.completions("fruits:\n  fig: { cost: 3, restock: { up-to: 30, | } }\n") == ["below", "lead"])
        #expect(Self.completions("fruits:\n  fig:\n    restock:\n      below: 3\n      |\n") == ["up-to", "lead"])
        // Beside restock, the fruit's keys; a value is no place for a key.
        #expect(Self.completions("fruits:\n  fig: { keeps: 3, | restock: { up-to: 30 } }\n") == ["label", "emoji", "cost", "pack", "substitutes"])
        #expect(Self.completions("fruits:\n  fig: { restock: { up-to: | } }\n") == [])
        // Version 1 has no restock, so nothing inside one either.
        #expect(Self.completions("version: 1\nfruits:\n  fig: { restock: { | } }\n") == [])
        // A menu item is never kept: no keeps there.
        #expect(Self.completions("menu:\n  x: { recipe: { kiwi: 1 }, | }\n") == ["label", "price"])
    }

    /// The hover's text over the word at `marker` in `text`, opened as a
    /// new file next to `two` (ASCII only, so characters are bytes).
    private static func hover(_ text: String, at marker: String) -> String? {
        var server = session()
        let uri = "file:///shop/recipes/edited.yaml"
        guard let range = text.range(of: marker) else { return "no marker" }
        let before = text[..<range.lowerBound]
        let line = before.count { $0 == "\n" }
        let character = before.utf8.count - (before.utf8.lastIndex(of: UInt8(ascii: "\n")).map { before.utf8.distance(from: before.utf8.startIndex, to: $0) + 1 } ?? 0)
        _ = server.receive(batch: [open(uri, text, version: 1)])
        let sent = server.receive(batch: [Client.message("textDocument/hover", id: 3, Client.at(uri, line, character + 1))])
        return sent.first { $0["id"]?.int == 3 }?["result"]?["contents"]?["value"]?.string
    }

    @Test func hoverShowsShelfLifeAndRestock() throws {
        // Fruits and recipes of its own: `two` declares mango, kiwi, lime and syrup.
        let text = """
            fruits:
              fig: { cost: 5, pack: 6, keeps: 3, restock: { up-to: 30 } }
              date: { keeps: 1, restock: { below: 10, up-to: 40, lead: 2 } }
              plum: { restock: { below: 5, up-to: 12 } }
              pear: { cost: 5, pack: 6 }
            recipes:
              jam: { yield: 4, keeps: 2, recipe: { fig: 3 } }
            menu:
              figgy: { recipe: { jam: 1, date: 1, plum: 1, pear: 1 } }
            stock:
              fig: 6

            """
        let fig = try #require(Self.hover(text, at: "fig: { cost"))
        #expect(fig.contains("opening stock 6 · cost 5 · pack 6 · keeps 3 days · restock up-to 30\n"), "\(fig)")
        let date = try #require(Self.hover(text, at: "date: {"))
        #expect(date.contains("opening stock 0 · keeps 1 day · restock up-to 40, below 10, lead 2\n"), "\(date)")
        let plum = try #require(Self.hover(text, at: "plum: {"))
        #expect(plum.contains("opening stock 0 · restock up-to 12, below 5\n"), "\(plum)")
        let jam = try #require(Self.hover(text, at: "jam: {"))
        #expect(jam.contains("yield 4 · keeps 2 days · cost per serving 3.75"), "\(jam)")
        // Without them, nothing is said about either.
        let pear = try #require(Self.hover(text, at: "pear: {"))
        #expect(pear.contains("opening stock 0 · cost 5 · pack 6\n"), "\(pear)")
        #expect(!pear.contains("keeps") && !pear.contains("restock"), "\(pear)")
    }

    /// A cost past 64 bits is too large to count, told apart from an unknown
    /// one (a fruit with no cost); neither has a margin.
    @Test func hoverTellsATooLargeCostFromAnUnknownOne() throws {
        let text = """
            fruits:
              saffron: { cost: 4611686018427387904 }
              nutmeg:
            recipes:
              gold: { recipe: { saffron: 2 } }
            menu:
              saffron-tea: { price: 10, recipe: { saffron: 3 } }
              spiced: { price: 10, recipe: { saffron: 3, nutmeg: 1 } }
              golden: { recipe: { gold: 1 } }
            stock:
              saffron: 6

            """
        let tea = try #require(Self.hover(text, at: "saffron-tea: {"))
        #expect(tea.contains("\ncost per serving too large to count\n"), "\(tea)")
        let spiced = try #require(Self.hover(text, at: "spiced: {"))
        #expect(spiced.contains("\ncost per serving unknown\n"), "\(spiced)")
        let golden = try #require(Self.hover(text, at: "golden: {"))
        #expect(golden.contains("\ncost per serving too large to count\n"), "\(golden)")
        let gold = try #require(Self.hover(text, at: "gold: {"))
        #expect(gold.contains("\ncost per serving too large to count"), "\(gold)")
    }

    @Test func theLanguageServersVersionTwoKeysAreTheCollectors() {
        #expect(CompletionContext.versionTwoKeys == DeclarationCollector.versionTwoKeys)
        #expect(CompletionContext.allowsVersionTwo(SourceText(text: "version: 1 # the first\n")) == false)
        #expect(CompletionContext.allowsVersionTwo(SourceText(text: "version: 2\n")))
        #expect(CompletionContext.allowsVersionTwo(SourceText(text: "fruits: {}\n")))
        #expect(CompletionContext.allowsVersionTwo(SourceText(text: "version: '1'\n")), "a quoted 1 is no version, as the collector reads it")
    }

    @Test func renameAndReferencesReachAStockEntryThatNamesARecipe() {
        var server = Self.session()
        // Line 11 declares syrup; line 21 stocks it; line 16 uses it.
        let references = server.receive(batch: [Client.message("textDocument/references", id: 4, Client.at(Self.uri, 11, 3, [
            ("context", .object([("includeDeclaration", .bool(true))])),
        ]))])
        let lines = (references.first { $0["id"]?.int == 4 }?["result"]?.array ?? []).compactMap { $0["range"]?["start"]?["line"]?.int }
        #expect(lines == [11, 16, 21])
        // From the stock entry: every place, the stock entry included.
        let renamed = server.receive(batch: [Client.message("textDocument/rename", id: 5, Client.at(Self.uri, 21, 3, [("newName", .string("nectar"))]))])
        let edits = renamed.first { $0["id"]?.int == 5 }?["result"]?["changes"]?[Self.uri]?.array ?? []
        #expect(edits.compactMap { $0["range"]?["start"]?["line"]?.int } == [11, 16, 21])
        #expect(edits.allSatisfy { $0["newText"]?.string == "nectar" })
    }

    // MARK: Substitutes (issue 37)

    @Test func completionOffersOtherFruitsInsideSubstitutes() {
        // `two` declares the fruits kiwi, lime and mango; syrup and base are recipes, punch a menu item.
        #expect(Self.completions("fruits:\n  fig: { substitutes: { | } }\n") == ["kiwi", "lime", "mango"])
        // Less those written, and never the fruit itself.
        #expect(Self.completions("fruits:\n  fig:\n    substitutes:\n      kiwi: 2\n      |\n") == ["lime", "mango"])
        #expect(Self.completions("fruits:\n  mango: { substitutes: { | } }\n") == ["kiwi", "lime"])
        // Version 1 has no substitutes, so nothing inside one either.
        #expect(Self.completions("version: 1\nfruits:\n  fig: { substitutes: { | } }\n") == [])
    }

    /// A file beside `two` whose fruit fig lists date, then two's kiwi, as substitutes.
    static let substitutes = """
        version: 2
        fruits:
          fig: { substitutes: { date: 2, kiwi: 1 } }
          date:
        menu:
          figgy: { recipe: { fig: 1 } }

        """

    @Test func hoverOnAFruitNamesItsSubstitutesAndWhatItStandsInFor() throws {
        let fig = try #require(Self.hover(Self.substitutes, at: "fig: {"))
        #expect(fig.contains("\nsubstitutes date 2 for 1, kiwi 1 for 1"), "\(fig)")
        let date = try #require(Self.hover(Self.substitutes, at: "date:\n"))
        #expect(date.contains("\nstands in for fig"), "\(date)")
        #expect(!date.contains("substitutes"), "\(date)")
        // While the book has errors, the names as written.
        let broken = Self.substitutes.replacing("figgy: { recipe: { fig: 1 } }", with: "figgy: { recipe: { fig: 0 } }")
        let written = try #require(Self.hover(broken, at: "fig: {"))
        #expect(written.contains("\nsubstitutes date, kiwi"), "\(written)")
    }

    @Test func definitionAndRenameReachASubstitute() {
        var server = Self.session()
        let edited = "file:///shop/recipes/subs.yaml"
        _ = server.receive(batch: [Self.open(edited, Self.substitutes, version: 1)])
        // From 'date' as a substitute (line 2, character 24) to its declaration on line 3.
        let definition = server.receive(batch: [Client.message("textDocument/definition", id: 4, Client.at(edited, 2, 24))])
        let found = definition.first { $0["id"]?.int == 4 }?["result"]?.array ?? []
        #expect(found.compactMap { $0["uri"]?.string } == [edited])
        #expect(found.compactMap { $0["range"]?["start"]?["line"]?.int } == [3])
        // Renaming two's kiwi from its use as a substitute (line 2, character 33) renames it everywhere.
        let renamed = server.receive(batch: [Client.message("textDocument/rename", id: 5, Client.at(edited, 2, 33, [("newName", .string("kiwano"))]))])
        let changes = renamed.first { $0["id"]?.int == 5 }?["result"]?["changes"]
        let inTwo = changes?[Self.uri]?.array ?? [], inSubs = changes?[edited]?.array ?? []
        #expect(inTwo.compactMap { $0["range"]?["start"]?["line"]?.int } == [6, 14, 19])
        #expect(inSubs.compactMap { $0["range"]?["start"]?["line"]?.int } == [2])
        #expect(inSubs.compactMap { $0["range"]?["start"]?["character"]?.int } == [33])
        #expect((inTwo + inSubs).allSatisfy { $0["newText"]?.string == "kiwano" })
        // References to date, its declaration included: the declaration and the substitute.
        let references = server.receive(batch: [Client.message("textDocument/references", id: 6, Client.at(edited, 3, 3, [
            ("context", .object([("includeDeclaration", .bool(true))])),
        ]))])
        let lines = (references.first { $0["id"]?.int == 6 }?["result"]?.array ?? []).compactMap { $0["range"]?["start"]?["line"]?.int }
        #expect(lines == [3, 2])
    }
}
