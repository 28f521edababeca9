@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics
import JuiceBook
/// The session and the files: `initialize`, the books of the workspace
/// folders, document sync, file events, and publishing diagnostics.
extension LanguageServer {
    mutating func initialize(_ params: Params) throws(ResponseError) -> JSONValue {
        guard phase == .waitingForInitialize else { throw .invalidRequest("the server is already initialized") }
        client = ClientCapabilities(reading: params.value["capabilities"] ?? .null)
        documents.units = client.units

        var folders: [String] = []
        if let listed = try params.optionalArray("workspaceFolders") {
            for folder in listed {
                if let path = DocumentURI.path(of: try folder.string("uri")) { folders.append(path) }
            }
        } else if let root = try params.optionalString("rootUri") {
            if let path = DocumentURI.path(of: root) { folders.append(path) }
        } else if let root = try params.optionalString("rootPath") {
            folders.append(DocumentURI.normalized(root))
        }
        phase = .running
        holdsFirstPublication = true
        for folder in folders { addFolder(folder) }
        log.write(.info, "initialized with \(books.count) book(s), \(books.reduce(0) { $0 + $1.workspace.paths.count }) file(s)")
        return ServerCapabilities.initializeResult(units: documents.units, client: client)
    }

    /// Registers for file events, if the client lets the server do so: an
    /// edit made outside the editor (a `git checkout`, say) then reaches
    /// every book.
    mutating func registerForFileEvents() {
        guard client.watchedFilesRegistration else { return }
        let watchers: JSONValue = .array([
            .object([("globPattern", .string("**/*.{yaml,yml}"))]),
            .object([("globPattern", .string("**/" + LintConfiguration.defaultFileName))]),
        ])
        pending.append(outgoingRequest("client/registerCapability", .object([
            ("registrations", .array([.object([
                ("id", .string("juice-lint-watched-files")),
                ("method", .string("workspace/didChangeWatchedFiles")),
                ("registerOptions", .object([("watchers", watchers)])),
            ])])),
        ])))
    }

    // MARK: Document sync

    mutating func didOpen(_ params: Params) throws(ResponseError) {
        let item = try params.object("textDocument")
        let uri = try item.string("uri")
        let text = try item.string("text")
        let path = DocumentURI.key(of: uri)
        documents.setOpen(DocumentStore.OpenDocument(uri: uri, version: try item.optionalInt("version"), text: SourceText(text: text)), at: path)
        documentChanged(path)
        forcePublishing.insert(path)
    }

    /// Applies a notification's changes in order, each to the text the ones
    /// before it made, or none of them: a change that cannot be read (the
    /// protocol has no answer to a notification) leaves the document as it
    /// was, and the log says the editor's text may now differ.
    mutating func didChange(_ params: Params) throws(ResponseError) {
        let item = try params.object("textDocument")
        let uri = try item.string("uri")
        let path = DocumentURI.key(of: uri)
        guard var document = documents.document(at: path) else {
            throw .invalidParams("'\(uri.escapingControlCharacters)' is not open")
        }
        do throws(ResponseError) {
            let changes = try params.array("contentChanges")
            if !changes.isEmpty {
                var text = EditableText(document.text)
                for change in changes {
                    let replacement = Array(try change.string("text").utf8)
                    guard let range = try change.optionalObject("range") else {
                        text = EditableText(SourceText(utf8: replacement))
                        continue
                    }
                    var start = try range.position("start"), end = try range.position("end")
                    // Ends given the wrong way round are read as the range
                    // between them, as vscode-languageserver's TextDocument reads them.
                    if end < start { swap(&start, &end) }
                    let from = text.offset(lspLine: start.line, character: start.character, units: documents.units)
                    let to = max(from, text.offset(lspLine: end.line, character: end.character, units: documents.units))
                    text.replace(from..<to, with: replacement)
                }
                document.text = text.text
            }
            document.version = try item.optionalInt("version") ?? document.version
        } catch {
            throw ResponseError(
                code: error.code,
                message: "\(error.message); none of the changes to '\(uri.escapingControlCharacters)' were applied, "
                    + "so the server's text may differ from the editor's until the document is opened again"
            )
        }
        documents.setOpen(document, at: path)
        documentChanged(path)
        // The edited document hears back even when nothing changed, with
        // its version: the client then knows its diagnostics are current.
        forcePublishing.insert(path)
    }

