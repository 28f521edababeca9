// TEMPORARY: stand-ins for the printers being written on helper/printers.
// Deleted when that branch is merged.
public enum ColorChoice: String, CaseIterable, Sendable { case auto, always, never }
public struct HumanDiagnosticPrinter {
    public init(files: [SourceFile], color: Bool) {}
    public func render(_ diagnostic: Diagnostic) -> String { TextDiagnosticPrinter.render(diagnostic) }
    public static func shouldColor(flag: ColorChoice, isTerminal: Bool, environment: [String: String]) -> Bool { false }
}
public enum GitHubDiagnosticPrinter { public static func render(_ diagnostics: [Diagnostic]) -> String { "" } }
public enum SARIFDiagnosticPrinter { public static func render(_ diagnostics: [Diagnostic]) -> String { "" } }
