import JuiceDiagnostics

/// The one last step of every lint, on the command line (`Linter`) and in
/// the editor (`ServerBook`) alike, so the two cannot diagnose differently.
/// It sits here, below both, with the snapshot it reads.
extension LintConfiguration {
    /// Applies the configuration to a snapshot: suppression comments first,
    /// on what the checks found, judged only where their rules ran; then the
    /// configured levels.
    public func finish(_ snapshot: WorkspaceSnapshot) -> [Diagnostic] {
        let remaining = Suppression.apply(
            snapshot.suppressions, to: snapshot.diagnostics, isOff: { self.level(of: $0) == .off },
            checked: snapshot.coverage.checked(_:in:)
        )
        return Diagnostic.sortedForOutput(apply(to: remaining))
    }
}
