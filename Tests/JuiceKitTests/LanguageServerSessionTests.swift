import DifferentialSupport
import Testing
@_spi(Internals) @testable import JuiceSupport
@testable import JuiceSource
@testable import JuiceLanguageServer

/// The language server in process over many documents, big ones, and URIs
/// spelt several ways: what it publishes, and that it takes time in
/// proportion to the work (the bounds are for a debug build on a loaded
/// machine; the code they replaced took minutes on the same input).
@Suite struct LanguageServerSessionTests {
    private typealias Client = LanguageServerTests

    /// Recipe files in memory, found and read as if on disk.
    static func disk(_ contents: [String: String]) -> ServerFileAccess {
        ServerFileAccess(
            discover: { directory in contents.keys.filter { $0.hasPrefix(directory + "/") }.sorted() },
            read: { path in contents[path].map { Array($0.utf8) } },
            isDirectory: { path in contents.keys.contains { $0.hasPrefix(path + "/") } },
            load: { _ in nil }
        )
    }

    private static func started(_ files: ServerFileAccess = .none, root: String? = nil, log: ServerLog = ServerLog()) -> LanguageServer {
        var server = LanguageServer(files: files, log: log)
        _ = server.receive(batch: [
            Client.message("initialize", id: 1, .object([("rootUri", root.map(JSONValue.string) ?? .null), ("capabilities", .object([]))])),
            Client.message("initialized"),
        ])
        // As the transport does when the client opens nothing at once: the
        // books' diagnostics are out before the test's first batch.
        _ = server.firstDocumentsWaitEnded()
        return server
    }

    private static func close(_ uri: String) -> [UInt8] {
        Client.message("textDocument/didClose", .object([("textDocument", .object([("uri", .string(uri))]))]))
    }

    /// The URIs diagnostics were published for, in order.
    private static func publishedURIs(_ sent: [JSONValue]) -> [String] {
        sent.compactMap { $0["method"]?.string == "textDocument/publishDiagnostics" ? $0["params"]?["uri"]?.string : nil }
    }

    @Test func tenThousandUntitledDocumentsOpenAndCloseInLinearTime() {
        var server = Self.started()
        let uris = (0..<10_000).map { "untitled:Untitled-\($0)" }
        var sent: [JSONValue] = []
        // Each open used to try every book, and publishing every forced path per book.
        #expect(secondsTaken { sent = server.receive(batch: uris.map { Client.open($0, "") }) } < 20)
        #expect(Self.publishedURIs(sent) == uris)
        let closed = uris.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        #expect(secondsTaken { sent = server.receive(batch: closed.map(Self.close)) } < 20)
        #expect(Self.publishedURIs(sent) == closed)
        // The books that moved into closed ones' places still hold their own files.
        #expect(server.books.count == 5_000 && server.books.loosePaths.count == 5_000)
        #expect(server.books.loosePaths.allSatisfy { path in server.books.index(holding: path).map { server.books[$0].origin } == .loose(path) })
        let edited = ["untitled:Untitled-1", "untitled:Untitled-4999", "untitled:Untitled-9999"]
        sent = server.receive(batch: edited.map { Client.change($0, version: 2, from: (0, 0), to: (0, 0), "fruits: {kiwi: {label: K}, kiwi: {label: K}}\n") })
        // Books are published in their order in `books`, which closing changed.
        #expect(Self.publishedURIs(sent).sorted() == edited.sorted())
        #expect(edited.allSatisfy { Client.published(sent, $0)?.contains(["duplicate-key", "0", "27"]) == true }, "\(sent)")
    }

    @Test func closingADocumentClearsItsDiagnosticsUnderTheClientsURI() {
        var server = Self.started()
        for uri in ["untitled:Untitled-1", "file://localhost/tmp/x%2dy.yaml", "file:///tmp/%61.yaml"] {
            var sent = server.receive(batch: [Client.open(uri, "fruits: {kiwi: {label: K}, kiwi: {label: K}}\n")])
            #expect(Client.published(sent, uri)?.contains(["duplicate-key", "0", "27"]) == true, "\(uri)")
            sent = server.receive(batch: [Self.close(uri)])
            #expect(Self.publishedURIs(sent) == [uri])
            #expect(Client.published(sent, uri) == [])
        }
        #expect(server.books.isEmpty)
    }

