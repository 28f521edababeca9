import JuiceDiagnostics
import JuiceBook
import JuiceEngine
/// One book the language server keeps: a workspace folder's recipe files, or
/// a YAML file opened outside every folder, checked on its own.
///
/// Each holds a `RecipeWorkspace`, so an edit rebuilds the edited file's unit
/// only; the link after it is shared by every request until the next edit.
struct ServerBook {
    /// Where the book comes from.
    enum Origin: Equatable {
        /// A workspace folder, and the directory its files are found in:
        /// its `recipes/`, or the folder itself when it has none.
        case folder(String, directory: String)
        /// One file, opened outside every folder.
        case loose(String)
    }

    let origin: Origin
    var configuration: LintConfiguration
    /// Links for diagnostics only; the book is assembled when a query needs
    /// it. The opening-stock and cost rules ask the engine after each link.
    var workspace = RecipeWorkspace(analysis: true, pass: OpeningStockAnalysis(), book: false)
    /// The diagnostics last sent for each file: only changes are sent again.
    var published: [String: [Diagnostic]] = [:]
    /// Whether an edit came since the diagnostics were last published.
    var edited = true
    private var linked: Linked?

    /// One link of the book and what the server derives from it.
    struct Linked {
        let snapshot: WorkspaceSnapshot
        /// Every diagnostic after rule levels and suppressions, by file.
        let diagnostics: [String: [Diagnostic]]
        /// Made on the first query that needs it.
        var index: WorkspaceIndex?
        /// The book, when valid; assembled on the first query that needs it.
        var book: RecipeBook??
    }

    init(origin: Origin, configuration: LintConfiguration = LintConfiguration()) {
        self.origin = origin
        self.configuration = configuration
    }

    /// The workspace folder, for a folder's book.
    var folder: String? {
        if case .folder(let folder, _) = origin { return folder }
        return nil
    }

    /// Whether `path` is one of this book's files, open or on disk: a
    /// `*.yaml` or `*.yml` under its directory with no hidden part, as
    /// juice-lint finds them; or the loose book's one file.
    func holds(_ path: String) -> Bool {
        switch origin {
        case .loose(let file):
            return path == file
        case .folder(_, let directory):
            // A folder of `/` holds `/x.yaml`, not `//x.yaml`.
            let prefix = directory.hasSuffix("/") ? directory : directory + "/"
            guard path.hasPrefix(prefix), path.hasSuffix(".yaml") || path.hasSuffix(".yml") else { return false }
            return !path.dropFirst(prefix.count).split(separator: "/").contains { $0.hasPrefix(".") }
        }
    }

    /// Whether any of `paths` is one of this book's files: a loose book
    /// looks its one file up rather than trying every path.
    func holdsAny(of paths: Set<String>) -> Bool {
        switch origin {
        case .loose(let file): return paths.contains(file)
        case .folder: return paths.contains(where: holds)
        }
    }

    /// Sets a file's text and marks the book for publishing.
    mutating func update(_ path: String, bytes: [UInt8]) {
        workspace.update(path: path, bytes: bytes)
        changed()
    }

    mutating func remove(_ path: String) {
        workspace.remove(path: path)
        changed()
    }

    /// Forgets the link after an edit or a new configuration.
    mutating func changed() {
        linked = nil
        edited = true
    }

    /// The book linked as it stands now.
    mutating func current() -> Linked {
        if let linked { return linked }
        let snapshot = workspace.snapshot()
        var byFile: [String: [Diagnostic]] = [:]
        for diagnostic in configuration.finish(snapshot) {
            byFile[diagnostic.file, default: []].append(diagnostic)
        }
        let made = Linked(snapshot: snapshot, diagnostics: byFile)
        linked = made
        return made
    }

    /// What every id names and where it is used, as the book stands now.
    mutating func index() -> WorkspaceIndex {
        var made = current()
        if let index = made.index { return index }
        let index = made.snapshot.index
        made.index = index
        linked = made
        return index
    }

    /// The validated book as it stands now, or nil while it has errors.
    mutating func book() -> RecipeBook? {
        var made = current()
        if let book = made.book { return book }
        let book = made.snapshot.diagnostics.containsErrors ? nil : workspace.assembledBook()
        made.book = .some(book)
        linked = made
        return book
    }

    /// The files whose diagnostics differ from what was last sent, with
    /// their new diagnostics (empty to clear), and the files in `forced`
    /// even if unchanged (a document just opened is told it is clean);
    /// records them as sent.
    mutating func unpublished(forcing forced: Set<String>) -> [(path: String, diagnostics: [Diagnostic])] {
        guard edited || holdsAny(of: forced) else { return [] }
        edited = false
        let now = current().diagnostics
        var changes: [(path: String, diagnostics: [Diagnostic])] = []
        var paths = Set(workspace.paths)
        paths.formUnion(published.keys)
        paths.formUnion(now.keys)
        for path in paths.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let diagnostics = now[path] ?? []
            // A file never sent and still clean needs no message.
            if !forced.contains(path) {
                if let sent = published[path] {
                    if sent == diagnostics { continue }
                } else if diagnostics.isEmpty {
                    continue
                }
            }
            changes.append((path, diagnostics))
            published[path] = diagnostics.isEmpty ? nil : diagnostics
        }
        return changes
    }
}
