/// How many diagnostics a report prints, and which.
///
/// A generated or badly merged file can hold a million mistakes. Printing every
/// one buries the first (which usually explains the rest), floods a CI log and
/// costs time, so the formats people read stop at a cap and say how many more
/// there were. JSON is complete unless a cap is asked for, because a tool
/// reading it wants everything; SARIF stops at the most results GitHub code
/// scanning accepts in one upload.
public struct DiagnosticLimit: Sendable, Hashable {
    /// The cap for `text` and `github` when `--max-diagnostics` is not given.
    /// GitHub shows only a few dozen annotations a run in any case.
    public static let defaultForPeople = 200

    /// The cap for `sarif` when `--max-diagnostics` is not given: GitHub
    /// rejects a whole upload with more results than this in a run, so the
    /// log keeps the most severe and its invocation says how many it left out.
    public static let defaultForSARIF = 25_000

    /// The most diagnostics to print; nil prints them all.
    public var maximum: Int?

    /// `--max-diagnostics N` as given (nil when absent; 0 means no cap), for `format`.
    public init(requested: Int?, format: LintFormat) {
        if let requested {
            maximum = requested > 0 ? requested : nil
        } else {
            switch format {
            case .auto, .text, .github: maximum = Self.defaultForPeople
            case .sarif: maximum = Self.defaultForSARIF
            case .json: maximum = nil
            }
        }
    }

    /// The diagnostics a report shows, in output order, and how many it leaves out.
    ///
    /// Past the cap the most severe are kept, so a thousand warnings never hide
    /// the one error that fails the build.
    public func select(_ diagnostics: [Diagnostic]) -> (shown: [Diagnostic], omitted: Int) {
        guard let maximum, diagnostics.count > maximum else { return (diagnostics, 0) }
        // The first `maximum` by severity, then by place: one pass per
        // severity, not a sort of the whole list, which a report of 200,000
        // warnings would mostly leave out.
        var kept: [Int] = []
        kept.reserveCapacity(maximum)
        for rank in 0...2 where kept.count < maximum {
            for index in diagnostics.indices where Self.rank(diagnostics[index].severity) == rank {
                kept.append(index)
                if kept.count == maximum { break }
            }
        }
        kept.sort()
        return (kept.map { diagnostics[$0] }, diagnostics.count - maximum)
    }

    /// The line a report ends with when it left diagnostics out.
    public static func omissionNotice(_ omitted: Int) -> String {
        "… and \(omitted) more \(omitted == 1 ? "diagnostic" : "diagnostics") not shown (--max-diagnostics 0 shows all)"
    }

    private static func rank(_ severity: Severity) -> Int {
        switch severity {
        case .error: return 0
        case .warning: return 1
        case .info: return 2
        }
    }
}
