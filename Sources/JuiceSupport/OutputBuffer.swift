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
    /// The bytes waiting to be written, `storage[0..<count]`, in memory the
    /// buffer owns (allocated here, freed in `deinit`). An `[UInt8]` checked
    /// its uniqueness and capacity and went through a generic `append` for
    /// every piece of a line, and one JSON order event has a dozen pieces: a
    /// quarter of a JSON Lines replay's instructions (2.67 G to 2.02 G on
    /// orders-1m.txt, callgrind). Here an append is one capacity test and a copy.
    ///
    /// Private, touched by one thread and never re-entered, so the dynamic
    /// exclusivity checks the runtime would make on every append buy nothing.
    ///
    /// `@usableFromInline` so the appends below inline into the reporters of
    /// later modules (see `append(_:_:)`).
    @exclusivity(unchecked) @usableFromInline var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) @usableFromInline var capacity: Int
    @exclusivity(unchecked) @usableFromInline var count = 0
    @usableFromInline let limit: Int
    /// Flush after every line, for a person watching a terminal.
    @exclusivity(unchecked) public var flushesEachLine = false

    /// Buffers writes to `descriptor`, flushing every `capacity` bytes and on `flush()`.
    public init(descriptor: Int32, name: String = "the output", capacity: Int = 1 << 16) {
        self.descriptor = descriptor
        self.name = name
        self.limit = max(capacity, 1)
        // Room for a whole line past the flush point, so a line rarely grows it.
        self.capacity = limit + 4096
        storage = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    /// Standard output, flushed in large blocks.
    public static func standardOutput() -> OutputBuffer { OutputBuffer(descriptor: STDOUT_FILENO, name: "standard output") }
    /// Standard error, flushed after every line so messages appear at once.
    public static func standardError() -> OutputBuffer {
        let buffer = OutputBuffer(descriptor: STDERR_FILENO, name: "standard error")
        buffer.flushesEachLine = true
        return buffer
    }

    deinit {
        flush()
        storage.deallocate()
    }

    /// Makes room for `extra` more bytes; a line longer than the spare room
    /// grows the storage rather than being split. Inlined into every append,
    /// where it is one comparison (see `append(_:_:)`).
    @inlinable @inline(__always)
    func reserve(_ extra: Int) {
        if extra > capacity - count { grow(to: count + extra) }
    }

    @usableFromInline
    func grow(to needed: Int) {
        let larger = max(needed, capacity * 2)
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        fresh.update(from: storage, count: count)
        storage.deallocate()
        storage = fresh
        capacity = larger
    }

    /// Copies `bytes` in after what is buffered. Inlined into every append
    /// (see `append(_:_:)`).
    @inlinable @inline(__always)
    func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (storage + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    /// Copies a string's UTF-8 in, in place where the string is contiguous.
    private func copy(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ copy($0) }) == nil {
            Array(text.utf8).withUnsafeBufferPointer { copy($0) }
        }
    }

    /// Appends text as it is, with no newline.
    public func write(_ text: String) {
        copy(text)
        if count >= limit { flush() }
    }

    /// Appends `bytes[range]`, for pieces kept end to end in one array.
    ///
    /// Inlined, as are the other appends a JSON event is made of: a dozen
    /// calls per event were a tenth of a `--format json` replay's
    /// instructions (1.73 G to 1.55 G on orders-1m.txt) and time (1.52 s to
    /// 1.25 s on orders-10m.txt, medians of 5). The reporters are in later
    /// modules, so inlining needs `@inlinable`: without it, `--format json`
    /// over orders-1m.txt took 1.67 G instructions against 1.53 G with it
    /// (callgrind), and 1.41× cf0d643's time on orders-10m.txt.
    @inlinable @inline(__always)
    public func append(_ bytes: [UInt8], _ range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "piece out of range")
        bytes.withUnsafeBufferPointer { copy(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Appends one byte. Inlined (see `append(_:_:)`).
    @inlinable @inline(__always)
    public func append(byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    /// Appends constant text without touching a reference count. Inlined
    /// (see `append(_:_:)`).
    @inlinable @inline(__always)
    public func append(_ text: StaticString) {
        copy(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a whole number in decimal, without making a `String`.
    ///
    /// The digits are counted by comparison, then written from the last,
    /// two at a time from a table of pairs, straight into place: one
    /// division per two digits. Numbers are a third of a JSON order event's
    /// bytes; with a division per digit and a second pass to count them,
    /// `--format json` over orders-10m.txt took 1.76 s, and 1.58 s this way
    /// (medians of 5, 10% less user time).
    @inlinable
    public func append(decimal value: Int) {
        // A sign and 19 digits, as `Int.min` needs.
        reserve(20)
        if value < 0 {
            storage[count] = UInt8(ascii: "-")
            count += 1
        }
        // The magnitude, so `Int.min` needs no case of its own.
        var remaining = value.magnitude
        var digits = 1
        var threshold: UInt = 10
        // 10^19 is more than any magnitude, so the count stops by 19.
        while digits < 19, remaining >= threshold {
            digits += 1
            threshold &*= 10
        }
        var position = count + digits
        Self.digitPairs.withUTF8Buffer { pairs in
            while remaining >= 100 {
                let pair = Int(truncatingIfNeeded: remaining % 100) &* 2
                remaining /= 100
                position -= 2
                storage[position] = pairs[pair]
                storage[position + 1] = pairs[pair + 1]
            }
            if remaining >= 10 {
                let pair = Int(truncatingIfNeeded: remaining) &* 2
                storage[position - 2] = pairs[pair]
                storage[position - 1] = pairs[pair + 1]
            } else {
                storage[position - 1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: remaining)
            }
        }
        count += digits
    }

    /// `00` to `99`, the two digits of each, for `append(decimal:)`.
    @usableFromInline static let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Ends a line assembled with `append`, flushing as `line` would.
    /// Inlined (see `append(_:_:)`).
    @inlinable @inline(__always)
    public func endLine() {
        append(byte: UInt8(ascii: "\n"))
        if flushesEachLine || count >= limit { flush() }
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
                append(byte: UInt8(ascii: "\n"))
                if flushesEachLine { flush() }
                return
            }
        }
        copy(text)
        append(byte: UInt8(ascii: "\n"))
        if flushesEachLine || count >= limit { flush() }
    }

    /// Writes the buffered bytes once they fill a block, as `write` does.
    @usableFromInline
    func flushIfFull() {
        if count >= limit { flush() }
    }

    /// Writes everything buffered, unless an earlier write failed; a failure
    /// is kept in `failure` for `finish()` to report.
    public func flush() {
        if failure == nil, count > 0, !FileWriter.writeAll(UnsafeRawBufferPointer(start: storage, count: count), to: descriptor) {
            failure = .fromErrno(path: name, isStream: true)
            hasFailed = true
        }
        count = 0
    }

    /// Writes everything buffered and throws the first write that failed, so
    /// the tool can say what was lost and exit 3 (or stop quietly on a closed pipe).
    public func finish() throws(FileWriter.Failure) {
        flush()
        if let failure { throw failure }
    }
}
