@_spi(Internals) import JuiceSupport
/// `juice-lint lsp`: the Language Server Protocol 3.17 over JSON-RPC 2.0,
/// on the same workspace core as the command line (docs/language-server.md).
///
/// The server is a value with no I/O of its own but reading recipe files
/// (through `ServerFileAccess`): message bodies go in, messages to send come
/// out. `LanguageServerTransport` does the framing on standard input and
/// output; tests and the fuzz target drive it directly.
///
/// Messages are handled in batches, as many as have arrived: a
/// `$/cancelRequest` in the batch cancels a request still waiting in it, and
/// the books edited by the batch are relinked once, after it, so a burst of
/// keystrokes costs one link.
public struct LanguageServer {
    /// Where the session is in the protocol's lifecycle.
    public enum Phase: Sendable, Equatable {
        case waitingForInitialize
        case running
        case shutDown
    }

    public internal(set) var phase = Phase.waitingForInitialize
    /// Set once the session is over: 0 after `shutdown` then `exit` (or the
    /// end of input), 1 when it ended without `shutdown`.
    public private(set) var exitStatus: Int32?

    let files: ServerFileAccess
    var log: ServerLog
    /// What the client said it can do, as it said it in `initialize`.
    var client = ClientCapabilities()
    /// The workspace folders' books, then a book per YAML file opened
    /// outside all of them.
    var books = ServerBooks()
    var documents = DocumentStore()
    /// The id of the next request the server sends the client.
    var nextOutgoingID = 1
    /// Messages for the client that notifications gave rise to, sent with
    /// the batch's diagnostics.
    var pending: [JSONValue] = []
    /// Files whose diagnostics are sent after this batch even if unchanged.
    var forcePublishing: Set<String> = []
    /// Whether the diagnostics of the books read at `initialize` wait for the
    /// client's first `didOpen` (or `firstDocumentsWaitEnded()`). Sent behind
    /// the answer to `initialize`, they reached a client that had handled the
    /// answer, and sent `initialized` and `didOpen`, before them: two
    /// publications for one open, the first with no version. Held, an
    /// opened file hears once, with its version.
    public internal(set) var holdsFirstPublication = false

    /// A server that reads recipe files through `files` and logs through `log`.
    public init(files: ServerFileAccess = .disk, log: ServerLog = ServerLog()) {
        self.files = files
        self.log = log
    }

    /// Handles every message that has arrived, in order, then publishes the
    /// diagnostics that changed. Bodies that are not JSON get ParseError.
    public mutating func receive(batch bodies: [[UInt8]]) -> [JSONValue] {
        var outgoing: [JSONValue] = []
        var messages: [JSONValue] = []
        messages.reserveCapacity(bodies.count)
        for body in bodies {
            do throws(JSONParseError) {
                messages.append(try JSONValue.parse(body))
            } catch {
                log.write(.warning, "a message that is not JSON: \(error)")
                outgoing.append(JSONRPC.response(id: .null, error: .parseError("the message is not JSON: \(error)")))
            }
        }
        // A cancel names a request by id; one later in the batch cancels an
        // earlier one too, since neither has been handled yet.
        var cancelled = Set<JSONValue>()
        for message in messages where message["method"]?.string == "$/cancelRequest" {
            if let id = message["params"]?["id"], id.int != nil || id.string != nil { cancelled.insert(id) }
        }
        for message in messages {
            if let id = message["id"], message["method"]?.string != nil, cancelled.contains(id), phase == .running {
                outgoing.append(JSONRPC.response(id: id, error: .requestCancelled))
                continue
            }
            outgoing += receive(message)
            if exitStatus != nil { return outgoing }
            if message["method"]?.string == "textDocument/didOpen" { holdsFirstPublication = false }
        }
        outgoing += settle()
        return outgoing
    }

    /// The client opened nothing in the time the transport waits after
    /// `initialize`: the books' diagnostics go out now, as the disk has them.
    public mutating func firstDocumentsWaitEnded() -> [JSONValue] {
        guard holdsFirstPublication else { return [] }
        holdsFirstPublication = false
        return settle()
    }

