/// The books a language server keeps: one per workspace folder, then one
/// per file open outside all of them, and which book holds a file.
///
/// The folders' books come first. A loose book is found through `loose`,
/// by its path, and a folder's by trying the few folders, so opening
/// thousands of untitled documents does not scan every book for each (it
/// did, and 10,000 opens in one batch took 17 s).
struct ServerBooks: RandomAccessCollection, MutableCollection {
    private var books: [ServerBook] = []
    /// The index in `books` of each loose book, by its file's path.
    private var loose: [String: Int] = [:]

    var startIndex: Int { books.startIndex }
    var endIndex: Int { books.endIndex }

    subscript(index: Int) -> ServerBook {
        get { books[index] }
        set { books[index] = newValue }
    }

    /// The paths of the files checked as books of their own.
    var loosePaths: Dictionary<String, Int>.Keys { loose.keys }

    /// The indices of the folders' books, which come before the loose ones.
    var folderIndices: Range<Int> {
        books.startIndex..<(books.firstIndex { $0.folder == nil } ?? books.endIndex)
    }

    /// The book `path` belongs to: its own loose book, or the innermost
    /// folder that holds it.
    func index(holding path: String) -> Int? {
        if let index = loose[path] { return index }
        var best: (index: Int, depth: Int)?
        for index in folderIndices where books[index].holds(path) {
            guard case .folder(_, let directory) = books[index].origin else { continue }
            if directory.count > best?.depth ?? -1 { best = (index, directory.count) }
        }
        return best?.index
    }

    /// Adds a folder's book after the other folders' books.
    mutating func insertFolderBook(_ book: ServerBook) {
        books.insert(book, at: folderIndices.upperBound)
        indexLooseBooks()
    }

    /// Keeps `book` as the loose book of the file at `path`, in the place
    /// of the one it had.
    mutating func setLoose(_ book: ServerBook, at path: String) {
        if let index = loose[path] {
            books[index] = book
        } else {
            loose[path] = books.endIndex
            books.append(book)
        }
    }

    /// Takes a book out. A loose book's place goes to the last book, so no
    /// other index moves; a folder's book moves the loose books down.
    mutating func remove(at index: Int) -> ServerBook {
        guard case .loose(let path) = books[index].origin else {
            let book = books.remove(at: index)
            indexLooseBooks()
            return book
        }
        books.swapAt(index, books.endIndex - 1)
        let book = books.removeLast()
        loose[path] = nil
        if index < books.endIndex, case .loose(let moved) = books[index].origin { loose[moved] = index }
        return book
    }

    /// Finds every loose book's index again, after the folders' books changed.
    private mutating func indexLooseBooks() {
        loose = [:]
        for index in folderIndices.upperBound..<books.endIndex {
            if case .loose(let path) = books[index].origin { loose[path] = index }
        }
    }
}
