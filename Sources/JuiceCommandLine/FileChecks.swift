#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file-system facts the library's option checks ask the driver for
/// (`LintRequest.validate(isDirectory:)`), answered with `stat`.
public enum FileChecks {
    /// Whether `path` exists and is a directory.
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
