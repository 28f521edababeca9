/// Writes JSON with keys in the order given, so machine output is byte-stable.
///
/// Foundation's encoders reorder keys and escape `/`; CI consumers diff this
/// output, so the tools write it themselves.
public struct JSONWriter: Sendable {
    /// The text written so far, as UTF-8. Bytes rather than a `String`: a
    /// `String` checks its capacity and updates its ASCII and count flags on
    /// every append, and a report of 200,000 diagnostics makes millions of
    /// small ones; that was two thirds of rendering it (perf).
    @usableFromInline var bytes: [UInt8] = []
    /// Whether the next member of the innermost container needs a comma
    /// first. Kept apart from the outer containers' flags, which only
    /// change when a container begins or ends: setting it in an array of
    /// flags checked that array's uniqueness on every value (callgrind).
    @usableFromInline var needsComma = false
    /// The flags of the containers around the innermost one, outermost first.
    private var outerNeedsComma: [Bool] = []

    /// An empty document.
    public init() {}

    /// An empty document with room for `capacity` bytes, for a caller that
    /// knows roughly how long it will be: growing by doubling copies a big
    /// document several times over. Room never written is never touched.
    public init(reservingCapacity capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// The JSON written so far.
    public var output: String { String(decoding: bytes, as: UTF8.self) }

    /// How many bytes are waiting, since the start or the last `drain`.
    public var pendingByteCount: Int { bytes.count }

    /// Hands the bytes written so far to `sink` and keeps writing where the
    /// document stands, so a long document goes out in blocks.
    public mutating func drain(into sink: inout some TextSink) {
        sink.write(utf8: bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    public mutating func beginObject() { begin(UInt8(ascii: "{")) }
    public mutating func endObject() { end(UInt8(ascii: "}")) }
    public mutating func beginArray() { begin(UInt8(ascii: "[")) }
    public mutating func endArray() { end(UInt8(ascii: "]")) }

    private mutating func begin(_ bracket: UInt8) {
        value()
        bytes.append(bracket)
        outerNeedsComma.append(needsComma)
        needsComma = false
    }

    private mutating func end(_ bracket: UInt8) {
        needsComma = outerNeedsComma.popLast() ?? false
        bytes.append(bracket)
    }

    /// Writes `"name":`; the next value written belongs to it.
    ///
    /// `key`, `string`, `int` and two `field`s are `@inlinable`: the
    /// printers that call them a few million times live in other modules,
    /// where out of line `key` alone took 104 M instructions of a JSON
    /// report of 200,000 diagnostics (3.13 G; 3.02 G with these inlined and
    /// `Rule.withDescriptor`, against cf0d643's one-module 2.98 G; callgrind).
    @inlinable public mutating func key(_ name: String) {
        separate()
        Self.appendString(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
        pendingKey = true
    }

    @inlinable public mutating func string(_ text: String) { value(); Self.appendString(text, to: &bytes) }
    @inlinable public mutating func int(_ number: Int) { value(); Self.appendDecimal(number, to: &bytes) }
    /// A number already in JSON's syntax, for values wider than `Int`, such as an exact revenue.
    public mutating func number(_ literal: String) { value(); bytes.append(contentsOf: literal.utf8) }
    public mutating func bool(_ flag: Bool) { value(); bytes.append(contentsOf: (flag ? "true" : "false").utf8) }
    public mutating func null() { value(); bytes.append(contentsOf: "null".utf8) }

    @inlinable public mutating func field(_ name: String, _ text: String) { key(name); string(text) }
    @inlinable public mutating func field(_ name: String, _ number: Int) { key(name); int(number) }
    public mutating func field(_ name: String, _ text: String?) {
        key(name)
        if let text { string(text) } else { null() }
    }

    @usableFromInline var pendingKey = false

    @inlinable mutating func value() {
        if pendingKey {
            pendingKey = false
        } else {
            separate()
        }
        needsComma = true
    }

    @inlinable mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// Escapes per RFC 8259: quotes, backslashes and control characters.
    public static func appendString(_ text: String, to output: inout String) {
        guard needsEscape(text) else {
            output += "\""
            output += text
            output += "\""
            return
        }
        var escaped: [UInt8] = []
        appendString(text, to: &escaped)
        output += String(decoding: escaped, as: UTF8.self)
    }

    /// `appendString(_:to:)` for a UTF-8 buffer.
    @usableFromInline static func appendString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        defer { output.append(UInt8(ascii: "\"")) }
        // Nearly every string needs no escape: its bytes are checked and
        // copied whole from where they lie, in one pass over them. Through
        // the UTF-8 view's iterator the copy alone was a sixth of a JSON
        // report of 200,000 diagnostics (callgrind).
        let copied = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            guard isPlain(utf8) else { return false }
            output.append(contentsOf: utf8)
            return true
        }
        if copied == true { return }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output.append(contentsOf: #"\""#.utf8)
            case "\\": output.append(contentsOf: #"\\"#.utf8)
            case "\n": output.append(contentsOf: #"\n"#.utf8)
            case "\r": output.append(contentsOf: #"\r"#.utf8)
            case "\t": output.append(contentsOf: #"\t"#.utf8)
            case "\u{08}": output.append(contentsOf: #"\b"#.utf8)
            case "\u{0C}": output.append(contentsOf: #"\f"#.utf8)
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                output.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            default:
                UTF8.encode(scalar) { output.append($0) }
            }
        }
    }

    /// Whether the text is printable ASCII with no quote or backslash, so
    /// nothing in it is escaped. Other text takes the careful path, which
    /// writes the same bytes. With no early exit the compiler checks many
    /// bytes at once: stopping at the first special byte cost ten
    /// instructions a byte (callgrind).
    private static func isPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        var least = UInt8.max
        var greatest = UInt8.min
        var quotes: UInt8 = 0
        for byte in utf8 {
            least = min(least, byte)
            greatest = max(greatest, byte)
            quotes |= (byte == 0x22 ? 1 : 0) | (byte == 0x5C ? 1 : 0)
        }
        return least >= 0x20 && greatest < 0x7F && quotes == 0
    }

    /// A whole number in decimal, written straight into the bytes rather
    /// than made a `String` first.
    @usableFromInline static func appendDecimal(_ number: Int, to output: inout [UInt8]) {
        if number < 0 { output.append(UInt8(ascii: "-")) }
        // The magnitude as unsigned, so `Int.min` needs no special case.
        var rest = number.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                count += 1
                buffer[buffer.count - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            output.append(contentsOf: buffer[(buffer.count - count)...])
        }
    }

    /// Whether any byte of `text` must be escaped. Nearly every string needs
    /// no escape at all and is copied whole. (0xE2 leads U+2028 and U+2029,
    /// so text with it takes the careful path.)
    private static func needsEscape(_ text: String) -> Bool {
        func plain(_ byte: UInt8) -> Bool { byte >= 0x20 && byte != 0x22 && byte != 0x5C && byte != 0x7F && byte != 0xE2 }
        // Scanning the contiguous bytes, not the UTF-8 view's iterator, is
        // what makes the check cheap next to the copy.
        if let plainText = text.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy(plain) }) { return !plainText }
        return !text.utf8.allSatisfy(plain)
    }
}
