import JuiceSource
import JuiceBook
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the server reaches files that are not open in the editor: finding a
/// folder's recipe files and reading one. The disk by default; the fuzz
/// target and tests give one that sees nothing, so no message can make them
/// read the machine's files.
public struct ServerFileAccess: Sendable {
    /// Every recipe file under a directory (absolute paths, sorted), as
    /// juice-lint finds them; empty when there is none or it cannot be listed.
    var discover: @Sendable (String) -> [String]
    /// A file's bytes, or nil when it cannot be read.
    var read: @Sendable (String) -> [UInt8]?
    /// Whether a path is a directory.
    var isDirectory: @Sendable (String) -> Bool
    /// Loads a folder's book in one go, on every core; nil when it cannot
    /// (a file in it is unreadable), and the server then reads file by file.
    var load: @Sendable (String) -> (units: [WorkspaceUnit], sources: [SourceFile])?

    /// The file system, read one file after another.
    public static let disk = disk(loading: SequentialBookLoader())

    /// The file system, with `loader` for a folder's first load (the
    /// command line hands in its parallel one).
    public static func disk(loading loader: any BookLoader) -> ServerFileAccess {
        ServerFileAccess(
        discover: { directory in
            (try? RecipeSources.discover(paths: [directory]))?.map(RecipeSources.absolutePath) ?? []
        },
        read: { path in try? RecipeSources.readFile(path) },
        isDirectory: { path in
            var info = stat()
            return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
        },
        load: { directory in
            guard let loaded = try? loader.load(BookLoadRequest(
                paths: [directory], analysis: true, assemblesBook: true, keepsText: true, requiresFiles: false, absolutePaths: true
            )) else { return nil }
            return (loaded.workspace.paths.compactMap(loaded.workspace.unit(at:)), loaded.sources)
        }
        )
    }

    /// No files at all: only what the client sends exists.
    public static let none = ServerFileAccess(
        discover: { _ in [] }, read: { _ in nil }, isDirectory: { _ in false }, load: { _ in ([], []) }
    )
}

/// The text of every file the server has positions in: open documents, as
/// the editor has them, and book files read from disk.
struct DocumentStore {
    /// How `character` counts in positions, as agreed in `initialize`.
    var units = SourceText.Units.utf16
    /// A document the editor has open: its text wins over the disk.
    struct OpenDocument {
        /// The URI as the client wrote it, to be echoed back exactly.
        var uri: String
        var version: Int?
        var text: SourceText
    }

    private(set) var open: [String: OpenDocument] = [:]
    /// Bytes of book files as read from disk, for files that are not open.
    private var disk: [String: [UInt8]] = [:]
    /// Decoded disk files, made when a position in one is first needed.
    private var decoded: [String: SourceText] = [:]
    /// The URI each file was last opened by, as the client wrote it, kept
    /// after it is closed: the client knows a file by its own spelling
    /// (`untitled:`, `%2d`, `localhost`), so a closed file's diagnostics
    /// are cleared, and a book file's published later, under that URI.
    private var clientURIs: [String: String] = [:]

    /// The open document at `path`.
    func document(at path: String) -> OpenDocument? { open[path] }

    /// The text of `path`: the editor's if open, else as read from disk.
    mutating func text(at path: String) -> SourceText? {
        if let document = open[path] { return document.text }
        if let text = decoded[path] { return text }
        guard let bytes = disk[path] else { return nil }
        let text = SourceText(fileBytes: bytes)
        decoded[path] = text
        return text
    }

    /// The URI to name `path` by: the client's own if it opened the file;
    /// else a `file:` URI, or the key itself for a document that is not a
    /// file (`DocumentURI.key(of:)`).
    func uri(of path: String) -> String {
        open[path]?.uri ?? clientURIs[path] ?? (path.hasPrefix("/") ? DocumentURI.uri(of: path) : path)
    }

    mutating func setOpen(_ document: OpenDocument, at path: String) {
        open[path] = document
        clientURIs[path] = document.uri
    }

    /// Forgets the URI a closed file was opened by, once nothing more will
    /// be published for it (a loose file, cleared on closing).
    mutating func forgetURI(of path: String) {
        guard open[path] == nil else { return }
        clientURIs[path] = nil
    }

    mutating func close(_ path: String) {
        open[path] = nil
    }

    /// Records a file's bytes as on disk (nil: it is not there).
    mutating func setDisk(_ bytes: [UInt8]?, at path: String) {
        disk[path] = bytes
        decoded[path] = nil
    }

    /// Forgets the disk text, and the client's URI if closed, of every path
    /// `isGone` picks.
    mutating func forgetDisk(where isGone: (String) -> Bool) {
        for path in disk.keys where isGone(path) {
            disk[path] = nil
            decoded[path] = nil
        }
        for path in clientURIs.keys where open[path] == nil && isGone(path) {
            clientURIs[path] = nil
        }
    }
}