    /// Handles one message; diagnostics wait for `settle()`.
    public mutating func receive(_ message: JSONValue) -> [JSONValue] {
        guard message.isObject else {
            return [JSONRPC.response(id: .null, error: .invalidRequest("a message must be a JSON object"))]
        }
        let id = message["id"]
        guard let method = message["method"]?.string else {
            // A response to a request the server sent (registering for file
            // events): nothing waits on it, so only a failure is worth a line.
            if id != nil, message["result"] != nil || message["error"] != nil {
                if let error = message["error"] { log.write(.info, "the client answered a request with an error: \(error.serialized)") }
                return []
            }
            return [JSONRPC.response(id: JSONRPC.usableID(id) ?? .null, error: .invalidRequest("a message needs a 'method' string"))]
        }
        guard message["jsonrpc"]?.string == "2.0" else {
            guard let id else { return [] }
            return [JSONRPC.response(id: JSONRPC.usableID(id) ?? .null, error: .invalidRequest("'jsonrpc' must be \"2.0\""))]
        }
        let params = message["params"] ?? .null
        guard let id else {
            notify(method, params: params)
            return []
        }
        guard let requestID = JSONRPC.usableID(id) else {
            return [JSONRPC.response(id: .null, error: .invalidRequest("a request id must be a number or a string"))]
        }
        switch phase {
        case .waitingForInitialize where method != "initialize":
            return [JSONRPC.response(id: requestID, error: .serverNotInitialized)]
        case .shutDown:
            return [JSONRPC.response(id: requestID, error: .invalidRequest("the server is shut down: only 'exit' is left"))]
        default:
            break
        }
        do throws(ResponseError) {
            let (result, followUps) = try request(method, params: Params(params))
            return [JSONRPC.response(id: requestID, result: result)] + followUps
        } catch {
            return [JSONRPC.response(id: requestID, error: error)]
        }
    }

    /// The end of input: the client is gone, so the session ends as `exit`
    /// would end it.
    public mutating func inputEnded() {
        if exitStatus == nil { exitStatus = phase == .shutDown ? 0 : 1 }
    }

    /// A request's result, and any messages to send after the response.
    private mutating func request(_ method: String, params: Params) throws(ResponseError) -> (JSONValue, [JSONValue]) {
        switch method {
        case "initialize": return (try initialize(params), [])
        case "shutdown":
            phase = .shutDown
            return (.null, [])
        case "textDocument/completion": return (try completion(params), [])
        case "textDocument/hover": return (try hover(params), [])
        case "textDocument/definition": return (try definition(params), [])
        case "textDocument/references": return (try references(params), [])
        case "textDocument/documentSymbol": return (try documentSymbols(params), [])
        case "workspace/symbol": return (try workspaceSymbols(params), [])
        case "textDocument/prepareRename": return (try prepareRename(params), [])
        case "textDocument/rename": return (try rename(params), [])
        case "textDocument/codeAction": return (try codeActions(params), [])
        default: throw .methodNotFound(method)
        }
    }

    /// A notification: nothing is answered, so a bad one is only logged.
    private mutating func notify(_ method: String, params: JSONValue) {
        if method == "exit" {
            exitStatus = phase == .shutDown ? 0 : 1
            return
        }
        guard phase == .running else {
            if phase == .waitingForInitialize { log.write(.debug, "dropped '\(method.escapingControlCharacters)' before 'initialize'") }
            return
        }
        do throws(ResponseError) {
            switch method {
            case "initialized": registerForFileEvents()
            case "textDocument/didOpen": try didOpen(Params(params))
            case "textDocument/didChange": try didChange(Params(params))
            case "textDocument/didClose": try didClose(Params(params))
            case "workspace/didChangeWatchedFiles": try didChangeWatchedFiles(Params(params))
            case "workspace/didChangeWorkspaceFolders": try didChangeWorkspaceFolders(Params(params))
            default:
                // `$/` notifications may be ignored; so may any this server does not know.
                log.write(.debug, "ignored notification '\(method.escapingControlCharacters)'")
            }
        } catch {
            log.write(.warning, "'\(method.escapingControlCharacters)': \(error.message)")
        }
    }

    /// A request from the server to the client, with a fresh id.
    mutating func outgoingRequest(_ method: String, _ params: JSONValue) -> JSONValue {
        defer { nextOutgoingID += 1 }
        return JSONRPC.request(id: "juice-lint-\(nextOutgoingID)", method, params)
    }
}
