@_spi(Internals) import JuiceSupport

/// The JSON-RPC 2.0 envelopes the Language Server Protocol travels in: the
/// one place a response, an error response or a notification is shaped.
enum JSONRPC {
    /// An id a response can echo: a number or a string (JSON-RPC 2.0).
    static func usableID(_ id: JSONValue?) -> JSONValue? {
        guard let id, id.int != nil || id.string != nil else { return nil }
        return id
    }

    static func response(id: JSONValue, result: JSONValue) -> JSONValue {
        .object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)])
    }

    static func response(id: JSONValue, error: ResponseError) -> JSONValue {
        .object([("jsonrpc", .string("2.0")), ("id", id), ("error", error.json)])
    }

    static func notification(_ method: String, _ params: JSONValue) -> JSONValue {
        .object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)])
    }

    static func request(id: String, _ method: String, _ params: JSONValue) -> JSONValue {
        .object([("jsonrpc", .string("2.0")), ("id", .string(id)), ("method", .string(method)), ("params", params)])
    }
}