    @Test func aBookFileKeepsTheClientsURIAfterItIsClosed() {
        let fruits = "version: 1\nfruits:\n  kiwi: {label: K}\nstock:\n  kiwi: 1\n"
        var server = Self.started(Self.disk(["/shop/recipes/fruits.yaml": fruits]), root: "file:///shop")
        let uri = "file:///shop/recipes/%66ruits.yaml"
        var sent = server.receive(batch: [Client.open(uri, fruits + "  kiwi: 2\n")])
        #expect(Self.publishedURIs(sent) == [uri])
        #expect(Client.published(sent, uri) == [["duplicate-key", "5", "2"]])
        // Back to the disk's text, published under the client's URI still.
        sent = server.receive(batch: [Self.close(uri)])
        #expect(Self.publishedURIs(sent) == [uri])
        #expect(Client.published(sent, uri) == [["unused-fruit", "2", "2"]])
    }

    @Test func aFileEventUnderAnotherSpellingOfAPathIsTheSameFile() {
        let path = "/shop/recipes/fruits.yaml"
        var server = Self.started(Self.disk([path: "version: 1\nfruits:\n  kiwi: {label: K}\nstock:\n  kiwi: 1\n"]), root: "file:///shop/x/..")
        let spellings = [
            "file:///shop/recipes//fruits.yaml", "file:///shop/./recipes/fruits.yaml", "file:///shop/x/../recipes/fruits.yaml",
            "file://localhost//shop/recipes/%66ruits.yaml",
        ]
        let sent = server.receive(batch: [Client.message("workspace/didChangeWatchedFiles", .object([
            ("changes", .array(spellings.map { .object([("uri", .string($0)), ("type", .int(2))]) })),
        ]))])
        // Before, each was a second copy of the file, and every fruit a duplicate.
        #expect(Self.publishedURIs(sent) == [])
        #expect(server.books.map(\.folder) == ["/shop"])
        #expect(server.books.first?.workspace.paths == [path])
        #expect(DocumentURI.path(of: "file:///a//b/./c/../d.yaml") == "/a/b/d.yaml")
        #expect(DocumentURI.path(of: "file:///../../x") == "/x")
    }

    @Test func renameAcrossFilesDecodesEachFileOnce() {
        let uses = 8_000
        let menu = "version: 1\nmenu:\n" + (0..<uses).map { "  m\($0):\n    label: M\n    recipe: { kiwi: 1 }\n" }.joined()
        var server = Self.started(Self.disk([
            "/shop/recipes/a.yaml": "version: 1\nfruits:\n  kiwi: {label: K}\nstock:\n  kiwi: 10\n", "/shop/recipes/b.yaml": menu,
        ]), root: "file:///shop")
        var sent: [JSONValue] = []
        // Each use in b.yaml used to decode b.yaml again.
        let elapsed = secondsTaken {
            sent = server.receive(batch: [Client.message("textDocument/rename", id: 2, Client.at("file:///shop/recipes/a.yaml", 2, 3, [
                ("newName", .string("kiwano")),
            ]))])
        }
        #expect(elapsed < 15)
        let changes = sent.first { $0["id"]?.int == 2 }?["result"]?["changes"]
        #expect(changes?["file:///shop/recipes/a.yaml"]?.array?.count == 2)
        #expect(changes?["file:///shop/recipes/b.yaml"]?.array?.count == uses)
    }

