import Foundation

/// Buffered writes to a file descriptor.
///
/// Reports can run to millions of lines; one `write` per line would dominate the
/// run time, so bytes are gathered and written in large blocks.
public final class OutputBuffer {
    private let descriptor: Int32
    private var bytes: [UInt8] = []
    private let limit: Int
    /// Flush after every line, for a person watching a terminal.
    public var flushesEachLine = false

    public init(descriptor: Int32, capacity: Int = 1 << 16) {
        self.descriptor = descriptor
        self.limit = capacity
        bytes.reserveCapacity(capacity)
    }

    public static func standardOutput() -> OutputBuffer { OutputBuffer(descriptor: STDOUT_FILENO) }
    public static func standardError() -> OutputBuffer {
        let buffer = OutputBuffer(descriptor: STDERR_FILENO)
        buffer.flushesEachLine = true
        return buffer
    }

    deinit { flush() }

    public func write(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        if bytes.count >= limit { flush() }
    }

    public func line(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        if flushesEachLine || bytes.count >= limit { flush() }
    }

    public func flush() {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                break  // The reader went away; there is nobody left to tell.
            }
            offset += written
        }
        bytes.removeAll(keepingCapacity: true)
    }
}
