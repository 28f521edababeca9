
/// The words an order script uses as commands: the one list of them.
///
/// The script parser reads commands by these words, and the book reserves
/// them (`RecipeValues.reservedIDs`), so no fruit or menu item can be
/// mistaken for a command. It lives with the book's rules because the book
/// is checked first; the parser, downstream, reads it from here.
public enum ScriptKeyword: String, CaseIterable, Sendable {
    /// `restock FRUIT N`: add N (at least 1).
    case restock
    /// `set FRUIT N`: set the stock to N (at least 0).
    case set
    /// `stock`: show the stock at this point.
    case stock

    /// The words, in case order.
    public static let words = allCases.map(\.rawValue)

    /// The length in UTF-8 of the longest word.
    public static let longest = words.map(\.utf8.count).max() ?? 0
}
