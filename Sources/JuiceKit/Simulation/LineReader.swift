import Foundation

/// Reads a file descriptor line by line in fixed-size blocks, so an order
/// script of any length runs in constant memory.
///
/// Lines end at `\n`; a `\r` before it is dropped, so CRLF scripts work.
public struct LineReader {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var exhausted = false
    public private(set) var lineNumber = 0

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Calls `body` with each line's bytes and its 1-based number.
    /// Throws when the descriptor cannot be read.
    public mutating func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            // Emit every complete line already buffered.
            while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                lineNumber += 1
                var end = newline
                if end > start && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start..<end]), lineNumber) }
                start = newline + 1
            }
            if exhausted { break }
            buffer.removeSubrange(0..<start)
            start = 0
            let count = block.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            if count == 0 {
                exhausted = true
                if !buffer.isEmpty {
                    buffer.append(UInt8(ascii: "\n"))  // A last line without a newline still counts.
                }
                continue
            }
            buffer.append(contentsOf: block[0..<count])
        }
    }
}
