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

    /// The keyword whose word is exactly `bytes`, read without making a
    /// `String`: the script parser tries every line's first word.
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        for (keyword, word) in Self.words where word.count == bytes.count && word.elementsEqual(bytes) {
            self = keyword
            return
        }
        return nil
    }

    /// Each keyword with its word's bytes.
    private static let words: [(ScriptKeyword, [UInt8])] = allCases.map { ($0, Array($0.rawValue.utf8)) }
}
