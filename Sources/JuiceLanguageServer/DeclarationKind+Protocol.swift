import JuiceBook

/// How the protocol shows what an id names.
extension DeclarationKind {
    /// LSP `SymbolKind`.
    var lspSymbolKind: Int {
        switch self {
        case .fruit: 14 // Constant
        case .recipe: 12 // Function
        case .menuItem: 23 // Struct
        }
    }

    /// LSP `CompletionItemKind`, matching the symbol kinds.
    var lspCompletionKind: Int {
        switch self {
        case .fruit: 21 // Constant
        case .recipe: 3 // Function
        case .menuItem: 22 // Struct
        }
    }
}
