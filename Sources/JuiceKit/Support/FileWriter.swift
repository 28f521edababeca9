import Foundation

/// Writes a report to a file, reporting every failure, a full disk included,
/// instead of leaving a truncated report behind silently.
public enum FileWriter {
    /// A file that could not be written, and why.
    public struct Failure: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot write '\(path)': \(reason)" }
    }

    /// Writes `text` (with a final newline) to `path`, replacing it.
    public static func write(_ text: String, to path: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
        var bytes = Array(text.utf8)
        if !bytes.isEmpty && bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw Failure(path: path, reason: reason)
            }
            offset += written
        }
        guard close(descriptor) == 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
    }
}
