#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A book file whose text comes from standard input (`juice-lint
/// --stdin-filename PATH -`): an editor's unsaved buffer, or a file in a
/// pipeline, linted within the rest of the book as read from disk.
extension RecipeSources {
    /// Reads standard input to its end: at most `maxFileSize` bytes, as for a file.
    public static func readStandardInput() throws(SourceError) -> [UInt8] {
        let name = "standard input"
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(name, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            if bytes.count > maxFileSize {
                throw .unreadable(name, reason: "larger than \(maxFileSize >> 20) MiB, the most a recipe file may be")
            }
        }
    }

    /// Puts `file` into the discovered files `found` under the path the book
    /// knows it by, and returns it under that path.
    ///
    /// It takes the place of the discovered file that is the same file,
    /// however the path reached it: `./recipes/menu.yaml`, an absolute path
    /// or one through `..` or a symbolic link name `recipes/menu.yaml`
    /// found under `recipes`. That file is then not read. A path the book
    /// has no file at (one not saved yet, or outside the paths linted)
    /// joins the book, shown as the tools show every path.
    package static func withStandardInput(_ file: SourceFile, in found: inout [(path: String, size: Int)]) -> SourceFile {
        let shown = displayPath(file.path)
        var match = found.firstIndex { $0.path == shown }
        if match == nil, let target = existingIdentity(file.path) {
            match = found.firstIndex { identity($0.path) == target }
        }
        let path = match.map { found[$0].path } ?? shown
        if let match { found.remove(at: match) }
        found.append((path, file.bytes.count))
        found.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        return SourceFile(path: path, bytes: file.bytes)
    }

    /// Whether two paths name one file: spelt alike once displayed, or
    /// reaching the same file through links and `..`.
    package static func sameFile(_ one: String, _ other: String) -> Bool {
        if displayPath(one) == displayPath(other) { return true }
        guard let first = existingIdentity(one) else { return false }
        return first == existingIdentity(other)
    }

    /// The physical path of a file that exists; nil when there is none.
    private static func existingIdentity(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
