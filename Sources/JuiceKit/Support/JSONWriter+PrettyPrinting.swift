extension JSONWriter {
    /// The output so far, indented for people: see `prettyPrinted(_:indentWidth:)`.
    public var prettyPrintedOutput: String { Self.prettyPrinted(output) }

    /// Re-indents compact JSON, keeping every key and value byte for byte.
    ///
    /// Each member and element goes on its own line, `"key": value` gets one
    /// space after the colon, and empty containers stay `{}` and `[]`. It is a
    /// layout pass over `JSONWriter`'s own output, not a parser: whitespace
    /// outside strings is dropped and re-laid, text inside strings is copied as
    /// is. Working on UTF-8 bytes is safe because every structural character
    /// is ASCII, and no byte of a multi-byte sequence is.
    public static func prettyPrinted(_ json: String, indentWidth: Int = 2) -> String {
        let bytes = Array(json.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        var depth = 0
        var inString = false
        var escaped = false

        func newline() {
            out.append(UInt8(ascii: "\n"))
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * indentWidth))
        }

        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inString {
                out.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                out.append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                out.append(byte)
                let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                var next = index
                while next < bytes.count, isWhitespace(bytes[next]) { next += 1 }
                if next < bytes.count, bytes[next] == close {
                    out.append(close)
                    index = next + 1
                } else {
                    depth += 1
                    newline()
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth = max(0, depth - 1)
                newline()
                out.append(byte)
            case UInt8(ascii: ","):
                out.append(byte)
                newline()
            case UInt8(ascii: ":"):
                out.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
            case _ where isWhitespace(byte):
                break
            default:
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }
}
