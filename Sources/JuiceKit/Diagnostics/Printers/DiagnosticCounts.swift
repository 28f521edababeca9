/// The totals a lint run reports.
public struct DiagnosticCounts: Sendable, Hashable {
    public var files: Int
    public var errors: Int
    public var warnings: Int
    public var infos: Int

    /// Counts the diagnostics of a run over `files` files, by severity.
    public init(files: Int, diagnostics: [Diagnostic]) {
        self.files = files
        errors = diagnostics.count { $0.severity == .error }
        warnings = diagnostics.count { $0.severity == .warning }
        infos = diagnostics.count { $0.severity == .info }
    }
}
