/// Where a `JSONValueWriter` puts its bytes. Everything handed over is
/// already JSON: structure, escaped strings, digits.
public protocol JSONOutput {
    mutating func appendJSON(byte: UInt8)
    mutating func appendJSON(_ bytes: [UInt8])
    mutating func appendJSON(text: String)
    mutating func appendJSON(decimal: Int)
}

/// A document built in memory.
extension String: JSONOutput {
    public mutating func appendJSON(byte: UInt8) { unicodeScalars.append(Unicode.Scalar(byte)) }
    public mutating func appendJSON(_ bytes: [UInt8]) { self += String(decoding: bytes, as: UTF8.self) }
    public mutating func appendJSON(text: String) { self += text }
    public mutating func appendJSON(decimal: Int) { self += String(decimal) }
}

/// JSON Lines, written a line at a time without making a `String`.
extension OutputBuffer: JSONOutput {
    public func appendJSON(byte: UInt8) { append(byte: byte) }
    public func appendJSON(_ bytes: [UInt8]) { append(bytes) }
    public func appendJSON(text: String) { write(text) }
    public func appendJSON(decimal: Int) { append(decimal: decimal) }
}

/// A key or string escaped once, for values a stream writes on every line.
public struct JSONPiece: Sendable, Hashable {
    /// The JSON text: `"text"`, or `"name":` for a key.
    let bytes: [UInt8]

    /// A string value.
    public init(string text: String) {
        var escaped = ""
        JSONWriter.appendString(text, to: &escaped)
        bytes = Array(escaped.utf8)
    }

    /// A key, with its colon.
    public init(key name: String) {
        var escaped = ""
        JSONWriter.appendString(name, to: &escaped)
        bytes = Array((escaped + ":").utf8)
    }
}
