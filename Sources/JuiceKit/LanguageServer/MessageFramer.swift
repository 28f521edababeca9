/// Cuts a byte stream into Language Server Protocol messages: header lines
/// ending in `\r\n`, a blank line, then `Content-Length` bytes of body.
///
/// Bytes go in as they arrive, in any pieces; whole bodies come out. Nothing
/// the peer sends can make it hold unbounded memory or stop for good: a
/// header block that never ends is dropped past `maximumHeaderBytes`, a body
/// over `maximumBodyBytes` is read past without being kept, and a header
/// block with no usable length is reported and skipped, after which the
/// next header block is read as usual.
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
        let header = String(decoding: buffer[start..<headerEnd - 4], as: UTF8.self)
        var length: Int?
        var malformed: String?
        for line in header.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: " \t").lowercased()
            // A length that was too short leaves the rest of its body in
            // front of the next header: read on to the header's own name.
            guard name.hasSuffix("content-length") else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t")
            if let number = Int(value), number >= 0, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                length = number
            } else {
                malformed = "a Content-Length that is not a whole number: '\(value.prefix(40))'"
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

extension Substring {
    /// The text with `characters` trimmed from both ends.
    fileprivate func trimmingCharacters(in characters: String) -> String {
        var text = self
        while let first = text.first, characters.contains(first) { text = text.dropFirst() }
        while let last = text.last, characters.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
