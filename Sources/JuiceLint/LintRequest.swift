
/// How juice-lint's command line asks for a run, before anything is read:
/// the paths as given (`-` among them for standard input) and the options
/// that decide which kind of run it is.
public struct LintRequest: Sendable {
    /// The paths as given; `-` stands for standard input.
    public var paths: [String]
    /// `--fix`.
    public var fix: Bool
    /// `--diff`, with `--fix`.
    public var diff: Bool
    /// `--stdin-filename PATH`.
    public var stdinFilename: String?
    /// `--base-path DIR`.
    public var basePath: String?

    /// A request as the command line spells it.
    public init(paths: [String], fix: Bool, diff: Bool, stdinFilename: String?, basePath: String?) {
        self.paths = paths
        self.fix = fix
        self.diff = diff
        self.stdinFilename = stdinFilename
        self.basePath = basePath
    }

    /// The paths to read from disk: every one but `-`.
    public var diskPaths: [String] { paths.filter { $0 != "-" } }

    /// The first problem with how the options combine, if there is one.
    /// `isDirectory` says whether a path exists and is a directory: the
    /// driver answers it from the file system (`FileChecks.isDirectory`).
    public func validate(isDirectory: (String) -> Bool) throws(LintUsageError) {
        if let basePath {
            guard isDirectory(basePath) else {
                throw .basePathNotADirectory(basePath)
            }
        }
        let dashes = paths.count - diskPaths.count
        if diff && !fix { throw .diffWithoutFix }
        if fix && (dashes > 0 || stdinFilename != nil) { throw .fixWithStandardInput }
        if dashes > 1 { throw .standardInputTwice }
        if dashes == 1 && stdinFilename == nil { throw .standardInputUnnamed }
        if let stdinFilename {
            if dashes == 0 { throw .stdinFilenameWithoutDash }
            if stdinFilename.isEmpty { throw .emptyStdinFilename }
            if isDirectory(stdinFilename) { throw .stdinFilenameIsADirectory(stdinFilename) }
        }
    }
}
