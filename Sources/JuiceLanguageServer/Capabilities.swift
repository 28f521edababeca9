@_spi(Internals) import JuiceSupport
import JuiceSource

/// What the client said it can do, read once from `initialize`.
struct ClientCapabilities {
    /// How `character` counts in positions: UTF-8 when the client offers
    /// it, otherwise the protocol's default, UTF-16.
    var units = SourceText.Units.utf16
    /// A `WorkspaceEdit` may use `documentChanges`.
    var documentChanges = false
    /// The server may register for file events itself.
    var watchedFilesRegistration = false
    /// Diagnostics may carry `relatedInformation`.
    var relatedInformation = true
    /// Hover may be Markdown.
    var markdownHover = false
    /// Completion items may have `labelDetails`.
    var labelDetails = false
    /// The client said `rename.prepareSupport: true`. LSP 3.17 lets a server
    /// answer `renameProvider` with `RenameOptions` (`prepareProvider`) only
    /// then; any other client gets the plain boolean.
    var prepareRename = false

    init() {}

    /// Reads `initialize`'s capabilities leniently: a shape this server does
    /// not expect means the client lacks the feature, not a broken request.
    init(reading capabilities: JSONValue) {
        let encodings = capabilities["general"]?["positionEncodings"]?.array?.compactMap(\.string) ?? []
        units = encodings.contains("utf-8") ? .utf8 : .utf16
        documentChanges = capabilities["workspace"]?["workspaceEdit"]?["documentChanges"]?.bool ?? false
        watchedFilesRegistration = capabilities["workspace"]?["didChangeWatchedFiles"]?["dynamicRegistration"]?.bool ?? false
        relatedInformation = capabilities["textDocument"]?["publishDiagnostics"]?["relatedInformation"]?.bool ?? true
        let hoverFormats = capabilities["textDocument"]?["hover"]?["contentFormat"]?.array?.compactMap(\.string) ?? []
        markdownHover = hoverFormats.contains("markdown")
        prepareRename = capabilities["textDocument"]?["rename"]?["prepareSupport"]?.bool == true
    }
}

/// What the server tells the client it does, in answer to `initialize`.
enum ServerCapabilities {
    /// The answer to `initialize` for a client that said it can do `client`.
    static func initializeResult(units: SourceText.Units, client: ClientCapabilities) -> JSONValue {
        .object([
            ("capabilities", .object([
                ("positionEncoding", .string(units == .utf8 ? "utf-8" : "utf-16")),
                ("textDocumentSync", .object([
                    ("openClose", .bool(true)), ("change", .int(2)), ("save", .object([("includeText", .bool(false))])),
                ])),
                ("completionProvider", .object([("triggerCharacters", .array([.string("{"), .string(",")]))])),
                ("hoverProvider", .bool(true)),
                ("definitionProvider", .bool(true)),
                ("referencesProvider", .bool(true)),
                ("documentSymbolProvider", .bool(true)),
                ("workspaceSymbolProvider", .bool(true)),
                ("renameProvider", client.prepareRename ? .object([("prepareProvider", .bool(true))]) : .bool(true)),
                ("codeActionProvider", .object([("codeActionKinds", .array([.string("quickfix")]))])),
                ("workspace", .object([
                    ("workspaceFolders", .object([("supported", .bool(true)), ("changeNotifications", .bool(true))])),
                ])),
            ])),
            ("serverInfo", .object([("name", .string("juice-lint")), ("version", .string(JuiceMakerVersion.current))])),
        ])
    }
}
