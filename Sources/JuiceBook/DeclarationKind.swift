/// What an id is declared as: the one kind enum of the book, read by the
/// collector, the linker, the index, the graph and the language server.
public enum DeclarationKind: String, Sendable, Hashable {
    case fruit
    case recipe
    /// Written "menu item" in messages, where the raw value is shown.
    case menuItem = "menu item"

    /// The section an id of this kind is declared in, as a file writes it.
    public var section: String { bookSection.rawValue }

    public var bookSection: BookSection {
        switch self {
        case .fruit: .fruits
        case .recipe: .recipes
        case .menuItem: .menu
        }
    }
}

/// The top-level keys of a recipe file, the one list of them: the
/// collector's reader, its `collectUncounted`, the large-file cut
/// (`LargeFileCut.sections`) and editor completion all read or switch over
/// it, so a new section is a compile error until each handles it.
public enum BookSection: String, CaseIterable, Sendable {
    case version, fruits, stock, recipes, menu
}
