import JuiceSource
import JuiceDiagnostics
/// Everything a lint run is told on the command line.
public struct LintOptions: Sendable {
    public var paths: [String] = []
    public var format: LintFormat = .auto
    public var color: ColorChoice = .auto
    public var strict = false
    /// `--config FILE`; when nil, `.juice-lint.yaml` in the working directory if present.
    public var configPath: String?
    /// Each `--rule RULE=LEVEL`, applied after the configuration file.
    public var ruleOverrides: [String] = []
    /// `--stock FILE`: a saved stock, checked as the book's opening stock.
    public var stockPath: String?
    /// `--max-diagnostics N`: nil for the format's default, 0 for no cap.
    public var maxDiagnostics: Int?
    /// `--stdin-filename PATH -`: standard input's bytes, as the book file
    /// at the path given (`BookLoadRequest.standardInput`).
    public var standardInput: SourceFile?
    /// `--base-path DIR`: what SARIF and GitHub paths are relative to; when
    /// nil, the git work tree around the working directory, else the
    /// working directory (`SourceRoot.resolving`).
    public var basePath: String?

    /// The defaults: lint `recipes`, format `auto`, colour `auto`, not strict.
    public init() {}
}
