@_spi(Internals) import JuiceSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the handler records the signal received (0 until then): memory of
/// its own, reached through a pointer. A Swift global `var` would not do:
/// every access to one is checked for exclusivity, so a signal arriving while
/// the run loop was reading it made the handler's write a "simultaneous
/// access" and aborted the program. Pointer accesses are not checked. A
/// global `let`, so the handler (a C function) captures nothing.
nonisolated(unsafe) private let receivedSignal: UnsafeMutablePointer<sig_atomic_t> = {
    let slot = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: 1)
    slot.initialize(to: 0)
    return slot
}()

/// SIGINT, SIGTERM or SIGHUP, received during a replay or at the counter: the
/// run stops at the next line (a read waiting for input returns at once),
/// prints the summary of what it processed, and still saves the stock if
/// asked, atomically. The handler only records the signal; all the work
/// happens in the run loop, where it is safe. The run asks through
/// `POSIXRunEnvironment`; the library knows no signals.
enum StopSignal {
    /// The signal received, or 0.
    static var received: sig_atomic_t { receivedSignal.pointee }

    /// True once a stop was asked for.
    static var requested: Bool { received != 0 }

    /// The word the handler writes, for a run to read before every line.
    static var word: UnsafePointer<sig_atomic_t> { UnsafePointer(receivedSignal) }

    /// Installs the handlers, for replays and the counter alike: a session
    /// stopped by Ctrl-C, a `kill` or a closed terminal keeps its summary and
    /// its saved stock. Without `SA_RESTART`, so a `read` waiting for input
    /// returns `EINTR` and `LineReader` can look at the flag.
    static func install() {
        // Made before any handler can run: the handler must not be the one to
        // run the global's lazy initialiser.
        _ = receivedSignal
        // A parent may hand us these signals blocked (test runners and some
        // supervisors do); a stop request must still arrive. The mask is
        // the calling thread's, which is the one that reads the orders.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        sigaddset(&unblock, SIGHUP)
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { receivedSignal.pointee = $0 }
            #else
            action.__sigaction_u.__sa_handler = { receivedSignal.pointee = $0 }
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, nil)
        }
    }

    /// The conventional exit code for a run stopped by the signal: 128 + its number.
    static var exitCode: ToolExitCode {
        switch received {
        case SIGTERM: return .terminated
        case SIGHUP: return .hangup
        default: return .interrupted
        }
    }
}
