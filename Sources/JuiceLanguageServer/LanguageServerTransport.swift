@_spi(Internals) import JuiceSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The language server on standard input and output: reads bytes, cuts them
/// into messages, hands each batch to the `LanguageServer`, writes what it
/// answers, and ends when the session does.
///
/// One thread. A read waits for input; everything else already waiting is
/// read at once and handled as one batch, which is what lets a cancel reach
/// a request still in the batch and a burst of edits be linked once.
public enum LanguageServerTransport {
    /// At most this many bytes are gathered into one batch before it is
    /// handled, so a client that never pauses still gets answers.
    static let batchBytes = 8 << 20
    /// How long, in milliseconds from the answer to `initialize`, the server
    /// waits for the client's first documents before it publishes the books'
    /// diagnostics without them (`LanguageServer.holdsFirstPublication`).
    /// Clients open their documents right after `initialized`; this is for
    /// the one that opens nothing, and is short enough not to be noticed. It
    /// is a deadline, not a pause, so that other messages do not put it off.
    static let firstDocumentsWait = 500

    /// Serves on `input` and `output` until `exit` or the end of input, and
    /// returns the exit status: 0 after `shutdown`, 1 otherwise (also when
    /// the client stops reading the output).
    public static func serve(_ server: inout LanguageServer, input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, log: ServerLog) -> Int32 {
        // A client that goes away must end the session, not kill it.
        signal(SIGPIPE, SIG_IGN)
        var framer = MessageFramer()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var ended = false
        var holdEnds: Int?
        while !ended {
            var gathered = 0
            // Wait for something, then take whatever else is already there.
            var wait: Int32 = -1
            if server.holdsFirstPublication {
                let now = monotonicMilliseconds()
                let deadline = holdEnds ?? now + firstDocumentsWait
                holdEnds = deadline
                wait = Int32(clamping: max(0, deadline - now))
            }
            var timedOut = false
            while gathered < batchBytes {
                var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, wait)
                if ready < 0 {
                    if errno == EINTR { continue }
                    ended = true
                    break
                }
                if ready == 0 {
                    timedOut = gathered == 0
                    break
                }
                let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    log.write(.error, "cannot read standard input: \(String(cString: strerror(errno)))")
                    ended = true
                    break
                }
                if count == 0 {
                    ended = true
                    break
                }
                framer.append(chunk[0..<count])
                gathered += count
                wait = 0
            }
            var bodies: [[UInt8]] = []
            while let frame = framer.next() {
                switch frame {
                case .body(let body): bodies.append(body)
                case .dropped(let reason): log.write(.warning, "dropped \(reason)")
                }
            }
            if !bodies.isEmpty || timedOut {
                let outgoing = bodies.isEmpty ? server.firstDocumentsWaitEnded() : server.receive(batch: bodies)
                if let failure = write(outgoing, to: output) {
                    log.write(.error, "cannot write standard output: \(failure); ending the session")
                    return server.exitStatus ?? 1
                }
            }
            if let status = server.exitStatus { return status }
        }
        server.inputEnded()
        return server.exitStatus ?? 1
    }

    /// Writes each message framed, whole; nil when written, else why the
    /// output cannot take it.
    static func write(_ messages: [JSONValue], to output: Int32) -> String? {
        var bytes: [UInt8] = []
        for message in messages {
            let body = message.serialized
            bytes += Array("Content-Length: \(body.utf8.count)\r\n\r\n".utf8)
            bytes += Array(body.utf8)
        }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return 0 }
                return systemWrite(output, base + written, buffer.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    // A non-blocking output that is full: wait until it is not.
                    var descriptor = pollfd(fd: output, events: Int16(POLLOUT), revents: 0)
                    if poll(&descriptor, 1, -1) >= 0 || errno == EINTR { continue }
                }
                return String(cString: strerror(errno))
            }
            // Nothing written and no error would be tried again for ever.
            guard count > 0 else { return "it took no bytes" }
            written += count
        }
        return nil
    }
}

/// Milliseconds on the system's monotonic clock.
private func monotonicMilliseconds() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000
}

/// The system's `write`, by another name than the method above.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
