@_spi(Internals) import JuiceSupport
import JuiceDiagnostics
/// Skipped script lines as reported on the error stream, up to a cap.
///
/// A script from another system can be wrong on every one of its millions of
/// lines; the first few reports say what is wrong, the rest would only bury
/// the summary. Past the cap, lines are counted (the summary's skipped count
/// stays exact) and one closing line says how many reports were left out.
struct ProblemLog {
    let errors: OutputBuffer
    /// The most reports to print; nil prints them all.
    let limit: Int?
    private var shown = 0
    private var omitted = 0

    init(errors: OutputBuffer, limit: Int?) {
        self.errors = errors
        self.limit = limit
    }

    /// Whether the next report would be printed rather than counted.
    var printsNext: Bool { limit.map { shown < $0 } ?? true }

    mutating func report(_ problem: ScriptProblem) {
        guard printsNext else {
            omitted += 1
            return
        }
        shown += 1
        errors.line(TextSimulationReporter.render(problem))
    }

    /// Says how many reports were left out, if any; called once, at the end.
    func finish() {
        if omitted > 0 { errors.line(DiagnosticLimit.omissionNotice(omitted)) }
    }
}
