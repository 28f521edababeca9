@_spi(Internals) import JuiceSupport
import JuiceDiagnostics
extension Linter {
    /// What to print and the exit code.
    public struct Report: Sendable {
        /// The report proper, for standard output or the `--output` file.
        public var body: Body
        /// The summary and notices, for standard error.
        public var messages: String
        public var exitCode: ToolExitCode
        public var counts: DiagnosticCounts?
        /// What the run loaded, held as long as the report is: the tool ends
        /// the process while it holds the report (`endProcess(keeping:)`),
        /// so a big book is not taken apart allocation by allocation just
        /// before exit, which was 2% of a run on the 100-file benchmark.
        var loaded: (any Sendable)?

        /// What the report proper holds.
        public enum Body: Sendable {
            /// Text made already, such as `--fix --diff`'s diff.
            case text(String)
            /// Diagnostics, rendered as they are written (`DiagnosticReport`).
            case diagnostics(DiagnosticReport)
        }

        /// The report proper, rendered whole, without a trailing newline:
        /// for a caller that wants it in memory. The tool writes it with
        /// `writeOutputLine(to:)` instead, which never holds it whole.
        public var output: String {
            var text = CollectedText()
            writeOutput(to: &text)
            return text.text
        }

        /// Writes the report proper to `sink`, without a trailing newline.
        public func writeOutput(to sink: inout some TextSink) {
            switch body {
            case .text(let text): sink.write(text)
            case .diagnostics(let report): report.write(to: &sink)
            }
        }

        /// Writes the report proper and a newline to `output`, or nothing
        /// when it is empty (a text report on a clean book). A failed write
        /// is kept in `output` for its `finish()`, as every write is.
        public func writeOutputLine(to output: OutputBuffer) {
            var counting = CountingSink(output)
            writeOutput(to: &counting)
            if counting.count > 0 { output.endLine() }
        }
    }
}
