import JuiceSource
import JuiceBook
/// Why `juice-lint` stopped before it could report on the book, as data.
/// The library says what went wrong; `JuiceCommandLine` prints it as
/// `juice-lint: error: ...` and picks the exit code, in one place for both tools.
public enum LintError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `.juice-lint.yaml`, `--config` or a `--rule` is wrong.
    case configuration(ConfigurationError)
    /// A path to lint does not exist, cannot be read, or holds no recipe files.
    case source(SourceError)
    /// `graph` found errors in the book (printed already), so there is no graph to draw.
    case invalidBookHasNoGraph

    public var description: String {
        switch self {
        case .configuration(let error): return "\(error)"
        case .source(let error): return "\(error)"
        case .invalidBookHasNoGraph: return "the recipe book is invalid, so it has no graph"
        }
    }
}
