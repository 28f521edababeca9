/// Writes JSON with keys in the order given, so machine output is byte-stable.
///
/// Foundation's encoders reorder keys and escape `/`; CI consumers diff this
/// output, so the tools write it themselves. This one writer serves both
/// shapes of JSON the tools write: a whole document built in memory
/// (`JSONWriter`, writing to a `String`: the lint report, SARIF) and JSON
/// Lines streamed event by event straight into an `OutputBuffer` (juice-run's
/// `--format json`, millions of lines). For the stream, values that repeat on
/// every line (ids, the source, constant keys) can be escaped once, as
/// `JSONPiece`s, and written as they are.
public struct JSONValueWriter<Output: JSONOutput> {
    /// Everything written so far (for a buffer, the buffer itself).
    public private(set) var output: Output
    /// Bit `d` is set once the container open at depth `d` has a member, so
    /// the next one needs a comma; depth 0 is the top level. A bit set rather
    /// than a stack: the streaming writer checks it on every member.
    private var commas: UInt64 = 0
    /// The same, for containers nested 64 deep or more (never, in practice).
    private var deeperCommas: [Bool] = []
    private var depth = 0
    private var pendingKey = false

    /// A writer that appends to `output`.
    public init(into output: Output) {
        self.output = output
    }

    public mutating func beginObject() { value(); output.appendJSON(byte: UInt8(ascii: "{")); push() }
    public mutating func endObject() { pop(); output.appendJSON(byte: UInt8(ascii: "}")) }
    public mutating func beginArray() { value(); output.appendJSON(byte: UInt8(ascii: "[")); push() }
    public mutating func endArray() { pop(); output.appendJSON(byte: UInt8(ascii: "]")) }

    /// Writes `"name":`; the next value written belongs to it.
    public mutating func key(_ name: String) {
        separate()
        Self.appendString(name, to: &output)
        output.appendJSON(byte: UInt8(ascii: ":"))
        keyWritten()
    }

    /// Writes a key escaped beforehand (`JSONPiece(key:)`).
    public mutating func key(_ piece: JSONPiece) {
        separate()
        output.appendJSON(piece.bytes)
        keyWritten()
    }

    public mutating func string(_ text: String) { value(); Self.appendString(text, to: &output) }
    /// Writes a string escaped beforehand (`JSONPiece(string:)`).
    public mutating func string(_ piece: JSONPiece) { value(); output.appendJSON(piece.bytes) }
    public mutating func int(_ number: Int) { value(); output.appendJSON(decimal: number) }
    /// A number already in JSON's syntax, for values wider than `Int`, such as an exact revenue.
    public mutating func number(_ literal: String) { value(); output.appendJSON(text: literal) }
    public mutating func bool(_ flag: Bool) { value(); output.appendJSON(text: flag ? "true" : "false") }
    public mutating func null() { value(); output.appendJSON(text: "null") }

    public mutating func field(_ name: String, _ text: String) { key(name); string(text) }
    public mutating func field(_ name: String, _ number: Int) { key(name); int(number) }
    public mutating func field(_ name: String, _ text: String?) {
        key(name)
        if let text { string(text) } else { null() }
    }
    public mutating func field(_ name: JSONPiece, _ number: Int) { key(name); int(number) }
    public mutating func field(_ name: JSONPiece, _ text: JSONPiece) { key(name); string(text) }

    /// Starts a new top-level value with no comma before it, as JSON Lines
    /// writes one per line; the caller ends the line.
    public mutating func beginLine() {
        commas = 0
        deeperCommas.removeAll(keepingCapacity: true)
        depth = 0
        pendingKey = false
    }

    private mutating func keyWritten() {
        setComma(false)
        pendingKey = true
    }

    private mutating func value() {
        if pendingKey {
            pendingKey = false
        } else {
            separate()
        }
        setComma(true)
    }

    private mutating func separate() {
        if hasComma { output.appendJSON(byte: UInt8(ascii: ",")) }
    }

    private mutating func push() {
        depth += 1
        setComma(false)
    }

    private mutating func pop() {
        if depth >= UInt64.bitWidth, !deeperCommas.isEmpty { deeperCommas.removeLast() }
        depth = max(0, depth - 1)
    }

    private var hasComma: Bool {
        if depth < UInt64.bitWidth { return commas & (1 << UInt64(depth)) != 0 }
        return deeperCommas.last ?? false
    }

    private mutating func setComma(_ flag: Bool) {
        if depth < UInt64.bitWidth {
            let bit: UInt64 = 1 << UInt64(depth)
            commas = flag ? commas | bit : commas & ~bit
        } else if deeperCommas.count > depth - UInt64.bitWidth {
            deeperCommas[depth - UInt64.bitWidth] = flag
        } else {
            deeperCommas.append(flag)
        }
    }

    /// Escapes per RFC 8259: quotes, backslashes and control characters.
    public static func appendString(_ text: String, to output: inout some JSONOutput) {
        output.appendJSON(byte: UInt8(ascii: "\""))
        // Nearly every string needs no escape at all: copy it whole. (0xE2
        // leads U+2028 and U+2029, so text with it takes the careful path.)
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C && $0 != 0x7F && $0 != 0xE2 }) {
            output.appendJSON(text: text)
            output.appendJSON(byte: UInt8(ascii: "\""))
            return
        }
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case "\u{08}": escaped += "\\b"
            case "\u{0C}": escaped += "\\f"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                escaped.unicodeScalars.append(scalar)
            }
        }
        output.appendJSON(text: escaped)
        output.appendJSON(byte: UInt8(ascii: "\""))
    }
}

extension JSONValueWriter: Sendable where Output: Sendable {}

/// The writer of whole documents, into a `String`.
public typealias JSONWriter = JSONValueWriter<String>

extension JSONValueWriter where Output == String {
    /// An empty document.
    public init() { self.init(into: "") }
}
