#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a report to a file, reporting every failure, a full disk included,
/// instead of leaving a truncated report behind silently.
public enum FileWriter {
    /// A file that could not be written, and why.
    public struct Failure: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot write '\(path)': \(reason)" }
    }

    /// Writes every byte, retrying after interruptions; false (with `errno`
    /// set) on the first real failure, such as a full disk.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Writes `text` (with a final newline) to `path`, replacing it.
    public static func write(_ text: String, to path: String) throws(Failure) {
        let complete = text.isEmpty || text.hasSuffix("\n") ? text : text + "\n"
        // A file is replaced atomically, so a failed write leaves no half
        // report; a device or pipe (`/dev/stdout`) is written straight.
        var info = stat()
        if stat(path, &info) != 0 || (info.st_mode & S_IFMT) == S_IFREG {
            try AtomicFile.write(complete, to: path)
            return
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
        guard writeAll(Array(complete.utf8), to: descriptor) else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(path: path, reason: reason)
        }
        guard close(descriptor) == 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
    }
}

/// write(2), named apart from the `write` methods around it.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, buffer, count)
    #else
    return Darwin.write(descriptor, buffer, count)
    #endif
}
