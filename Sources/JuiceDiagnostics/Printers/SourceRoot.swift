#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The directory that the paths in SARIF and GitHub reports are relative to:
/// `--base-path`, by default the git work tree the tool runs in.
///
/// Diagnostics name files as people read them, relative to the working
/// directory (`RecipeSources.displayPath`), so `juice-lint ..` names
/// `../book.yaml`. Code scanning and annotations resolve a path against the
/// repository's root instead, where `../book.yaml` points nowhere and
/// `book.yaml`, linted from a subfolder, points at the wrong file. The CI
/// printers ask the root where each file lies and write that.
///
/// Paths are compared as text, with `.` and `..` resolved lexically, the way
/// a person reads them: a file reached through a symbolic link is named by
/// the path that reached it, which is the path a repository holds. The root
/// and the working directory are physical paths (`getcwd` resolves links,
/// and `resolving` resolves the given base), so one never misses the other.
public struct SourceRoot: Sendable, Hashable {
    /// Where a file lies with respect to the root.
    public enum Place: Sendable, Hashable {
        /// Under the root: the `/`-separated path from it, without `.` or `..`.
        case inside(String)
        /// Elsewhere: its absolute path, `.` and `..` resolved. SARIF writes
        /// it as a `file://` URI with no base id, and GitHub's runner makes an
        /// absolute path inside the workspace relative itself.
        case outside(String)
    }

    /// The root: absolute, normalised, no trailing `/` (the file system
    /// root is `/`).
    public let path: String
    /// The directory relative paths are relative to: absolute, normalised.
    public let workingDirectory: String
    /// The working directory as a path from the root, when it is under it
    /// ("" when they are one): most files then need only a prefix.
    private let workingDirectoryInside: String?

    /// A root at `path` (relative paths resolved against `workingDirectory`),
    /// for files named relative to `workingDirectory`. Nothing is read from
    /// the file system.
    public init(path: String, workingDirectory: String) {
        let directory = Self.normalized(workingDirectory)
        let root = Self.normalized(path.hasPrefix("/") ? path : directory + "/" + path)
        self.path = root
        self.workingDirectory = directory
        switch Self.place(directory, under: root) {
        case .inside(let prefix): workingDirectoryInside = prefix
        case .outside: workingDirectoryInside = nil
        }
    }

    /// The root for `--base-path basePath`, or, when it is nil, the nearest
    /// directory at or above `workingDirectory` that holds a `.git` entry (a
    /// directory in a clone, a file in a linked worktree or a submodule),
    /// else `workingDirectory` itself. A given base is resolved through
    /// symbolic links, like the working directory `getcwd` returns.
    public static func resolving(_ basePath: String?, workingDirectory: String) -> SourceRoot {
        let directory = normalized(workingDirectory)
        guard let basePath else {
            return SourceRoot(path: gitWorkTree(above: directory) ?? directory, workingDirectory: directory)
        }
        let absolute = normalized(basePath.hasPrefix("/") ? basePath : directory + "/" + basePath)
        guard let resolved = realpath(absolute, nil) else { return SourceRoot(path: absolute, workingDirectory: directory) }
        defer { free(resolved) }
        return SourceRoot(path: String(cString: resolved), workingDirectory: directory)
    }

    /// The nearest directory at or above `directory` that holds `.git`, found
    /// by looking, as git does before it asks any configuration; nil when
    /// there is none up to `/`.
    public static func gitWorkTree(above directory: String) -> String? {
        var candidate = normalized(directory)
        while true {
            let marker = (candidate == "/" ? "" : candidate) + "/.git"
            if FileManager.default.fileExists(atPath: marker) { return candidate }
            guard candidate != "/", let slash = candidate.utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
            candidate = slash == candidate.utf8.startIndex ? "/" : String(candidate[..<slash])
        }
    }

    /// Where `file`, a path as diagnostics hold it, lies.
    public func place(of file: String) -> Place {
        // The common case, a plain relative path under a working directory
        // under the root, is a prefix: no splitting, no pieceJoin.
        if !file.hasPrefix("/"), let prefix = workingDirectoryInside, !Self.hasDotSegment(file) {
            return .inside(prefix.isEmpty ? file : prefix + "/" + file)
        }
        let absolute = Self.normalized(file.hasPrefix("/") ? file : workingDirectory + "/" + file)
        return Self.place(absolute, under: path)
    }

    /// `file` as a unified diff names it: from the root when it lies under
    /// it (what `patch -p1` and `git apply` run there expect), else its
    /// absolute path, which no `-p1` can reach but still names the file.
    public func diffPath(of file: String) -> String {
        switch place(of: file) {
        case .inside(let path), .outside(let path): return path
        }
    }

    /// Where the normalised absolute `absolute` lies with respect to `root`.
    private static func place(_ absolute: String, under root: String) -> Place {
        if absolute == root { return .inside("") }
        if root == "/" { return .inside(String(absolute.dropFirst())) }
        if absolute.hasPrefix(root + "/") { return .inside(String(absolute.dropFirst(root.count + 1))) }
        return .outside(absolute)
    }

    /// `path` with empty and `.` segments dropped and each `..` taking the
    /// segment before it (at the root, `..` is the root); absolute stays
    /// absolute.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if let last = parts.last, last != ".." { parts.removeLast() } else if !path.hasPrefix("/") { parts.append(part) }
            default: parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        if path.hasPrefix("/") { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// Whether a path has a `.`, `..` or empty segment, which only
    /// normalising can place.
    private static func hasDotSegment(_ path: String) -> Bool {
        path.isEmpty || path.split(separator: "/", omittingEmptySubsequences: false).contains { $0.isEmpty || $0 == "." || $0 == ".." }
    }
}
