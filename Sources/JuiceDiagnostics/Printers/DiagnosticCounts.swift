/// The totals a lint run reports.
public struct DiagnosticCounts: Sendable, Hashable {
    public var files: Int
    public var errors: Int
    public var warnings: Int
    public var infos: Int

    /// Counts the diagnostics of a run over `files` files, by severity.
    public init(files: Int, diagnostics: [Diagnostic]) {
        self.files = files
        (errors, warnings, infos) = (0, 0, 0)
        // By index: iterating the array would copy out every diagnostic.
        for index in diagnostics.indices {
            switch diagnostics[index].severity {
            case .error: errors += 1
            case .warning: warnings += 1
            case .info: infos += 1
            }
        }
    }
}
