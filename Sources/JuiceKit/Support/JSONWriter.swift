/// Writes JSON with keys in the order given, so machine output is byte-stable.
///
/// Foundation's encoders reorder keys and escape `/`; CI consumers diff this
/// output, so the tools write it themselves.
public struct JSONWriter: Sendable {
    public private(set) var output = ""
    private var needsComma: [Bool] = [false]

    /// An empty document.
    public init() {}

    public mutating func beginObject() { value(); output += "{"; needsComma.append(false) }
    public mutating func endObject() { needsComma.removeLast(); output += "}" }
    public mutating func beginArray() { value(); output += "["; needsComma.append(false) }
    public mutating func endArray() { needsComma.removeLast(); output += "]" }

    /// Writes `"name":`; the next value written belongs to it.
    public mutating func key(_ name: String) {
        separate()
        Self.appendString(name, to: &output)
        output += ":"
        needsComma[needsComma.count - 1] = false
        pendingKey = true
    }

    public mutating func string(_ text: String) { value(); Self.appendString(text, to: &output) }
    public mutating func int(_ number: Int) { value(); output += String(number) }
    /// A number already in JSON's syntax, for values wider than `Int`, such as an exact revenue.
    public mutating func number(_ literal: String) { value(); output += literal }
    public mutating func bool(_ flag: Bool) { value(); output += flag ? "true" : "false" }
    public mutating func null() { value(); output += "null" }

    public mutating func field(_ name: String, _ text: String) { key(name); string(text) }
    public mutating func field(_ name: String, _ number: Int) { key(name); int(number) }
    public mutating func field(_ name: String, _ text: String?) {
        key(name)
        if let text { string(text) } else { null() }
    }

    private var pendingKey = false

    private mutating func value() {
        if pendingKey {
            pendingKey = false
        } else {
            separate()
        }
        needsComma[needsComma.count - 1] = true
    }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { output += "," }
    }

    /// Escapes per RFC 8259: quotes, backslashes and control characters.
    public static func appendString(_ text: String, to output: inout String) {
        output += "\""
        // Nearly every string needs no escape at all: copy it whole. (0xE2
        // leads U+2028 and U+2029, so text with it takes the careful path.)
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C && $0 != 0x7F && $0 != 0xE2 }) {
            output += text
            output += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
