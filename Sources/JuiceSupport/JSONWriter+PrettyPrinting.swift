extension JSONWriter {
    /// The output so far, indented for people: see `prettyPrinted(_:indentWidth:)`.
    public var prettyPrintedOutput: String { Self.prettyPrinted(output) }

    /// Re-indents compact JSON, keeping every key and value byte for byte.
    ///
    /// Each member and element goes on its own line, `"key": value` gets one
    /// space after the colon, and empty containers stay `{}` and `[]`. It is a
    /// layout pass over `JSONWriter`'s own output, not a parser: whitespace
    /// outside strings is dropped and re-laid, text inside strings is copied as
    /// is. See `IndentingSink`, which does it as the JSON is written.
    public static func prettyPrinted(_ json: String, indentWidth: Int = 2) -> String {
        var indenting = IndentingSink(CollectedText(), indentWidth: indentWidth)
        indenting.write(json)
        indenting.finish()
        return indenting.base.text
    }
}

/// Re-indents compact JSON on its way to another sink, a block at a time, as
/// `JSONWriter.prettyPrinted` describes: a SARIF log is indented as it is
/// written, never held whole in either layout.
///
/// Working on UTF-8 bytes is safe because every structural character is
/// ASCII, and no byte of a multi-byte sequence is. Whether a container is
/// empty is only known at the next byte that is not whitespace, which may
/// come in the next block, so an opened container waits for it; `finish()`
/// settles one still waiting at the end.
public struct IndentingSink<Base: TextSink>: TextSink {
    /// Where the indented JSON goes.
    public private(set) var base: Base
    private let indentWidth: Int
    private var out: [UInt8] = []
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// The closing byte of a container just opened, until a byte that is not
    /// whitespace says whether it is empty.
    private var pendingClose: UInt8?

    /// Passes the re-indented bytes on to `base`.
    public init(_ base: Base, indentWidth: Int = 2) {
        self.base = base
        self.indentWidth = indentWidth
    }

    public var hasFailed: Bool { base.hasFailed }

    public mutating func write(_ text: String) { write(utf8: Array(text.utf8)) }

    public mutating func write(utf8 bytes: [UInt8]) {
        out.reserveCapacity(bytes.count * 2)
        bytes.withUnsafeBufferPointer { input in
            var index = 0
            while index < input.count {
                guard inString, !escaped else {
                    take(input[index])
                    index += 1
                    continue
                }
                // Most of a log is the text inside strings: copied up to the
                // next quote or backslash in one go, not a byte at a time,
                // which was a fifth of writing a SARIF log (callgrind).
                var end = index
                while end < input.count, input[end] != UInt8(ascii: "\""), input[end] != UInt8(ascii: "\\") { end += 1 }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: input[index..<end]))
                if end < input.count { take(input[end]) }
                index = end + 1
            }
        }
        base.write(utf8: out)
        out.removeAll(keepingCapacity: true)
    }

    /// Ends the document: a container opened last and never closed gets its
    /// line break, as if more followed.
    public mutating func finish() {
        if pendingClose != nil {
            pendingClose = nil
            open()
            base.write(utf8: out)
            out.removeAll(keepingCapacity: true)
        }
    }

    private mutating func take(_ byte: UInt8) {
        if inString {
            out.append(byte)
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            return
        }
        if let close = pendingClose {
            if Self.isWhitespace(byte) { return }
            pendingClose = nil
            if byte == close {
                out.append(close)
                return
            }
            open()
        }
        switch byte {
        case UInt8(ascii: "\""):
            inString = true
            out.append(byte)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            out.append(byte)
            pendingClose = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth = max(0, depth - 1)
            newline()
            out.append(byte)
        case UInt8(ascii: ","):
            out.append(byte)
            newline()
        case UInt8(ascii: ":"):
            out.append(UInt8(ascii: ":"))
            out.append(UInt8(ascii: " "))
        case _ where Self.isWhitespace(byte):
            break
        default:
            out.append(byte)
        }
    }

    /// A container with something in it: one level deeper, on a new line.
    private mutating func open() {
        depth += 1
        newline()
    }

    private mutating func newline() {
        let width = 1 + depth * indentWidth
        while lineStart.count < width { lineStart.append(UInt8(ascii: " ")) }
        out.append(contentsOf: lineStart[..<width])
    }

    /// A line break and the deepest indentation used so far, of which each
    /// new line takes what it needs.
    private var lineStart: [UInt8] = [UInt8(ascii: "\n")]

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }
}
