/// Why a text is not a JSON value: where, and what was found there.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The byte offset of the problem.
    public var offset: Int
    public var reason: String

    public var description: String { "\(reason) at byte \(offset)" }
}

extension JSONValue {
    /// The deepest nesting read; deeper input is refused, so no message can
    /// make the reader (or anything that walks the value) use unbounded memory
    /// per byte or recurse deeply.
    public static let maximumDepth = 512

    /// Reads one JSON value (RFC 8259) that fills `bytes`, whitespace aside.
    ///
    /// Strict about the grammar (no trailing commas, comments, or single
    /// quotes), lenient about text: a bad UTF-8 sequence in a string, or a
    /// lone surrogate escape, reads as U+FFFD rather than failing the whole
    /// message. Nesting is kept on an explicit stack, bounded by `maximumDepth`.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var reader = JSONReader(bytes: bytes)
        return try reader.document()
    }

    /// Reads one JSON value from text.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

/// The reader behind `JSONValue.parse`: one pass over the bytes.
private struct JSONReader {
    package let bytes: [UInt8]
    package var offset = 0

    /// A container being filled: an array's elements, or an object's
    /// members and the name of the one whose value comes next. Each is its
    /// own buffer, filled in place on the stack and moved into the value
    /// when the container closes; appending to an array held in an enum
    /// case copied it for every element, a quadratic read.
    struct Open {
        var isObject: Bool
        var elements: [JSONValue] = []
        var members: [(key: String, value: JSONValue)] = []
        var pendingKey = ""
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    func failure(_ reason: String) -> JSONParseError {
        JSONParseError(offset: offset, reason: reason)
    }

    mutating func skipWhitespace() {
        while offset < bytes.count, bytes[offset] == 0x20 || bytes[offset] == 0x0A || bytes[offset] == 0x0D || bytes[offset] == 0x09 {
            offset += 1
        }
    }

    mutating func document() throws(JSONParseError) -> JSONValue {
        let value = try value()
        skipWhitespace()
        guard offset == bytes.count else { throw failure("unexpected text after the value") }
        return value
    }

    /// One value, nesting handled with `stack` rather than recursion.
    package mutating func value() throws(JSONParseError) -> JSONValue {
        var stack: [Open] = []
        while true {
            skipWhitespace()
            guard offset < bytes.count else { throw failure("unexpected end of input") }
            var finished: JSONValue
            switch bytes[offset] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard stack.count < JSONValue.maximumDepth else {
                    throw failure("nested deeper than \(JSONValue.maximumDepth) levels")
                }
                let isObject = bytes[offset] == UInt8(ascii: "{")
                offset += 1
                skipWhitespace()
                let closer = UInt8(ascii: isObject ? "}" : "]")
                if offset < bytes.count, bytes[offset] == closer {
                    offset += 1
                    finished = isObject ? .object([]) : .array([])
                } else {
                    var open = Open(isObject: isObject)
                    if isObject { open.pendingKey = try key() }
                    stack.append(open)
                    continue
                }
            case UInt8(ascii: "\""):
                finished = .string(try string())
            case UInt8(ascii: "t"):
                try literal("true")
                finished = .bool(true)
            case UInt8(ascii: "f"):
                try literal("false")
                finished = .bool(false)
            case UInt8(ascii: "n"):
                try literal("null")
                finished = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                finished = try number()
            default:
                throw failure("unexpected character")
            }
            // Hand the finished value to the containers it closes.
            while let top = stack.indices.last {
                if stack[top].isObject {
                    stack[top].members.append((stack[top].pendingKey, finished))
                } else {
                    stack[top].elements.append(finished)
                }
                skipWhitespace()
                guard offset < bytes.count else { throw failure("unexpected end of input") }
                let next = bytes[offset]
                offset += 1
                if next == UInt8(ascii: ",") {
                    if stack[top].isObject { stack[top].pendingKey = try key() }
                    break
                }
                guard next == UInt8(ascii: stack[top].isObject ? "}" : "]") else {
                    offset -= 1
                    throw failure(stack[top].isObject ? "expected ',' or '}'" : "expected ',' or ']'")
                }
                let open = stack.removeLast()
                finished = open.isObject ? .object(open.members) : .array(open.elements)
            }
            if stack.isEmpty { return finished }
        }
    }

