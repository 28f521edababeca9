#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered writes to a file descriptor.
///
/// Reports can run to millions of lines; one `write` per line would dominate the
/// run time, so bytes are gathered and written in large blocks.
///
/// A write can fail (a full disk, a file-size limit, an I/O error, a reader
/// that went away). The first failure is kept in `failure` and everything
/// after it is dropped, since a report with a hole in it is worse than none;
/// the tool calls `finish()` at the end, which throws it, and
/// `JuiceCommandLine` turns it into the documented exit. Long runs check
/// `hasFailed` to stop early. Standard error is the exception: there is
/// nowhere left to report its own failure, so it is not checked.
public final class OutputBuffer {
    private let descriptor: Int32
    /// What the buffer writes to, as a failure names it ("standard output").
    public let name: String
    /// The first write that failed; nothing is written after it.
    public private(set) var failure: FileWriter.Failure?
    /// True once a write has failed: a long run can stop, since nothing more
    /// it prints will arrive. A plain flag, cheap enough to read once per order.
    public private(set) var hasFailed = false
    /// Private, touched by one thread and never re-entered, so the dynamic
    /// exclusivity checks the runtime would make on every append (a third of
    /// JSON output time) buy nothing here.
    @exclusivity(unchecked) private var bytes: [UInt8] = []
    private let limit: Int
    /// Flush after every line, for a person watching a terminal.
    public var flushesEachLine = false

    /// Buffers writes to `descriptor`, flushing every `capacity` bytes and on `flush()`.
    public init(descriptor: Int32, name: String = "the output", capacity: Int = 1 << 16) {
        self.descriptor = descriptor
        self.name = name
        self.limit = capacity
        bytes.reserveCapacity(capacity)
    }

    /// Standard output, flushed in large blocks.
    public static func standardOutput() -> OutputBuffer { OutputBuffer(descriptor: STDOUT_FILENO, name: "standard output") }
    /// Standard error, flushed after every line so messages appear at once.
    public static func standardError() -> OutputBuffer {
        let buffer = OutputBuffer(descriptor: STDERR_FILENO, name: "standard error")
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
        // A whole report in one string (50 MB of JSON for 200,000
        // diagnostics) is written where it stands, not copied in first.
        if text.utf8.count >= limit, failure == nil {
            flush()
            let written = text.utf8.withContiguousStorageIfAvailable { FileWriter.writeAll(UnsafeRawBufferPointer($0), to: descriptor) }
            if let written {
                if !written {
                    failure = .fromErrno(path: name, isStream: true)
                    hasFailed = true
                }
                bytes.append(UInt8(ascii: "\n"))
                if flushesEachLine { flush() }
                return
            }
        }
        bytes.append(contentsOf: text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        if flushesEachLine || bytes.count >= limit { flush() }
    }

    /// Writes the buffered bytes once they fill a block, as `write` does.
    func flushIfFull() {
        if bytes.count >= limit { flush() }
    }

    /// Writes everything buffered, unless an earlier write failed; a failure
    /// is kept in `failure` for `finish()` to report.
    public func flush() {
        if failure == nil, !bytes.isEmpty, !FileWriter.writeAll(bytes, to: descriptor) {
            failure = .fromErrno(path: name, isStream: true)
            hasFailed = true
        }
        bytes.removeAll(keepingCapacity: true)
    }

    /// Writes everything buffered and throws the first write that failed, so
    /// the tool can say what was lost and exit 3 (or stop quietly on a closed pipe).
    public func finish() throws(FileWriter.Failure) {
        flush()
        if let failure { throw failure }
    }
}
