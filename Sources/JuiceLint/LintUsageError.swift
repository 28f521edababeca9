/// Options of juice-lint that cannot go together, or a value that cannot
/// work: wrong before anything is read. The executable checks these in
/// argument validation, so they read like swift-argument-parser's own usage
/// errors, as juice-run's `RunUsageError`s do.
public enum LintUsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `--base-path` names no directory.
    case basePathNotADirectory(String)
    /// `--diff` without `--fix`.
    case diffWithoutFix
    /// `--fix` with `-` or `--stdin-filename`: standard input is no file to edit.
    case fixWithStandardInput
    /// `-` more than once.
    case standardInputTwice
    /// `-` without `--stdin-filename`.
    case standardInputUnnamed
    /// `--stdin-filename` without `-`.
    case stdinFilenameWithoutDash
    /// `--stdin-filename ''`.
    case emptyStdinFilename
    /// `--stdin-filename` names a directory, which no buffer can stand for.
    case stdinFilenameIsADirectory(String)

    /// The message, as swift-argument-parser prints a usage error's.
    public var description: String {
        switch self {
        case .basePathNotADirectory(let path): return "--base-path '\(path)' is not a directory"
        case .diffWithoutFix: return "--diff shows what --fix would change; add --fix"
        case .fixWithStandardInput:
            return "--fix edits files in place, and standard input is no file; leave out '-' and --stdin-filename"
        case .standardInputTwice: return "'-' may be given once: standard input is one file"
        case .standardInputUnnamed: return "'-' reads a book file from standard input; name it with --stdin-filename PATH"
        case .stdinFilenameWithoutDash: return "--stdin-filename names the file read from standard input; add '-' to the paths"
        case .emptyStdinFilename: return "--stdin-filename needs the path of the file standard input stands for"
        case .stdinFilenameIsADirectory(let path):
            return "--stdin-filename '\(path)' is a directory; name the file standard input stands for"
        }
    }
}
