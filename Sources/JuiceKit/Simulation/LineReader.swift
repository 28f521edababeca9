import Foundation

/// Reads a file descriptor line by line in fixed-size blocks, so an order
/// script of any length runs in constant memory.
///
/// Lines end at `\n`; a `\r` before it is dropped, so CRLF scripts work, and a
/// last line without a newline still counts.
public struct LineReader {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    /// How far into `buffer` the search for a newline has already looked.
    private var scanned = 0
    private var exhausted = false
    private var block = [UInt8](repeating: 0, count: 1 << 16)
    private var bytesBeforeBuffer = 0
    public private(set) var lineNumber = 0
    /// Bytes consumed through the end of the last line handed out, for progress.
    public var bytesConsumed: Int { bytesBeforeBuffer + start }

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Calls `body` with the next line's bytes, valid only during the call.
    /// Returns nil at the end of input; throws when the descriptor cannot be read.
    public mutating func withNextLine<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) throws -> Result? {
        while true {
            if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                lineNumber += 1
                var end = newline
                if end > start && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                var lineStart = start
                // A UTF-8 byte-order mark opening the input is not part of the first line.
                if lineNumber == 1, bytesBeforeBuffer == 0, end - lineStart >= 3,
                   buffer[lineStart] == 0xEF, buffer[lineStart + 1] == 0xBB, buffer[lineStart + 2] == 0xBF {
                    lineStart += 3
                }
                start = newline + 1
                scanned = start
                return try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[lineStart..<end])) }
            }
            scanned = buffer.count
            if exhausted {
                guard start < buffer.count else { return nil }
                buffer.append(UInt8(ascii: "\n"))
                continue
            }
            try refill()
        }
    }

    /// The next line as text (invalid UTF-8 shown as U+FFFD), or nil at the end
    /// of input or on a read error, which an interactive session treats alike.
    public mutating func nextLine() -> String? {
        (try? withNextLine { String(decoding: $0, as: UTF8.self) }) ?? nil
    }

    /// Calls `body` with each line's bytes, its 1-based number, and the bytes
    /// consumed so far (for progress).
    public mutating func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int, Int) throws -> Void) throws {
        while true {
            let number = lineNumber + 1
            let consumedBefore = bytesConsumed
            guard try withNextLine({ try body($0, number, consumedBefore + $0.count + 1) }) != nil else { return }
        }
    }

    private mutating func refill() throws {
        bytesBeforeBuffer += start
        buffer.removeSubrange(0..<start)
        scanned -= start
        start = 0
        while true {
            let count = block.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            if count == 0 {
                exhausted = true
            } else {
                buffer.append(contentsOf: block[0..<count])
            }
            return
        }
    }
}
