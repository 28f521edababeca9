#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces a file so that a reader, or a crash at any instant, sees either the
/// old content or the new, never a torn mix.
///
/// The bytes go to a temporary file in the same directory (so the rename stays
/// on one file system), which is flushed with `fsync`, renamed over the target,
/// and then the directory is flushed so the rename itself survives a power cut.
/// A crash may leave the hidden temporary file behind; it is never the target.
public enum AtomicFile {
    /// Replaces `path` with `text` atomically, as described above.
    public static func write(_ text: String, to requestedPath: String) throws(FileWriter.Failure) {
        try write(utf8: Array(text.utf8), to: requestedPath)
    }

    /// `write(_:to:)` for text already in UTF-8, such as a rendered report.
    static func write(utf8 bytes: [UInt8], to requestedPath: String) throws(FileWriter.Failure) {
        try write(bytes: bytes, to: requestedPath, saving: "the stock is saved")
    }

    /// Replaces `path` with `bytes` atomically, as described above, keeping
    /// its permission bits: `juice-lint --fix` rewriting a recipe file.
    public static func write(bytes: [UInt8], to requestedPath: String) throws(FileWriter.Failure) {
        try write(bytes: bytes, to: requestedPath, saving: "a fixed file is written")
    }

    /// `saving` says, for a target that is no regular file, what is written
    /// only to one.
    private static func write(bytes: [UInt8], to requestedPath: String, saving: String) throws(FileWriter.Failure) {
        // Through a symbolic link, replace the file it points to, not the link.
        var path = requestedPath
        var link = stat()
        if lstat(requestedPath, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK, let resolved = realpath(requestedPath, nil) {
            path = String(cString: resolved)
            free(resolved)
        }
        let slash = path.lastIndex(of: "/")
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let temporary = folder + "/." + name + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        func fail(_ step: String) -> FileWriter.Failure {
            let failure = FileWriter.Failure.fromErrno(path: path, step: step)
            unlink(temporary)
            return failure
        }
        // Renaming over a device, a FIFO or a directory would replace it (as
        // root, /dev/full itself): only a regular file, or none, is replaced.
        var target = stat()
        if lstat(path, &target) == 0, (target.st_mode & S_IFMT) != S_IFREG {
            throw FileWriter.Failure(path: path, reason: "not a regular file; \(saving) only to a regular file")
        }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw fail("cannot create a temporary file beside it") }
        var existing = stat()
        if stat(path, &existing) == 0 { fchmod(descriptor, existing.st_mode & 0o7777) }
        guard FileWriter.writeAll(bytes, to: descriptor) else {
            let failure = fail("write failed")
            close(descriptor)
            throw failure
        }
        guard fsync(descriptor) == 0 else {
            close(descriptor)
            throw fail("fsync failed")
        }
        guard close(descriptor) == 0 else { throw fail("close failed") }
        guard rename(temporary, path) == 0 else { throw fail("rename failed") }
        let directoryDescriptor = open(folder, O_RDONLY)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }
}
