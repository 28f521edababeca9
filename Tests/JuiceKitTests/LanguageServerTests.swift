import Testing
@_spi(Internals) @testable import JuiceSupport
@testable import JuiceSource
@testable import JuiceLanguageServer

/// The language server in process, with no file system: the canonical book
/// opened under a folder that does not exist. The end-to-end suite
/// (Tests/LanguageServer, pytest-lsp and neovim) drives the built binary.
@Suite struct LanguageServerTests {
    static let fruits = "file:///shop/recipes/fruits.yaml"
    static let menu = "file:///shop/recipes/menu.yaml"

    static func message(_ method: String, id: Int? = nil, _ params: JSONValue = .object([])) -> [UInt8] {
        var members: [(key: String, value: JSONValue)] = [("jsonrpc", .string("2.0"))]
        if let id { members.append(("id", .int(id))) }
        members += [("method", .string(method)), ("params", params)]
        return Array(JSONValue.object(members).serialized.utf8)
    }

    static func open(_ uri: String, _ text: String) -> [UInt8] {
        message("textDocument/didOpen", .object([("textDocument", .object([
            ("uri", .string(uri)), ("languageId", .string("yaml")), ("version", .int(1)), ("text", .string(text)),
        ]))]))
    }

    static func change(_ uri: String, version: Int, from: (Int, Int), to: (Int, Int), _ text: String) -> [UInt8] {
        func position(_ p: (Int, Int)) -> JSONValue { .object([("line", .int(p.0)), ("character", .int(p.1))]) }
        return message("textDocument/didChange", .object([
            ("textDocument", .object([("uri", .string(uri)), ("version", .int(version))])),
            ("contentChanges", .array([.object([
                ("range", .object([("start", position(from)), ("end", position(to))])), ("text", .string(text)),
            ])])),
        ]))
    }

    static func at(_ uri: String, _ line: Int, _ character: Int, _ extra: [(key: String, value: JSONValue)] = []) -> JSONValue {
        .object([
            ("textDocument", .object([("uri", .string(uri))])),
            ("position", .object([("line", .int(line)), ("character", .int(character))])),
        ] + extra)
    }

    /// A running session with the canonical book open, and what it sent.
    private static func session() throws -> (LanguageServer, [JSONValue]) {
        var server = LanguageServer(files: .none)
        let sent = server.receive(batch: [
            message("initialize", id: 1, .object([("rootUri", .string("file:///shop")), ("capabilities", .object([]))])),
            message("initialized"),
            open(fruits, try fixture("fruits")),
            open(menu, try fixture("menu")),
        ])
        return (server, sent)
    }

    static func fixture(_ name: String) throws -> String {
        let path = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        return String(decoding: try RecipeSources.readFile("/" + path + "/recipes/\(name).yaml"), as: UTF8.self)
    }

    /// The diagnostics last published for `uri`: (code, line, character) each.
    static func published(_ messages: [JSONValue], _ uri: String) -> [[String]]? {
        messages.last { $0["method"]?.string == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.string == uri }
            .map { message in
                (message["params"]?["diagnostics"]?.array ?? []).map { diagnostic in
                    [diagnostic["code"]?.string ?? "", "\(diagnostic["range"]?["start"]?["line"]?.int ?? -1)",
                     "\(diagnostic["range"]?["start"]?["character"]?.int ?? -1)"]
                }
            }
    }

    static func error(_ messages: [JSONValue], id: Int) -> Int? {
        messages.first { $0["id"]?.int == id }?["error"]?["code"]?.int
    }

