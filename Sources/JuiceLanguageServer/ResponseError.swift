@_spi(Internals) import JuiceSupport
/// A JSON-RPC error response's `code` and `message`: what a request gets
/// instead of a result. Handlers throw it; the dispatcher answers with it.
struct ResponseError: Error, Sendable, Equatable {
    var code: Int
    var message: String

    static func parseError(_ message: String) -> ResponseError { ResponseError(code: -32700, message: message) }
    static func invalidRequest(_ message: String) -> ResponseError { ResponseError(code: -32600, message: message) }
    static func methodNotFound(_ method: String) -> ResponseError {
        ResponseError(code: -32601, message: "unknown method '\(method.escapingControlCharacters)'")
    }
    static func invalidParams(_ message: String) -> ResponseError { ResponseError(code: -32602, message: message) }
    static let serverNotInitialized = ResponseError(code: -32002, message: "the server is not initialized yet: send 'initialize' first")
    static let requestCancelled = ResponseError(code: -32800, message: "the request was cancelled")
    /// A request that was understood but cannot be carried out, such as a
    /// rename to a name already taken; the message says why.
    static func requestFailed(_ message: String) -> ResponseError { ResponseError(code: -32803, message: message) }

    var json: JSONValue { .object(["code": .int(code), "message": .string(message)]) }
}

/// Reads a request's parameters, answering a value of the wrong shape with
/// InvalidParams that names the field, rather than trapping or guessing.
struct Params {
    let value: JSONValue
    /// The field's path from the parameters' root, for messages: `position.line`.
    let path: String

    init(_ value: JSONValue, path: String = "params") {
        self.value = value
        self.path = path
    }

    private func field(_ key: String) -> String { path == "params" ? key : path + "." + key }

    /// The member `key`, which must be an object.
    func object(_ key: String) throws(ResponseError) -> Params {
        guard let member = value[key], member.isObject else { throw .invalidParams("'\(field(key))' must be an object") }
        return Params(member, path: field(key))
    }

    /// The member `key` if it is an object; nil when absent or null.
    func optionalObject(_ key: String) throws(ResponseError) -> Params? {
        guard let member = value[key], member != .null else { return nil }
        guard member.isObject else { throw .invalidParams("'\(field(key))' must be an object") }
        return Params(member, path: field(key))
    }

    func string(_ key: String) throws(ResponseError) -> String {
        guard let text = value[key]?.string else { throw .invalidParams("'\(field(key))' must be a string") }
        return text
    }

    func optionalString(_ key: String) throws(ResponseError) -> String? {
        guard let member = value[key], member != .null else { return nil }
        guard let text = member.string else { throw .invalidParams("'\(field(key))' must be a string") }
        return text
    }

    /// A whole number of at least 0 (LSP's `uinteger`).
    package func count(_ key: String) throws(ResponseError) -> Int {
        guard let number = value[key]?.int, number >= 0 else { throw .invalidParams("'\(field(key))' must be a whole number of at least 0") }
        return number
    }

    func optionalInt(_ key: String) throws(ResponseError) -> Int? {
        guard let member = value[key], member != .null else { return nil }
        guard let number = member.int else { throw .invalidParams("'\(field(key))' must be a whole number") }
        return number
    }

    func optionalBool(_ key: String) throws(ResponseError) -> Bool? {
        guard let member = value[key], member != .null else { return nil }
        guard let flag = member.bool else { throw .invalidParams("'\(field(key))' must be true or false") }
        return flag
    }

    /// The member `key`, which must be an array; each element as `Params`.
    func array(_ key: String) throws(ResponseError) -> [Params] {
        guard let elements = value[key]?.array else { throw .invalidParams("'\(field(key))' must be an array") }
        return elements.enumerated().map { Params($1, path: field(key) + "[\($0)]") }
    }

    func optionalArray(_ key: String) throws(ResponseError) -> [Params]? {
        guard let member = value[key], member != .null else { return nil }
        return try array(key)
    }

    /// An LSP `Position`: `{line, character}`.
    func position(_ key: String = "position") throws(ResponseError) -> (line: Int, character: Int) {
        let position = try object(key)
        return (try position.count("line"), try position.count("character"))
    }
}
