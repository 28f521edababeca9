import Testing
@_spi(Internals) @testable import JuiceSupport
@testable import JuiceSource
@testable import JuiceBook
@testable import JuiceLanguageServer

/// What an editor's client relies on, in process: the rename capability as
/// the client declared it and one publication per open with its version.
/// The same is checked end to end in Tests/LanguageServer (test_rename.py,
/// test_publishing.py).
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
}
