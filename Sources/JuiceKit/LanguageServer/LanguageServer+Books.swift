/// The books: one per workspace folder, then one per file open outside all
/// of them, and which book holds a file.
///
/// `books` keeps the folders' books first. A loose book is found through
/// `looseBooks`, by its path, and a folder's by trying the few folders, so
/// opening thousands of untitled documents does not scan every book for
/// each (it did, and 10,000 opens in one batch took 17 s).
extension LanguageServer {
    // MARK: Folders

    /// Loads a workspace folder's book: its `recipes/`, or the folder.
    mutating func addFolder(_ folder: String) {
        guard !folderBookIndices.contains(where: { books[$0].folder == folder }) else { return }
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
        for path in looseBooks.keys.sorted() where book.holds(path) {
            guard let index = looseBooks[path], let document = documents.document(at: path) else { continue }
            _ = removeBook(at: index)
            book.update(path, bytes: document.text.utf8)
        }
        books.insert(book, at: folderBookIndices.upperBound)
        indexLooseBooks()
    }

    /// Drops a folder's book, clearing the diagnostics it published.
    mutating func removeFolder(_ folder: String) {
        guard let index = folderBookIndices.first(where: { books[$0].folder == folder }) else { return }
        let book = removeBook(at: index)
        for path in book.published.keys { pending.append(publication(path, [])) }
        // The text of a file another folder's book still holds stays.
        let others = folderBookIndices.map { books[$0] }
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
            pending.append(Self.notification("window/showMessage", .object([
                ("type", .int(1)), ("message", .string("juice-lint: \(error); using the default rule levels")),
            ])))
            return LintConfiguration()
        }
    }

    /// The folder whose configuration file `path` is, if it is one.
    func configurationFolder(of path: String) -> String? {
        folderBookIndices.lazy.compactMap { books[$0].folder }.first { folder in
            path == (folder == "/" ? "" : folder) + "/" + LintConfiguration.defaultFileName
        }
    }

    mutating func reloadConfiguration(of folder: String) {
        let configuration = configuration(in: folder)
        guard let index = folderBookIndices.first(where: { books[$0].folder == folder }) else { return }
        books[index].configuration = configuration
        books[index].changed()
    }

    // MARK: Finding and keeping books

    /// The indices of the folders' books, which come before the loose ones.
    var folderBookIndices: Range<Int> {
        books.startIndex..<(books.firstIndex { $0.folder == nil } ?? books.endIndex)
    }

    /// The book `path` belongs to: its own loose book, or the innermost
    /// folder that holds it.
    func bookIndex(holding path: String) -> Int? {
        if let index = looseBooks[path] { return index }
        var best: (index: Int, depth: Int)?
        for index in folderBookIndices where books[index].holds(path) {
            guard case .folder(_, let directory) = books[index].origin else { continue }
            if directory.count > best?.depth ?? -1 { best = (index, directory.count) }
        }
        return best?.index
    }

    /// Checks an open file outside every book as a book of its own.
    mutating func openLoose(_ path: String) {
        guard let document = documents.document(at: path) else { return }
        var book = ServerBook(origin: .loose(path))
        book.update(path, bytes: document.text.utf8)
        if let index = looseBooks[path] {
            books[index] = book
        } else {
            looseBooks[path] = books.endIndex
            books.append(book)
        }
        forcePublishing.insert(path)
    }

    /// Takes a book out. A loose book's place goes to the last book, so no
    /// other index moves; a folder's book moves the loose books down.
    mutating func removeBook(at index: Int) -> ServerBook {
        guard case .loose(let path) = books[index].origin else {
            let book = books.remove(at: index)
            indexLooseBooks()
            return book
        }
        books.swapAt(index, books.endIndex - 1)
        let book = books.removeLast()
        looseBooks[path] = nil
        if index < books.endIndex, case .loose(let moved) = books[index].origin { looseBooks[moved] = index }
        return book
    }

    /// Finds every loose book's index again, after the folders' books changed.
    private mutating func indexLooseBooks() {
        looseBooks = [:]
        for index in folderBookIndices.upperBound..<books.endIndex {
            if case .loose(let path) = books[index].origin { looseBooks[path] = index }
        }
    }
}
