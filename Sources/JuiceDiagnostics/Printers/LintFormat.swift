/// The output formats `juice-lint` writes.
public enum LintFormat: String, Sendable, CaseIterable {
    /// `github` under GitHub Actions (`GITHUB_ACTIONS=true`), `text` elsewhere.
    case auto
    /// Compiler-style, for people: headline, source snippet, notes, help.
    case text
    /// One versioned document.
    case json
    /// GitHub Actions workflow commands, which become annotations.
    case github
    /// SARIF 2.1.0, for code-scanning uploads.
    case sarif

    /// The concrete format `auto` stands for in this environment.
    public func resolved(environment: [String: String]) -> LintFormat {
        guard self == .auto else { return self }
        return environment["GITHUB_ACTIONS"] == "true" ? .github : .text
    }
}
