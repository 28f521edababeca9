import JuiceSupport
import JuiceSource
import JuiceDiagnostics
import JuiceYAML
/// How many of something a whole input holds, judged from its first part:
/// room made once, at about the right size, rather than by the doublings
/// of a growing table, each a copy (or a rehash) into fresh pages.
package enum Forecast {
    /// `count`, seen in the first `bytes` of `totalBytes`, scaled to the
    /// whole with an eighth to spare, and never above `limit`: a dense start
    /// must not make a sparse input ask for memory it will not use. Nil when
    /// nothing was read yet, or the product overflows.
    package static func whole(_ count: Int, in bytes: Int, of totalBytes: Int, limit: Int) -> Int? {
        guard bytes > 0 else { return nil }
        let (scaled, overflow) = count.multipliedReportingOverflow(by: totalBytes)
        guard !overflow else { return nil }
        let whole = scaled / bytes
        return max(count, min(whole + whole / 8, limit))
    }
}