    @Test func fiveHundredEditsOfA4MBDocumentInOneNotification() {
        var server = Self.started()
        let uri = "untitled:big"
        _ = server.receive(batch: [Client.open(uri, String(repeating: "# c\n", count: 1_000_000))])
        let insert: JSONValue = .object([
            ("range", .object([("start", .object([("line", .int(0)), ("character", .int(0))])), ("end", .object([("line", .int(0)), ("character", .int(0))]))])),
            ("text", .string("#")),
        ])
        let change = Client.message("textDocument/didChange", .object([
            ("textDocument", .object([("uri", .string(uri)), ("version", .int(2))])),
            ("contentChanges", .array(Array(repeating: insert, count: 500))),
        ]))
        // Each edit used to count the whole document's lines again.
        #expect(secondsTaken { _ = server.receive(batch: [change]) } < 15)
        let text = server.documents.document(at: uri)?.text
        #expect(text?.utf8.count == 4_000_500)
        #expect(text.map { $0[0..<508] } == String(repeating: "#", count: 501) + " c\n# c\n")
        #expect(text?.lspLineCount == 1_000_001)
    }

    @Test func aChangeWithItsEndsSwappedIsTheRangeBetweenThem() {
        var server = Self.started()
        _ = server.receive(batch: [Client.open("untitled:a", "abcdef\nghi\n")])
        _ = server.receive(batch: [Client.change("untitled:a", version: 2, from: (1, 1), to: (0, 4), "X")])
        #expect(server.documents.document(at: "untitled:a")?.text[0..<100] == "abcdXhi\n")
        #expect(server.documents.document(at: "untitled:a")?.version == 2)
    }

    @Test func aNotificationWithOneBadChangeChangesNothingAndSaysSo() {
        final class Lines { var lines: [String] = [] }
        let log = Lines()
        var server = Self.started(log: ServerLog(level: .warning) { log.lines.append($0) })
        _ = server.receive(batch: [Client.open("untitled:a", "abc\n")])
        let good: JSONValue = .object([("text", .string("xyz\n"))])
        let bad: JSONValue = .object([("range", .int(3)), ("text", .string("!"))])
        _ = server.receive(batch: [Client.message("textDocument/didChange", .object([
            ("textDocument", .object([("uri", .string("untitled:a")), ("version", .int(2))])), ("contentChanges", .array([good, bad])),
        ]))])
        #expect(server.documents.document(at: "untitled:a")?.text[0..<10] == "abc\n")
        #expect(server.documents.document(at: "untitled:a")?.version == 1)
        #expect(log.lines == [
            "juice-lint lsp: warning: 'textDocument/didChange': 'contentChanges[1].range' must be an object; none of the changes to "
                + "'untitled:a' were applied, so the server's text may differ from the editor's until the document is opened again",
        ])
    }

    /// Edits applied one by one to an `EditableText` give the text, and the
    /// lines, that rebuilding the whole text after each edit gives.
    @Test func editableTextFollowsRebuildingAfterEveryEdit() {
        let pieces = ["a", "é", "🥝", "\n", "\r", "\r\n", "\r\r\n\n", ":"]
        var random = SplitMix64(seed: 914)
        for round in 0..<200 {
            func text(_ count: Int) -> String {
                (0..<count).map { _ in pieces[random.int(in: 0...(pieces.count - 1))] }.joined()
            }
            var plain = SourceText(text: text(random.int(in: 0...60)))
            var edited = EditableText(plain)
            for step in 0..<20 {
                let units: SourceText.Units = random.int(in: 0...1) == 0 ? .utf16 : .utf8
                func offset() -> Int {
                    plain.offset(lspLine: random.int(in: -1...(plain.lspLineCount + 1)), character: random.int(in: 0...12), units: units)
                }
                var (from, to) = (offset(), offset())
                if to < from { swap(&from, &to) }
                let replacement = Array(text(random.int(in: 0...4)).utf8)
                edited.replace(from..<to, with: replacement)
                plain = SourceText(utf8: Array(plain.utf8[..<from]) + replacement + Array(plain.utf8[to...]))
                #expect(edited.utf8 == plain.utf8, "round \(round) step \(step)")
                for line in -1...(plain.lspLineCount + 1) {
                    for character in [0, 1, 3, Int.max] {
                        #expect(edited.offset(lspLine: line, character: character, units: units)
                                    == plain.offset(lspLine: line, character: character, units: units), "round \(round) step \(step) line \(line)")
                    }
                }
            }
        }
    }
}
