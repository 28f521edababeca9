#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress bar on standard error for long runs: orders done, rate,
/// and, when the input's size is known, a bar and an ETA.
///
/// It stays silent for the first second, so short runs print nothing, and
/// redraws at most ten times a second. The caller only creates one when
/// standard error is a terminal and the output is meant for people.
public final class ProgressMeter {
    private let descriptor: Int32
    /// The size of the input in whatever unit `position` counts (bytes, orders).
    private let total: Int?
    private let start = ProgressMeter.monotonicNanoseconds()
    private var lastDraw: UInt64 = 0
    private var shown = false
    private var calls = 0

    /// The monotonic clock, read directly: Dispatch's clock would pull in all
    /// of Foundation, which costs the run several megabytes of memory.
    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }

    /// `total` is the input's size in the unit `update(position:)` counts, when known.
    public init(total: Int?, descriptor: Int32 = STDERR_FILENO) {
        self.total = total
        self.descriptor = descriptor
    }

    /// Cheap to call per order: the clock is read once every 1,024 calls.
    public func update(orders: Int, position: Int) {
        calls &+= 1
        guard calls & 1023 == 0 else { return }
        let now = Self.monotonicNanoseconds()
        let elapsed = now &- start
        guard elapsed >= 1_000_000_000, now &- lastDraw >= 100_000_000 else { return }
        lastDraw = now
        shown = true
        draw(orders: orders, position: position, seconds: Double(elapsed) / 1e9)
    }

    /// Clears the bar so the summary starts on a clean line.
    public func finish() {
        guard shown else { return }
        emit("\r\u{1B}[2K")
    }

    private func draw(orders: Int, position: Int, seconds: Double) {
        let rate = Double(orders) / max(seconds, 0.001)
        var text = "\r\u{1B}[2K\(orders) orders  \(Int(rate))/s"
        if let total, total > 0 {
            let fraction = min(max(Double(position) / Double(total), 0), 1)
            let filled = Int(fraction * 20)
            text += "  [" + String(repeating: "#", count: filled) + String(repeating: " ", count: 20 - filled) + "]"
            text += " \(Int(fraction * 100))%"
            if fraction > 0 {
                text += "  ETA \(Int((seconds * (1 - fraction) / fraction).rounded()))s"
            }
        }
        emit(text)
    }

    private func emit(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
