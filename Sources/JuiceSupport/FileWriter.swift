#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a report to a file, reporting every failure, a full disk included,
/// instead of leaving a truncated report behind silently.
public enum FileWriter {
    /// Something that could not be written, and why: a file by its path, or
    /// a stream such as standard output. Every tool reports it the same way,
    /// through `JuiceCommandLine`: one line on standard error and exit 3, or,
    /// for a reader that went away (`isBrokenPipe`), a quiet stop.
    public struct Failure: Error, CustomStringConvertible {
        /// A path, or a stream's name such as "standard output".
        public var path: String
        public var reason: String
        /// The `errno` of the failed call, or 0 when the failure is not a system error.
        public var code: Int32
        /// True for a stream rather than a file: its name is not quoted.
        public var isStream: Bool

        /// A failure to write `path` for `reason`; `code` is the `errno` behind it, if any.
        public init(path: String, reason: String, code: Int32 = 0, isStream: Bool = false) {
            self.path = path
            self.reason = reason
            self.code = code
            self.isStream = isStream
        }

        /// The failure `errno` describes, as it stands right after the failed call.
        static func fromErrno(path: String, step: String? = nil, isStream: Bool = false) -> Failure {
            let code = errno
            let reason = String(cString: strerror(code))
            return Failure(path: path, reason: step.map { "\($0): \(reason)" } ?? reason, code: code, isStream: isStream)
        }

        /// The reader went away (EPIPE): like `cat` or `grep`, stop quietly.
        public var isBrokenPipe: Bool { code == EPIPE }

        public var description: String { "cannot write \(isStream ? path : "'\(path)'"): \(reason)" }
    }

    /// Writes every byte, retrying after interruptions; false (with `errno`
    /// set) on the first real failure, such as a full disk.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
    }

    /// `writeAll` for bytes that are not in an array, such as a `String`'s.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
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
        try write(bytes: Array(text.utf8), to: path)
    }

    /// Writes UTF-8 `bytes` (with a final newline) to `path`, replacing it:
    /// `write(_:to:)` for text that was never made a `String`.
    public static func write(bytes: [UInt8], to path: String) throws(Failure) {
        var complete = bytes
        // A last `\r\n` is one character, not a newline of its own, so it
        // gets one, as it did when this was a `String`'s `hasSuffix("\n")`.
        let endsWithNewline = complete.last == UInt8(ascii: "\n") && complete.dropLast().last != UInt8(ascii: "\r")
        if !complete.isEmpty && !endsWithNewline { complete.append(UInt8(ascii: "\n")) }
        // A file is replaced atomically, so a failed write leaves no half
        // report; a device or pipe (`/dev/stdout`) is written straight.
        var info = stat()
        if stat(path, &info) != 0 || (info.st_mode & S_IFMT) == S_IFREG {
            try AtomicFile.write(utf8: complete, to: path)
            return
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw Failure.fromErrno(path: path) }
        guard writeAll(complete, to: descriptor) else {
            let failure = Failure.fromErrno(path: path)
            close(descriptor)
            throw failure
        }
        guard close(descriptor) == 0 else { throw Failure.fromErrno(path: path) }
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