    /// `"name" :` before an object member's value.
    package mutating func key() throws(JSONParseError) -> String {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw failure("expected a member name") }
        let name = try string()
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw failure("expected ':'") }
        offset += 1
        return name
    }

    mutating func literal(_ word: String) throws(JSONParseError) {
        let expected = Array(word.utf8)
        guard offset + expected.count <= bytes.count else { throw failure("unexpected end of input") }
        guard bytes[offset..<offset + expected.count].elementsEqual(expected) else { throw failure("unexpected character") }
        offset += expected.count
    }

    mutating func number() throws(JSONParseError) -> JSONValue {
        let start = offset
        var integral = true
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        func digits(_ reader: inout JSONReader) -> Int {
            let first = reader.offset
            while reader.offset < reader.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(reader.bytes[reader.offset]) {
                reader.offset += 1
            }
            return reader.offset - first
        }
        guard offset < bytes.count else { throw failure("unexpected end of input") }
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
        } else if digits(&self) == 0 {
            throw failure("expected a digit")
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            integral = false
            offset += 1
            guard digits(&self) > 0 else { throw failure("expected a digit") }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            integral = false
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            guard digits(&self) > 0 else { throw failure("expected a digit") }
        }
        // Whole numbers (ids, positions, most of a big array) are read
        // without making a string first.
        let negative = bytes[start] == UInt8(ascii: "-")
        if integral, let magnitude = bytes.withUnsafeBufferPointer({
            WholeNumber.decimalValue(UnsafeBufferPointer(rebasing: $0[(negative ? start + 1 : start)..<offset]))
        }) {
            return .int(negative ? -magnitude : magnitude)
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        if integral, let number = Int(text) { return .int(number) }
        return .double(Double(text) ?? (text.hasPrefix("-") ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude))
    }

    /// A string from its opening quote; escapes decoded.
    mutating func string() throws(JSONParseError) -> String {
        offset += 1
        let start = offset
        // Most strings have no escape: take the bytes whole.
        while offset < bytes.count, bytes[offset] != UInt8(ascii: "\""), bytes[offset] != UInt8(ascii: "\\"), bytes[offset] >= 0x20 {
            offset += 1
        }
        guard offset < bytes.count else { throw failure("unterminated string") }
        if bytes[offset] == UInt8(ascii: "\"") {
            offset += 1
            return String(decoding: bytes[start..<offset - 1], as: UTF8.self)
        }
        var raw = Array(bytes[start..<offset])
        var pendingHigh: UInt16?
        func flushSurrogate() {
            if pendingHigh != nil {
                raw += Array("\u{FFFD}".utf8)
                pendingHigh = nil
            }
        }
        while true {
            guard offset < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                flushSurrogate()
                offset += 1
                return String(decoding: raw, as: UTF8.self)
            }
            guard byte >= 0x20 else { throw failure("control character in a string") }
            guard byte == UInt8(ascii: "\\") else {
                flushSurrogate()
                raw.append(byte)
                offset += 1
                continue
            }
            guard offset + 1 < bytes.count else { throw failure("unterminated string") }
            let escape = bytes[offset + 1]
            offset += 2
            if escape == UInt8(ascii: "u") {
                guard offset + 4 <= bytes.count, let value = WholeNumber.hexadecimal(bytes[offset..<offset + 4]) else {
                    throw failure("bad \\u escape")
                }
                let unit = UInt16(truncatingIfNeeded: value)
                offset += 4
                if UTF16.isLeadSurrogate(unit) {
                    flushSurrogate()
                    pendingHigh = unit
                } else if UTF16.isTrailSurrogate(unit), let high = pendingHigh {
                    pendingHigh = nil
                    let value = 0x10000 + (UInt32(high - 0xD800) << 10 | UInt32(unit - 0xDC00))
                    raw += Array(String(Unicode.Scalar(value) ?? "\u{FFFD}").utf8)
                } else {
                    flushSurrogate()
                    raw += Array(String(Unicode.Scalar(unit) ?? "\u{FFFD}").utf8)
                }
                continue
            }
            flushSurrogate()
            switch escape {
            case UInt8(ascii: "\""): raw.append(0x22)
            case UInt8(ascii: "\\"): raw.append(0x5C)
            case UInt8(ascii: "/"): raw.append(0x2F)
            case UInt8(ascii: "b"): raw.append(0x08)
            case UInt8(ascii: "f"): raw.append(0x0C)
            case UInt8(ascii: "n"): raw.append(0x0A)
            case UInt8(ascii: "r"): raw.append(0x0D)
            case UInt8(ascii: "t"): raw.append(0x09)
            default:
                offset -= 1
                throw failure("bad escape")
            }
        }
    }
}
