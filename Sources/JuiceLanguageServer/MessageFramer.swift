/// Cuts a byte stream into Language Server Protocol messages: header lines
/// ending in `\r\n`, a blank line, then `Content-Length` bytes of body.
///
/// Bytes go in as they arrive, in any pieces; whole bodies come out. Nothing
/// the peer sends can make it hold unbounded memory or stop for good: a
/// header block that never ends is dropped past `maximumHeaderBytes`, a body
/// over `maximumBodyBytes` is read past without being kept, and a header
/// block with no usable length is reported and skipped, after which the
/// next header block is read as usual, even with the skipped message's body
/// still in front of it (`contentLength(in:)`).
struct MessageFramer {
    /// One thing cut from the stream.
    enum Frame: Equatable {
        /// A whole body, for the JSON reader.
        case body([UInt8])
        /// Something that was dropped, and why, for the log.
        case dropped(String)
    }

    /// The most header bytes one message may have.
    static let maximumHeaderBytes = 64 << 10
    /// The largest body kept: a 64 MiB recipe file escaped into JSON fits.
    static let maximumBodyBytes = 256 << 20

    private var buffer: [UInt8] = []
    /// Where unread bytes start in `buffer`.
    private var start = 0
    /// How far the search for the header's end has looked, from `start`.
    private var scanned = 0
    /// Body bytes still to be read past, for a message too large to keep.
    private var skipping = 0

    /// Adds bytes as they arrived.
    mutating func append(_ bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame, or nil until more bytes arrive.
    mutating func next() -> Frame? {
        defer { compact() }
        if skipping > 0 {
            let taken = min(skipping, buffer.count - start)
            start += taken
            skipping -= taken
            guard skipping == 0 else { return nil }
        }
        guard let headerEnd = findHeaderEnd() else {
            if buffer.count - start > Self.maximumHeaderBytes {
                // Keep only a trailing run of line breaks: it may begin the
                // blank line; anything else would be glued to the next header.
                start = buffer.count
                while start > buffer.count - 3, buffer[start - 1] == 0x0D || buffer[start - 1] == 0x0A { start -= 1 }
                scanned = 0
                return .dropped("a header block longer than \(Self.maximumHeaderBytes) bytes")
            }
            return nil
        }
        var length: Int?
        var malformed: String?
        let lines = buffer[start..<headerEnd - 4].split(omittingEmptySubsequences: true) { $0 == 0x0D || $0 == 0x0A }
        for line in lines {
            guard let field = Self.contentLength(in: line) else { continue }
            let value = String(decoding: field, as: UTF8.self)
            if field.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int(value) {
                length = number
            } else {
                malformed = "a Content-Length that is not a whole number: '\(String(value.prefix(40)).escapingControlCharacters)'"
            }
        }
        guard let length else {
            start = headerEnd
            scanned = 0
            return .dropped(malformed ?? "a header block with no Content-Length")
        }
        if length > Self.maximumBodyBytes {
            start = headerEnd
            scanned = 0
            skipping = length
            let taken = min(skipping, buffer.count - start)
            start += taken
            skipping -= taken
            return .dropped("a message of \(length) bytes, over the \(Self.maximumBodyBytes >> 20) MiB limit")
        }
        guard buffer.count - headerEnd >= length else { return nil }
        let body = Array(buffer[headerEnd..<headerEnd + length])
        start = headerEnd + length
        scanned = 0
        return .body(body)
    }

    /// The value of a `Content-Length` header line (spaces and tabs around
    /// it trimmed), or nil when the line is another header.
    ///
    /// The name is the last `content-length`, in any case, that a `:` follows
    /// (spaces and tabs between allowed) and that starts the line or follows
    /// a byte no header name has. A body that was dropped, or read too short,
    /// leaves its rest (`..."params":{}}`) in front of the next header on the
    /// same line, and this finds the header behind it; `X-Content-Length` is
    /// another header, since `-` belongs to its name.
    static func contentLength(in line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let name = Array("content-length".utf8)
        var candidate = line.endIndex - name.count
        while candidate >= line.startIndex {
            defer { candidate -= 1 }
            guard zip(line[candidate...], name).allSatisfy({ ($0 | 0x20) == $1 }) else { continue }
            if candidate > line.startIndex, isTokenByte(line[candidate - 1]) { continue }
            var colon = candidate + name.count
            while colon < line.endIndex, line[colon] == 0x20 || line[colon] == 0x09 { colon += 1 }
            guard colon < line.endIndex, line[colon] == UInt8(ascii: ":") else { continue }
            var value = line[(colon + 1)...]
            while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            return value
        }
        return nil
    }

    /// Whether a byte can be part of a header name (RFC 9110's `tchar`).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// The offset just past `\r\n\r\n`, searching on from where the last
    /// search stopped.
    private mutating func findHeaderEnd() -> Int? {
        var index = start + max(scanned - 3, 0)
        while index + 3 < buffer.count {
            if buffer[index] == 0x0D, buffer[index + 1] == 0x0A, buffer[index + 2] == 0x0D, buffer[index + 3] == 0x0A {
                return index + 4
            }
            index += 1
        }
        scanned = buffer.count - start
        return nil
    }

    /// Drops read bytes once they are most of the buffer, so the buffer
    /// stays the size of what is unread.
    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
            start = 0
        } else if start > 1 << 16, start * 2 > buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }
}
