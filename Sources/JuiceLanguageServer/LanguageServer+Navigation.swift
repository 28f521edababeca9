@_spi(Internals) import JuiceSupport
import JuiceSource
/// Finding ids: what is under the cursor, definitions, references, and the
/// symbols of a file and of the book.
extension LanguageServer {
    /// The book and text of a request's `textDocument`, which must be open
    /// or one of a book's files.
    mutating func document(_ params: Params) throws(ResponseError) -> (book: Int, path: String, text: SourceText) {
        let uri = try params.object("textDocument").string("uri")
        let path = DocumentURI.key(of: uri)
        guard let book = books.index(holding: path),
              documents.document(at: path) != nil || books[book].workspace.unit(at: path) != nil,
              let text = documents.text(at: path)
        else { throw .invalidParams("unknown document '\(uri.escapingControlCharacters)': it is neither open nor a file of a book") }
        return (book, path, text)
    }

    /// A `TextDocumentPositionParams`' document and cursor.
    mutating func target(_ params: Params) throws(ResponseError) -> RequestTarget {
        let (book, path, text) = try document(params)
        let (line, character) = try params.position()
        let offset = text.offset(lspLine: line, character: character, units: documents.units)
        return RequestTarget(book: book, path: path, text: text, position: text.position(atOffset: offset), offset: offset)
    }

    /// The id written at the cursor, touching it on either side.
    mutating func occurrence(at target: RequestTarget) -> IdOccurrence? {
        let index = books[target.book].index()
        func covers(_ range: SourceRange) -> Bool {
            range.file == target.path && range.start <= target.position && target.position <= range.end
        }
        if let definition = index.definitions.first(where: { covers($0.range) }) {
            return IdOccurrence(id: definition.id, range: definition.range, definition: definition)
        }
        if let reference = index.references.first(where: { covers($0.range) }) {
            return IdOccurrence(id: reference.id, range: reference.range, reference: reference)
        }
        return nil
    }

    mutating func definition(_ params: Params) throws(ResponseError) -> JSONValue {
        let target = try target(params)
        guard let occurrence = occurrence(at: target) else { return .null }
        let definitions = books[target.book].index().definitions(of: occurrence.id)
        return .array(definitions.map { documents.location($0.range) })
    }

    mutating func references(_ params: Params) throws(ResponseError) -> JSONValue {
        let target = try target(params)
        let includeDeclaration = try params.optionalObject("context")?.optionalBool("includeDeclaration") ?? false
        guard let occurrence = occurrence(at: target) else { return .null }
        let index = books[target.book].index()
        var ranges = includeDeclaration ? index.definitions(of: occurrence.id).map(\.range) : []
        ranges += index.references(to: occurrence.id).map(\.range)
        // A name inside an anchored node is one place, however many aliases use it.
        var seen = Set<SourceRange>()
        return .array(ranges.filter { seen.insert($0).inserted }.map { documents.location($0) })
    }

    // MARK: Symbols

    /// The file's outline (`DocumentOutline`).
    mutating func documentSymbols(_ params: Params) throws(ResponseError) -> JSONValue {
        let (book, path, text) = try document(params)
        let documents = documents
        return DocumentOutline(index: books[book].index(), path: path, text: text) { documents.lspPosition($0, in: text) }.symbols()
    }

    /// The most symbols one `workspace/symbol` answer lists.
    static let maximumWorkspaceSymbols = 1000

    /// Every id of every book whose name contains the query, ignoring case.
    mutating func workspaceSymbols(_ params: Params) throws(ResponseError) -> JSONValue {
        let query = try params.string("query").lowercased()
        var symbols: [JSONValue] = []
        for book in books.indices {
            for definition in books[book].index().definitions where query.isEmpty || definition.id.lowercased().contains(query) {
                guard symbols.count < Self.maximumWorkspaceSymbols else { return .array(symbols) }
                symbols.append(.object([
                    ("name", .string(definition.id)), ("kind", .int(definition.kind.lspSymbolKind)),
                    ("location", documents.location(definition.range)), ("containerName", .string(definition.kind.section)),
                ]))
            }
        }
        return .array(symbols)
    }
}
