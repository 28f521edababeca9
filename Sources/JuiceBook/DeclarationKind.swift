/// What an id is declared as: the one kind enum of the book, read by the
/// collector, the linker, the index, the graph and the language server.
public enum DeclarationKind: String, Sendable, Hashable {
    case fruit
    case recipe
    /// Written "menu item" in messages, where the raw value is shown.
    case menuItem = "menu item"

    /// The section an id of this kind is declared in, as a file writes it.
    public var section: String {
        switch self {
        case .fruit: "fruits"
        case .recipe: "recipes"
        case .menuItem: "menu"
        }
    }
}
