import JuiceSupport
import JuiceSource
import JuiceDiagnostics
import JuiceYAML
import JuiceBook
import JuiceEngine
import JuiceSimulation
import JuiceLint
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

/// `file://` URIs and the paths they name.
enum DocumentURI {
    /// The path a `file:` URI names, percent-decoded and `normalized`; nil
    /// for another scheme or a URI that is not well formed.
    static func path(of uri: String) -> String? {
        guard uri.lowercased().hasPrefix("file://") else { return nil }
        var rest = Substring(uri.dropFirst(7))
        // `file://localhost/x` names `/x`; any other host is not a local file.
        if !rest.hasPrefix("/") {
            guard rest.lowercased().hasPrefix("localhost/") else { return nil }
            rest = rest.dropFirst(9)
        }
        if let query = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<query] }
        var bytes: [UInt8] = []
        var utf8 = Array(rest.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%") {
                guard utf8.count >= 2, let value = WholeNumber.hexadecimal(utf8.prefix(2)) else { return nil }
                utf8 = utf8.dropFirst(2)
                bytes.append(UInt8(truncatingIfNeeded: value))
            } else {
                bytes.append(byte)
            }
        }
        // A path is bytes to the kernel, but to everything here it is text.
        guard let path = String(validating: bytes, as: UTF8.self), !path.contains("\0") else { return nil }
        return normalized(path)
    }

    /// A path in the one form every path in the server takes (a book's
    /// files, open documents, file events): absolute, with no empty, `.` or
    /// `..` segments, so one file is one key however a URI spells it (`//`,
    /// `/./`, `/x/../`). `..` goes by the name, as RFC 3986 removes a URI's
    /// dot segments, not through links; a relative path (an old client's
    /// `rootPath`) is taken from the working directory.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in RecipeSources.absolutePath(path).split(separator: "/") {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The `file:` URI of an absolute path, percent-encoding all but
    /// unreserved characters and `/`, as VS Code and Neovim write them.
    static func uri(of path: String) -> String {
        var uri = "file://"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                uri += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return uri
    }
}