    mutating func didClose(_ params: Params) throws(ResponseError) {
        let uri = try params.object("textDocument").string("uri")
        let path = DocumentURI.key(of: uri)
        guard documents.document(at: path) != nil else { return }
        documents.close(path)
        if let folder = configurationFolder(of: path) {
            reloadConfiguration(of: folder)
            return
        }
        guard let index = books.index(holding: path) else { return }
        if case .loose = books[index].origin {
            // Cleared under the URI the client opened it by, then forgotten.
            let book = books.remove(at: index)
            for published in book.published.keys { pending.append(publication(published, [])) }
            if book.published.isEmpty { pending.append(publication(path, [])) }
            documents.forgetURI(of: path)
            return
        }
        // A book file goes back to its text on disk, or leaves the book.
        let bytes = files.read(path)
        documents.setDisk(bytes, at: path)
        if let bytes { books[index].update(path, bytes: bytes) } else { books[index].remove(path) }
    }

    mutating func didChangeWatchedFiles(_ params: Params) throws(ResponseError) {
        for change in try params.array("changes") {
            let uri = try change.string("uri")
            let type = try change.count("type")
            guard let path = DocumentURI.path(of: uri), documents.document(at: path) == nil else { continue }
            if let folder = configurationFolder(of: path) {
                reloadConfiguration(of: folder)
                continue
            }
            guard let index = books.index(holding: path), books[index].folder != nil else { continue }
            let bytes = type == 3 ? nil : files.read(path)
            documents.setDisk(bytes, at: path)
            if let bytes { books[index].update(path, bytes: bytes) } else { books[index].remove(path) }
        }
    }

    mutating func didChangeWorkspaceFolders(_ params: Params) throws(ResponseError) {
        let event = try params.object("event")
        for folder in try event.array("removed") {
            if let path = DocumentURI.path(of: try folder.string("uri")) { removeFolder(path) }
        }
        for folder in try event.array("added") {
            if let path = DocumentURI.path(of: try folder.string("uri")) { addFolder(path) }
        }
    }

    /// The open document at `path` changed (or was opened): its book takes
    /// the new text; a configuration file reconfigures its folder.
    private mutating func documentChanged(_ path: String) {
        guard let document = documents.document(at: path) else { return }
        if let folder = configurationFolder(of: path) {
            reloadConfiguration(of: folder)
            return
        }
        if let index = books.index(holding: path) {
            books[index].update(path, bytes: document.text.utf8)
        } else {
            openLoose(path)
        }
    }


    // MARK: Publishing

    /// What the batch gave rise to: file-event registration and messages,
    /// then the diagnostics of every file whose diagnostics changed.
    mutating func settle() -> [JSONValue] {
        var outgoing = pending
        pending = []
        guard phase == .running, !holdsFirstPublication else { return outgoing }
        let forced = forcePublishing
        forcePublishing = []
        for index in books.indices {
            let linksBefore = books[index].workspace.linkCount
            for (path, diagnostics) in books[index].unpublished(forcing: forced) {
                outgoing.append(publication(path, diagnostics))
            }
            let workspace = books[index].workspace
            if workspace.linkCount != linksBefore {
                log.write(.debug, "linked \(workspace.paths.count) file(s); files parsed so far: \(workspace.unitsBuilt), links: \(workspace.linkCount)")
            }
        }
        return outgoing
    }

    /// `textDocument/publishDiagnostics` for one file.
    mutating func publication(_ path: String, _ diagnostics: [Diagnostic]) -> JSONValue {
        let version = documents.document(at: path)?.version
        return JSONRPC.notification("textDocument/publishDiagnostics", .object([
            "uri": .string(documents.uri(of: path)),
            "version": version.map(JSONValue.int),
            "diagnostics": .array(diagnostics.map { lspDiagnostic($0) }),
        ]))
    }

    /// A diagnostic as LSP shows it: the help line joins the message, the
    /// notes become related information.
    mutating func lspDiagnostic(_ diagnostic: Diagnostic) -> JSONValue {
        let severity = switch diagnostic.severity {
        case .error: 1
        case .warning: 2
        case .info: 3
        }
        var message = diagnostic.message
        if let help = diagnostic.help { message += "\nhelp: " + help }
        var related: JSONValue?
        if client.relatedInformation, !diagnostic.notes.isEmpty {
            related = .array(diagnostic.notes.map { note in
                .object([("location", documents.location(note.range)), ("message", .string(note.message))])
            })
        } else if !diagnostic.notes.isEmpty {
            message += diagnostic.notes.map { "\nnote: " + $0.message }.joined()
        }
        return .object([
            "range": documents.lspRange(diagnostic.range),
            "severity": .int(severity),
            "code": .string(diagnostic.rule.id),
            "source": .string("juice-lint"),
            "message": .string(message),
            "relatedInformation": related,
        ])
    }
}
