/// The exit codes both tools document, mapped in one place.
public enum ToolExitCode: Int32, Sendable {
    /// No errors.
    case success = 0
    /// The input has errors (lint), or a script line was skipped (run).
    case failure = 1
    /// Bad usage, or a path that does not exist or cannot be read.
    case usage = 2
}

/// The output formats `juice-lint` writes.
public enum LintFormat: String, Sendable, CaseIterable {
    case text
    case json
}

/// One lint run: load the paths, compile, render. The executable only parses
/// arguments and calls this.
public struct Linter: Sendable {
    public var paths: [String]
    public var format: LintFormat

    public init(paths: [String], format: LintFormat) {
        self.paths = paths.isEmpty ? ["recipes"] : paths
        self.format = format
    }

    /// What to print and the exit code.
    public struct Report: Sendable {
        /// The report proper, for standard output.
        public var output: String
        /// The summary and notices, for standard error.
        public var messages: String
        public var exitCode: ToolExitCode
    }

    public func run() -> Report {
        let files: [SourceFile]
        do {
            files = try RecipeSources.load(paths: paths)
        } catch {
            return Report(output: "", messages: "juice-lint: error: \(error)", exitCode: .usage)
        }
        let compilation = RecipeCompiler.compile(files)
        let counts = DiagnosticCounts(files: compilation.fileCount, diagnostics: compilation.diagnostics)
        var messages = TextDiagnosticPrinter.summary(counts)
        if files.isEmpty {
            messages = "juice-lint: warning: no *.yaml or *.yml files under " + paths.map { "'\($0)'" }.joined(separator: ", ") + "\n" + messages
        }
        let output: String
        switch format {
        case .text:
            output = compilation.diagnostics.map(TextDiagnosticPrinter.render).joined(separator: "\n")
        case .json:
            output = JSONDiagnosticPrinter.render(compilation.diagnostics, counts: counts)
        }
        return Report(output: output, messages: messages, exitCode: counts.errors > 0 ? .failure : .success)
    }
}
