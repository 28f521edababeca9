// libFuzzer target `lsp-bytes`: the input is what a client might send the
// language server. Parts split at 0x00 bytes go two ways:
// - as one raw byte stream through `MessageFramer` (headers, lengths,
//   bodies cut anywhere) into a server, as standard input would bring them;
// - each part as one message body, framed correctly, into a second server
//   that was initialized and has the canonical book open, so mutations of
//   the JSON reach every request handler without having to fix lengths.
// Neither server can read a file: `ServerFileAccess.none`.

/// Messages that bring the second server to a running session with the
/// canonical book open under a folder that does not exist on disk.
private let prelude: [[UInt8]] = [
    #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file:///fuzz","capabilities":{"workspace":{"workspaceEdit":{"documentChanges":true}},"textDocument":{"hover":{"contentFormat":["markdown"]}}}}}"#,
    #"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
    openMessage("file:///fuzz/recipes/fruits.yaml", canonicalFruitsYAML),
    openMessage("file:///fuzz/recipes/menu.yaml", canonicalMenuYAML),
].map { Array($0.utf8) }

private func openMessage(_ uri: String, _ text: String) -> String {
    JSONValue.object([
        ("jsonrpc", .string("2.0")), ("method", .string("textDocument/didOpen")),
        ("params", .object([("textDocument", .object([
            ("uri", .string(uri)), ("languageId", .string("yaml")), ("version", .int(1)), ("text", .string(text)),
        ]))])),
    ]).serialized
}

func fuzzLanguageServerBytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = inputBytes(data, size)
    let parts = input.split(separator: 0, omittingEmptySubsequences: false).map(Array.init)

    var framer = MessageFramer()
    var raw = LanguageServer(files: .none)
    var bodies: [[UInt8]] = []
    for part in parts {
        framer.append(part)
        while let frame = framer.next() {
            if case .body(let body) = frame { bodies.append(body) }
        }
    }
    consume(raw.receive(batch: bodies))

    var session = LanguageServer(files: .none)
    consume(session.receive(batch: prelude))
    for part in parts where session.exitStatus == nil {
        consume(session.receive(batch: [part]))
    }
    session.inputEnded()
    return 0
}

/// Serializes every answer, as the transport would, so writing is fuzzed too.
private func consume(_ messages: [JSONValue]) {
    var total = 0
    for message in messages { total &+= message.serialized.utf8.count }
    precondition(total >= 0)
}