    @Test func lifecycleErrorCodes() {
        var server = LanguageServer(files: .none)
        var sent = server.receive(batch: [message("textDocument/hover", id: 1), message("initialized")])
        #expect(Self.error(sent, id: 1) == -32002)
        #expect(sent.count == 1)
        sent = server.receive(batch: [
            message("initialize", id: 2), message("initialize", id: 3), message("no/such", id: 4),
            Array(#"{"jsonrpc":"2.0","id":5,"method":"textDocument/hover","params":{"textDocument":7}}"#.utf8),
            Array("{not json".utf8), Array(#"{"id":6,"method":"shutdown"}"#.utf8),
        ])
        #expect(sent.first { $0["id"] == .null }?["error"]?["code"]?.int == -32700)
        #expect(sent.first { $0["id"]?.int == 2 }?["result"]?["capabilities"]?["positionEncoding"]?.string == "utf-16")
        #expect(Self.error(sent, id: 3) == -32600)
        #expect(Self.error(sent, id: 4) == -32601)
        #expect(Self.error(sent, id: 5) == -32602)
        #expect(Self.error(sent, id: 6) == -32600)
        sent = server.receive(batch: [message("shutdown", id: 7), message("textDocument/hover", id: 8), message("exit")])
        #expect(sent.first { $0["id"]?.int == 7 }?["result"] == .null)
        #expect(Self.error(sent, id: 8) == -32600)
        #expect(server.exitStatus == 0)

        var abrupt = LanguageServer(files: .none)
        _ = abrupt.receive(batch: [message("initialize", id: 1), message("exit")])
        #expect(abrupt.exitStatus == 1)
    }

    @Test func aCancelInTheBatchAnswersTheRequestWaiting() throws {
        var (server, _) = try Self.session()
        let sent = server.receive(batch: [
            message("textDocument/hover", id: 9, Self.at(Self.menu, 25, 16)),
            message("$/cancelRequest", .object([("id", .int(9))])),
        ])
        #expect(Self.error(sent, id: 9) == -32800)
    }

    @Test func removingAFruitShowsErrorsInAnotherFileAndRestoringClearsThem() throws {
        var (server, sent) = try Self.session()
        #expect(Self.published(sent, Self.menu) == [["never-makeable", "5", "2"]])
        #expect(Self.published(sent, Self.fruits) == [])
        // Line 7 of fruits.yaml declares kiwi.
        sent = server.receive(batch: [Self.change(Self.fruits, version: 2, from: (7, 0), to: (8, 0), "")])
        #expect(Self.published(sent, Self.menu) == [["never-makeable", "5", "2"], ["unknown-fruit", "13", "14"], ["unknown-fruit", "25", "24"]])
        #expect(Self.published(sent, Self.fruits) == [["unknown-fruit", "13", "2"]])
        sent = server.receive(batch: [Self.change(Self.fruits, version: 3, from: (7, 0), to: (7, 0), "  kiwi: { label: 키위, emoji: 🥝 }\n")])
        #expect(Self.published(sent, Self.menu) == [["never-makeable", "5", "2"]])
        #expect(Self.published(sent, Self.fruits) == [])
    }

    @Test func positionsAfterKoreanAndEmojiAreUTF16Units() throws {
        var (server, _) = try Self.session()
        // Line 7 of menu.yaml is `    recipe: { strawberry: 16 }`, under a
        // Korean label; write an emoji name and a misspelt fruit there.
        let sent = server.receive(batch: [Self.change(Self.menu, version: 2, from: (7, 0), to: (7, 30), "    recipe: { '🍓딸기': 1, strawbery: 16 }")])
        // `    recipe: { '🍓딸기': 1, ` is 24 scalars and 25 UTF-16 units.
        #expect(Self.published(sent, Self.menu)?.filter { $0[0] == "unknown-fruit" } == [["unknown-fruit", "7", "14"], ["unknown-fruit", "7", "25"]])
    }

    @Test func renameIsRefusedWithTheReason() throws {
        var (server, _) = try Self.session()
        for (name, reason) in [("kiwi", "already taken by the fruit at recipes/fruits.yaml:8:3"), ("stock", "reserved"), ("a b", "whitespace")] {
            let sent = server.receive(batch: [message("textDocument/rename", id: 3, .object([
                ("textDocument", .object([("uri", .string(Self.menu))])),
                ("position", .object([("line", .int(25)), ("character", .int(16))])), ("newName", .string(name)),
            ]))])
            #expect(Self.error(sent, id: 3) == -32803, "\(name)")
            #expect(sent.first?["error"]?["message"]?.string?.contains(reason) == true, "\(name): \(sent)")
        }
    }

    private func message(_ method: String, id: Int? = nil, _ params: JSONValue = .object([])) -> [UInt8] {
        Self.message(method, id: id, params)
    }
}
