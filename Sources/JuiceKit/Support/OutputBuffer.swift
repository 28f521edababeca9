#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered writes to a file descriptor.
///
/// Reports can run to millions of lines; one `write` per line would dominate the
/// run time, so bytes are gathered and written in large blocks.
public final class OutputBuffer {
    private let descriptor: Int32
    /// Private, touched by one thread and never re-entered, so the dynamic
    /// exclusivity checks the runtime would make on every append (a third of
    /// JSON output time) buy nothing here.
    @exclusivity(unchecked) private var bytes: [UInt8] = []
    private let limit: Int
    /// Flush after every line, for a person watching a terminal.
    public var flushesEachLine = false

    /// Buffers writes to `descriptor`, flushing every `capacity` bytes and on `flush()`.
    public init(descriptor: Int32, capacity: Int = 1 << 16) {
        self.descriptor = descriptor
        self.limit = capacity
        bytes.reserveCapacity(capacity)
    }

    /// Standard output, flushed in large blocks.
    public static func standardOutput() -> OutputBuffer { OutputBuffer(descriptor: STDOUT_FILENO) }
    /// Standard error, flushed after every line so messages appear at once.
    public static func standardError() -> OutputBuffer {
        let buffer = OutputBuffer(descriptor: STDERR_FILENO)
        buffer.flushesEachLine = true
        return buffer
    }

    deinit { flush() }

    /// Appends text as it is, with no newline.
    public func write(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        if bytes.count >= limit { flush() }
    }

    /// Appends raw bytes, for output assembled from precomputed pieces.
    public func append(_ piece: [UInt8]) {
        bytes.append(contentsOf: piece)
    }

    /// Appends one byte.
    public func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends constant text without touching a reference count.
    public func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a whole number in decimal, without making a `String`.
    public func append(decimal value: Int) {
        guard value >= 0 else {
            bytes.append(UInt8(ascii: "-"))
            if value == Int.min {
                bytes.append(contentsOf: "9223372036854775808".utf8)
            } else {
                append(decimal: -value)
            }
            return
        }
        if value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        bytes.withUnsafeMutableBufferPointer { buffer in
            var position = start + digits - 1
            var remaining = value
            while remaining > 0 {
                buffer[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
                position -= 1
            }
        }
    }

    /// Ends a line assembled with `append`, flushing as `line` would.
    public func endLine() {
        bytes.append(UInt8(ascii: "\n"))
        if flushesEachLine || bytes.count >= limit { flush() }
    }

    /// Appends text and a newline.
    public func line(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        if flushesEachLine || bytes.count >= limit { flush() }
    }

    /// Writes everything buffered; a reader that went away ends it quietly.
    public func flush() {
        // A failure means the reader went away; there is nobody left to tell.
        _ = FileWriter.writeAll(bytes, to: descriptor)
        bytes.removeAll(keepingCapacity: true)
    }
}
