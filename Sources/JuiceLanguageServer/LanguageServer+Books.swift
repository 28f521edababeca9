import JuiceBook
/// Workspace folders and loose files coming and going: loading a folder's
/// book, its configuration, and the files open outside every folder. The
/// books themselves are kept in `ServerBooks`.
extension LanguageServer {
    // MARK: Folders

    /// Loads a workspace folder's book: its `recipes/`, or the folder.
    mutating func addFolder(_ folder: String) {
        guard !books.folderIndices.contains(where: { books[$0].folder == folder }) else { return }
        let recipes = folder == "/" ? "/recipes" : folder + "/recipes"
        let directory = files.isDirectory(recipes) ? recipes : folder
        var book = ServerBook(origin: .folder(folder, directory: directory), configuration: configuration(in: folder))
        if let loaded = files.load(directory) {
            for unit in loaded.units { book.workspace.load(unit) }
            for source in loaded.sources { documents.setDisk(source.bytes, at: source.path) }
        } else {
            // Some file could not be read: take the others one by one.
            for path in files.discover(directory) {
                guard let bytes = files.read(path) else {
                    log.write(.warning, "cannot read '\(path.escapingControlCharacters)'; it is left out of the book")
                    continue
                }
                book.update(path, bytes: bytes)
                documents.setDisk(bytes, at: path)
            }
        }
        // Files already open (a folder added mid-session) count as open.
        for path in book.workspace.paths {
            if let document = documents.document(at: path) { book.update(path, bytes: document.text.utf8) }
        }
        // An open loose file that now lies in this book joins it.
        for path in books.loosePaths.sorted() where book.holds(path) {
            guard let index = books.index(holding: path), let document = documents.document(at: path) else { continue }
            _ = books.remove(at: index)
            book.update(path, bytes: document.text.utf8)
        }
        books.insertFolderBook(book)
    }

    /// Drops a folder's book, clearing the diagnostics it published.
    mutating func removeFolder(_ folder: String) {
        guard let index = books.folderIndices.first(where: { books[$0].folder == folder }) else { return }
        let book = books.remove(at: index)
        for path in book.published.keys { pending.append(publication(path, [])) }
        // The text of a file another folder's book still holds stays.
        let others = books.folderIndices.map { books[$0] }
        documents.forgetDisk { path in book.holds(path) && !others.contains { $0.holds(path) } }
        // Its open files are checked on their own from now on.
        for path in book.workspace.paths where documents.document(at: path) != nil {
            openLoose(path)
        }
    }

    /// The configuration a folder's `.juice-lint.yaml` sets (its open text
    /// if the editor has it open), or the defaults when there is none. A
    /// configuration with a mistake is reported to the user and not used.
    mutating func configuration(in folder: String) -> LintConfiguration {
        let path = folder == "/" ? "/" + LintConfiguration.defaultFileName : folder + "/" + LintConfiguration.defaultFileName
        guard let bytes = documents.document(at: path)?.text.utf8 ?? files.read(path) else { return LintConfiguration() }
        do throws(ConfigurationError) {
            return try LintConfiguration.parse(bytes, path: path)
        } catch {
            log.write(.warning, "\(error)")
            pending.append(JSONRPC.notification("window/showMessage", .object([
                ("type", .int(1)), ("message", .string("juice-lint: \(error); using the default rule levels")),
            ])))
            return LintConfiguration()
        }
    }

    /// The folder whose configuration file `path` is, if it is one.
    func configurationFolder(of path: String) -> String? {
        books.folderIndices.lazy.compactMap { books[$0].folder }.first { folder in
            path == (folder == "/" ? "" : folder) + "/" + LintConfiguration.defaultFileName
        }
    }

    mutating func reloadConfiguration(of folder: String) {
        let configuration = configuration(in: folder)
        guard let index = books.folderIndices.first(where: { books[$0].folder == folder }) else { return }
        books[index].configuration = configuration
        books[index].changed()
    }

    /// Checks an open file outside every book as a book of its own.
    mutating func openLoose(_ path: String) {
        guard let document = documents.document(at: path) else { return }
        var book = ServerBook(origin: .loose(path))
        book.update(path, bytes: document.text.utf8)
        books.setLoose(book, at: path)
        forcePublishing.insert(path)
    }
}
