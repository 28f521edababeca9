import JuiceSource
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a `ByteSource` line by line in fixed-size blocks, so an order
/// script of any length runs in constant memory.
///
/// Lines end at `\n`; a `\r` before it is dropped, so CRLF scripts work, and a
/// last line without a newline still counts.
///
/// A stop request (`shouldStop`) ends the reading: a read waiting for input,
/// at the counter or on an idle pipe, throws `LineReader.Stopped` (and
/// `nextLine` returns nil) instead of waiting on.
public struct LineReader {
    private let source: any ByteSource
    private let shouldStop: () -> Bool
    private var buffer: [UInt8] = []
    private var start = 0
    /// How far into `buffer` the search for a newline has already looked.
    private var scanned = 0
    private var exhausted = false
    private var block = [UInt8](repeating: 0, count: 1 << 16)
    private var bytesBeforeBuffer = 0
    public private(set) var lineNumber = 0
    /// The longest line handed out whole. A longer one is cut to nothing and
    /// flagged in `lastLineWasTooLong`, and the reader skips to its end, so
    /// memory stays bounded whatever the input.
    public static let maxLineLength = 1 << 20
    /// Whether the last line handed out was longer than `maxLineLength`.
    public private(set) var lastLineWasTooLong = false
    private var discarding = false
    /// Bytes consumed through the end of the last line handed out, for progress.
    public var bytesConsumed: Int { bytesBeforeBuffer + start }

    /// Thrown out of a line loop to stop it.
    struct Stopped: Error {}

    /// Reads `source` from where it is, asking `shouldStop` before each wait for input.
    public init(source: any ByteSource, shouldStop: @escaping () -> Bool) {
        self.source = source
        self.shouldStop = shouldStop
    }

    /// Calls `body` with the next line's bytes, valid only during the call.
    /// Returns nil at the end of input; throws when the descriptor cannot be read.
    /// `body` also learns whether the line was too long (and so is empty).
    public mutating func withNextLine<Result>(_ body: (UnsafeBufferPointer<UInt8>, Bool) throws -> Result) throws -> Result? {
        while true {
            if let newline = Self.newline(in: buffer, from: scanned) {
                lineNumber += 1
                if discarding {
                    discarding = false
                    lastLineWasTooLong = true
                    start = newline + 1
                    scanned = start
                    return try body(UnsafeBufferPointer(start: nil, count: 0), true)
                }
                lastLineWasTooLong = false
                var end = newline
                if end > start && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                var lineStart = start
                // A UTF-8 byte-order mark opening the input is not part of the first line.
                if lineNumber == 1, bytesBeforeBuffer == 0 {
                    lineStart += LineBreaks.utf8MarkLength(buffer, at: lineStart, end: end)
                }
                start = newline + 1
                scanned = start
                return try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[lineStart..<end]), false) }
            }
            scanned = buffer.count
            if buffer.count - start > Self.maxLineLength {
                // Keep nothing of an overlong line; remember to report it at its end.
                discarding = true
                start = buffer.count
                scanned = start
            }
            if exhausted {
                guard start < buffer.count || discarding else { return nil }
                buffer.append(UInt8(ascii: "\n"))
                continue
            }
            try refill()
        }
    }

    /// The next line as text (invalid UTF-8 shown as U+FFFD), or nil at the end
    /// of input or on a read error, which an interactive session treats alike.
    public mutating func nextLine() -> String? {
        (try? withNextLine { bytes, _ in String(decoding: bytes, as: UTF8.self) }) ?? nil
    }

    /// One line as `forEachLine` hands it out.
    public struct Line {
        /// The line's bytes, valid only during the call; empty when too long.
        public let bytes: UnsafeBufferPointer<UInt8>
        /// 1-based.
        public let number: Int
        /// Bytes consumed through this line, for progress.
        public let consumed: Int
        /// The line was longer than `maxLineLength` and was dropped.
        public let tooLong: Bool
    }

    /// Calls `body` with each line in turn.
    public mutating func forEachLine(_ body: (Line) throws -> Void) throws {
        while true {
            let number = lineNumber + 1
            let consumedBefore = bytesConsumed
            let more: Void? = try withNextLine { bytes, tooLong in
                try body(Line(bytes: bytes, number: number, consumed: consumedBefore + bytes.count + 1, tooLong: tooLong))
            }
            guard more != nil else { return }
        }
    }

    /// The index of the next `\n` at or after `start`, found with `memchr`.
    private static func newline(in buffer: [UInt8], from start: Int) -> Int? {
        guard start < buffer.count else { return nil }
        return buffer.withUnsafeBufferPointer { bytes -> Int? in
            guard let base = bytes.baseAddress,
                  let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    private mutating func refill() throws {
        bytesBeforeBuffer += start
        buffer.removeSubrange(0..<start)
        scanned -= start
        start = 0
        while true {
            if shouldStop() { throw Stopped() }
            guard let count = try block.withUnsafeMutableBytes({ try source.read(into: $0) }) else { continue }
            if count == 0 {
                exhausted = true
            } else {
                buffer.append(contentsOf: block[0..<count])
            }
            return
        }
    }
}
