/// The exit codes the tools document, mapped in one place.
public enum ToolExitCode: Int32, Sendable {
    /// No errors (and, under `--strict`, no warnings).
    case success = 0
    /// The input has errors or, under `--strict`, warnings (lint); the book is
    /// invalid or a script line was skipped (run).
    case failure = 1
    /// Bad usage, a bad configuration, or a path that does not exist or cannot be read.
    case usage = 2
    /// The tool itself failed, for example it could not write its report.
    case internalFailure = 3
    /// juice-run was stopped by SIGHUP (128 + 1), its terminal gone, after
    /// printing its summary and saving.
    case hangup = 129
    /// The reader of standard output went away (a closed pipe, as in
    /// `| head -1`): the tool stopped quietly, as `cat` does, whose shell
    /// status in that place is also 141 (128 + SIGPIPE).
    case brokenPipe = 141
    /// juice-run was stopped by SIGINT (128 + 2) after printing its summary.
    case interrupted = 130
    /// juice-run was stopped by SIGTERM (128 + 15) after printing its summary.
    case terminated = 143
}
