/// Why the tools could not read what they were pointed at. Each ends the command
/// with exit code 2.
public enum SourceError: Error, Equatable, CustomStringConvertible {
    case notFound(String)
    case unreadable(String, reason: String)
    case noRecipeFiles([String])

    public var description: String {
        switch self {
        case .notFound(let path): return "no such file or directory: '\(path)'"
        case .unreadable(let path, let reason): return "cannot read '\(path)': \(reason)"
        case .noRecipeFiles(let paths): return "no *.yaml or *.yml files under " + paths.map { "'\($0)'" }.joined(separator: ", ")
        }
    }
}
