@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceBook
/// Rename an id at its definition and every use, across the book; and the
/// `WorkspaceEdit` every edit the server offers is sent as.
extension LanguageServer {
    /// One replacement in one file, placed by byte offsets of its text.
    struct PlacedEdit {
        var path: String
        var range: Range<Int>
        var newText: String
    }

    /// The place to rename at the cursor: the name's own text (inside its
    /// quotes), and the id.
    mutating func prepareRename(_ params: Params) throws(ResponseError) -> JSONValue {
        let target = try target(params)
        guard let occurrence = occurrence(at: target),
              !books[target.book].index().definitions(of: occurrence.id).isEmpty,
              let span = nameSpan(of: occurrence.id, at: occurrence.range)
        else { return .null }
        return .object([("range", documents.lspRange(span.range, in: span.text)), ("placeholder", .string(occurrence.id))])
    }

    mutating func rename(_ params: Params) throws(ResponseError) -> JSONValue {
        let target = try target(params)
        let newName = try params.string("newName")
        guard let occurrence = occurrence(at: target) else { throw .requestFailed("there is no fruit, recipe or menu item id here to rename") }
        let id = occurrence.id
        let index = books[target.book].index()
        let definitions = index.definitions(of: id)
        guard let definition = definitions.first else {
            throw .requestFailed("'\(id.escapingControlCharacters)' is not declared in this book, so there is nothing to rename; declare it first")
        }
        if let problem = RecipeValues.problem(withID: newName) {
            throw .requestFailed("cannot rename '\(id.escapingControlCharacters)' to '\(newName.escapingControlCharacters)': \(problem)")
        }
        if newName == id { return workspaceEdit([]) }
        if let taken = index.definitions(of: newName).first {
            throw .requestFailed(
                "cannot rename '\(id.escapingControlCharacters)' to '\(newName.escapingControlCharacters)': "
                    + "that name is already taken by the \(taken.kind.rawValue) at \(display(taken.range))"
            )
        }
        // Every place the id is written, once each (an anchored node's keys
        // are one place, however many aliases use them).
        var seen = Set<SourceRange>()
        let ranges = (definitions.map(\.range) + index.references(to: id).map(\.range)).filter { seen.insert($0).inserted }
        var edits: [PlacedEdit] = []
        for range in ranges {
            guard let span = nameSpan(of: id, at: range), let written = span.spelling.written(newName) else {
                throw .requestFailed(
                    "cannot rename '\(id.escapingControlCharacters)': it is written at \(display(range)) in a way an edit "
                        + "cannot follow safely (an escape, a tag, an anchor or an alias); rename that place by hand first"
                )
            }
            edits.append(PlacedEdit(path: range.file, range: span.range, newText: written))
        }
        log.write(.info, "rename \(definition.kind.rawValue) '\(id)' to '\(newName)': \(edits.count) place(s)")
        return workspaceEdit(edits)
    }

    /// Where a name's own text is at `range` (the key's span), how it is
    /// written there, and the text it is in; nil when the span does not
    /// hold `id` written plainly or in simple quotes. A file's text is
    /// decoded once, for every name in it.
    mutating func nameSpan(of id: String, at range: SourceRange) -> (range: Range<Int>, spelling: NameSpelling, text: SourceText)? {
        guard let text = documents.text(at: range.file) else { return nil }
        let start = text.offset(of: range.start), end = max(start, text.offset(of: range.end))
        let written = text[start..<end]
        if written == id { return (start..<end, .plain, text) }
        guard written.utf8.count >= 2 else { return nil }
        let inner = (start + 1)..<(end - 1)
        if written == "'" + id.replacing("'", with: "''") + "'" { return (inner, .singleQuoted, text) }
        if written == "\"" + id + "\"", !id.contains("\\"), !id.contains("\"") { return (inner, .doubleQuoted, text) }
        return nil
    }

    /// `file:line:column` for a message, the path relative to its folder.
    func display(_ range: SourceRange) -> String {
        var path = range.file
        if let folder = books.folderIndices.lazy.compactMap({ self.books[$0].folder }).first(where: { path.hasPrefix($0 + "/") }) {
            path = String(path.dropFirst(folder.count + 1))
        }
        return "\(path):\(range.start.line):\(range.start.column)"
    }

    /// A `WorkspaceEdit`: `documentChanges` with each open document's
    /// version when the client takes them, `changes` otherwise.
    mutating func workspaceEdit(_ edits: [PlacedEdit]) -> JSONValue {
        var byPath: [String: [JSONValue]] = [:]
        var order: [String] = []
        for edit in edits {
            guard let text = documents.text(at: edit.path) else { continue }
            if byPath[edit.path] == nil { order.append(edit.path) }
            byPath[edit.path, default: []].append(.object([("range", documents.lspRange(edit.range, in: text)), ("newText", .string(edit.newText))]))
        }
        if client.documentChanges {
            return .object([("documentChanges", .array(order.map { path in
                .object([
                    ("textDocument", .object([
                        ("uri", .string(documents.uri(of: path))),
                        ("version", documents.document(at: path)?.version.map(JSONValue.int) ?? .null),
                    ])),
                    ("edits", .array(byPath[path] ?? [])),
                ])
            }))])
        }
        return .object([("changes", .object(order.map { (documents.uri(of: $0), JSONValue.array(byPath[$0] ?? [])) }))])
    }
}
