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

/// Finds and reads the files that make up a recipe book.
///
/// Every `*.yaml` and `*.yml` under the given paths, searched recursively,
/// skipping hidden entries, read in sorted path order. A file named explicitly
/// is read whatever its extension. Each file is read once, however it was reached.
public enum RecipeSources {
    /// The largest recipe file read, 64 MiB. Real books are a tiny fraction of
    /// that; a bigger "file" is a mistake or an attack (`/dev/zero`, say).
    public static let maxFileSize = 64 << 20

    /// Every recipe file under `paths`, read, in sorted path order; the
    /// error, if any, is the first unreadable file's.
    public static func load(paths: [String]) throws(SourceError) -> [SourceFile] {
        var files: [SourceFile] = []
        for (path, _) in try discoverSized(paths: paths) {
            files.append(SourceFile(path: path, bytes: try readFile(path)))
        }
        return files
    }

    /// The display paths of every recipe file under `paths`, sorted.
    public static func discover(paths: [String]) throws(SourceError) -> [String] {
        try discoverSized(paths: paths).map(\.path)
    }

    /// `discover`, with each file's size when it was found (from the `stat`
    /// that found it), for deciding how to read them.
    package static func discoverSized(paths: [String]) throws(SourceError) -> [(path: String, size: Int)] {
        var found: [(path: String, size: Int)] = []
        var seenFiles = Set<String>()
        var seenDirectories = Set<String>()
        for argument in paths {
            let path = displayPath(argument)
            var info = stat()
            guard stat(argument, &info) == 0 else {
                if errno == ENOENT || errno == ENOTDIR {
                    // A dangling symlink exists but points nowhere.
                    var linkInfo = stat()
                    if lstat(argument, &linkInfo) == 0 { throw .unreadable(path, reason: "broken symbolic link") }
                    throw .notFound(path)
                }
                throw .unreadable(path, reason: String(cString: strerror(errno)))
            }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                try walk(path, seenFiles: &seenFiles, seenDirectories: &seenDirectories, into: &found)
            } else if (info.st_mode & S_IFMT) != S_IFREG {
                // A FIFO would block forever and a device never ends.
                throw .unreadable(path, reason: "not a regular file")
            } else if seenFiles.insert(identity(argument)).inserted {
                found.append((path, clampedSize(info)))
            }
        }
        return found.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    /// Walks a directory with an explicit stack. Symlinked directories are
    /// followed once each, so a symlink loop ends.
    private static func walk(
        _ root: String, seenFiles: inout Set<String>, seenDirectories: inout Set<String>, into found: inout [(path: String, size: Int)]
    ) throws(SourceError) {
        var pending = [root]
        while let directory = pending.popLast() {
            guard seenDirectories.insert(identity(directory)).inserted else { continue }
            let entries: [String]
            do {
                entries = try FileManager.default.contentsOfDirectory(atPath: directory)
            } catch {
                throw .unreadable(directory, reason: "cannot list directory")
            }
            for name in entries where !name.hasPrefix(".") {
                let path = directory == "." ? name : directory + "/" + name
                var info = stat()
                let isRecipe = name.hasSuffix(".yaml") || name.hasSuffix(".yml")
                guard stat(path, &info) == 0 else {
                    // A dangling symlink named like a recipe file is a file we cannot read.
                    if isRecipe { throw .unreadable(path, reason: "broken symbolic link") }
                    continue
                }
                if (info.st_mode & S_IFMT) == S_IFDIR {
                    pending.append(path)
                } else if isRecipe, (info.st_mode & S_IFMT) == S_IFREG, seenFiles.insert(identity(path)).inserted {
                    found.append((path, clampedSize(info)))
                }
            }
        }
    }

    /// A size as `stat` gave it, but never past one byte over the largest
    /// file read: sparse files can claim up to `Int.max` bytes each, and the
    /// sizes are added up (the oversized file is refused when it is read).
    private static func clampedSize(_ info: stat) -> Int {
        min(max(Int(info.st_size), 0), maxFileSize + 1)
    }

    /// One name per file or directory, whatever path reached it.
    static func identity(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Reads a whole regular file of at most `maxFileSize` bytes.
    public static func readFile(_ path: String) throws(SourceError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { throw .unreadable(path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(path, reason: String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .unreadable(path, reason: "not a regular file") }
        guard Int(info.st_size) <= maxFileSize else {
            throw .unreadable(path, reason: "larger than \(maxFileSize >> 20) MiB, the most a recipe file may be")
        }
        // Read straight into an array sized from fstat, so a large file is
        // neither copied twice nor held twice over by a doubling array. One
        // byte more than the size shows whether the file grew while read.
        let expected = max(Int(info.st_size), 0) + 1
        var failure: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            while initialized < expected {
                let count = read(descriptor, base + initialized, expected - initialized)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if count == 0 { return }
                initialized += count
            }
        }
        if failure != 0 { throw .unreadable(path, reason: String(cString: strerror(failure))) }
        if bytes.count < expected { return bytes }
        // It grew: read the rest in chunks, up to the bound.
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > maxFileSize {
                throw .unreadable(path, reason: "larger than \(maxFileSize >> 20) MiB, the most a recipe file may be")
            }
        }
        return bytes
    }

    /// `path` made absolute against the working directory, `.` segments and
    /// repeated `/` dropped (`..` is kept: it may cross a symbolic link).
    public static func absolutePath(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let parts = full.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        return "/" + parts.joined(separator: "/")
    }

    /// A path as the tools print it: relative to the working directory when it
    /// lies under it, `/` separators, no `./` segments.
    public static func displayPath(_ path: String) -> String {
        var text = path
        if text.hasPrefix("/") {
            let cwd = FileManager.default.currentDirectoryPath
            if text == cwd { return "." }
            if text.hasPrefix(cwd + "/") { text = String(text.dropFirst(cwd.count + 1)) }
        }
        let absolute = text.hasPrefix("/")
        let parts = text.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        let joined = parts.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }
}
