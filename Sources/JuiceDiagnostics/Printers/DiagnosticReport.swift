@_spi(Internals) import JuiceSupport
/// A lint run's diagnostics as a report in one format, rendered only when
/// written.
///
/// Rendering is left until the report is written so it can go straight to
/// its sink in blocks: 200,000 diagnostics are 50 MB of JSON, and holding
/// that whole (as bytes, then again as a `String`) doubled a run's peak
/// memory. The facts are the same whichever printer writes them.
public struct DiagnosticReport: Sendable {
    /// How the diagnostics are printed.
    public enum Printer: Sendable {
        /// For people, with source snippets.
        case text(HumanDiagnosticPrinter)
        /// One versioned JSON document, with the counts.
        case json(DiagnosticCounts)
        /// GitHub workflow commands, paths relative to the root.
        case github(SourceRoot?)
        /// A SARIF log, paths relative to the root.
        case sarif(SourceRoot?)
    }

    /// The diagnostics shown, in output order.
    public var diagnostics: [Diagnostic]
    /// How many `--max-diagnostics` left out.
    public var omitted: Int
    /// The format, with what its printer needs.
    public var printer: Printer

    /// A report of `diagnostics` (those shown) by `printer`.
    public init(_ diagnostics: [Diagnostic], omitted: Int, printer: Printer) {
        self.diagnostics = diagnostics
        self.omitted = omitted
        self.printer = printer
    }

    /// Writes the whole report to `sink`, without a trailing newline;
    /// nothing at all for a text or GitHub report with nothing to say.
    public func write(to sink: inout some TextSink) {
        switch printer {
        case .text(let human):
            human.write(diagnostics, omitted: omitted, to: &sink)
        case .json(let counts):
            JSONDiagnosticPrinter.write(diagnostics, counts: counts, omitted: omitted, to: &sink)
        case .github(let root):
            GitHubDiagnosticPrinter.write(diagnostics, omitted: omitted, root: root, to: &sink)
        case .sarif(let root):
            SARIFDiagnosticPrinter.write(diagnostics, omitted: omitted, root: root, to: &sink)
        }
    }
}
