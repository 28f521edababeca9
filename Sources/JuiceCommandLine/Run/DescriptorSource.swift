#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JuiceSimulation

/// A file descriptor as a run's `ByteSource`: a script opened by
/// `POSIXRunEnvironment`, which it closes when it goes, or standard input,
/// which it leaves open.
public final class DescriptorSource: ByteSource {
    private let descriptor: Int32
    private let closing: Bool

    /// Reads `descriptor` from where it is; closes it at the end when `closing`.
    public init(_ descriptor: Int32, closing: Bool) {
        self.descriptor = descriptor
        self.closing = closing
    }

    deinit {
        if closing { close(descriptor) }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int? {
        guard Self.waitForInput(descriptor) else { return nil }
        let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
        if count < 0 {
            if errno == EINTR { return nil }
            throw ReadFailure(code: errno)
        }
        return count
    }

    /// Waits until `descriptor` can be read, at most a quarter of a second;
    /// false when the time ran out or a signal came, so the caller looks at
    /// the stop flag again. A signal that lands between that look and a
    /// blocking `read` would otherwise go unnoticed until the next input.
    /// Regular files are always ready, so a replay of one pays one `poll` per
    /// 64 KiB block.
    private static func waitForInput(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, 250)
        // An error other than EINTR is left for `read` to report.
        return ready != 0 && !(ready < 0 && errno == EINTR)
    }
}

/// read(2), which the method's name hides inside the class.
private func systemRead(_ descriptor: Int32, _ base: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, base, count)
}

/// read(2) failed: the system's own words for why, as `cannot read 'x': …` shows them.
struct ReadFailure: Error, CustomStringConvertible {
    var code: Int32
    var description: String { String(cString: strerror(code)) }
}
