/// The rules for ids and amounts, shared by the compiler and the order script.
public enum RecipeValues {
    /// Words the order script uses as commands, so no id may take them:
    /// `ScriptKeyword`'s words.
    public static let reservedIDs: Set<String> = Set(ScriptKeyword.words)

    /// Why `id` cannot name a fruit, recipe or menu item, or nil when it can.
    public static func problem(withID id: String) -> String? {
        if id.isEmpty { return "an id cannot be empty" }
        // Nearly every id is printable ASCII; only the rest needs Unicode
        // properties. (Read in place: every id of a book passes here.)
        let isPlain: (UInt8) -> Bool = { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "#") }
        if id.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy(isPlain) }) ?? id.utf8.allSatisfy(isPlain) {
            return isReserved(id) ? "'\(id)' is reserved for order-script commands" : nil
        }
        for scalar in id.unicodeScalars {
            if scalar.properties.isWhitespace { return "id '\(id)' contains whitespace" }
            if scalar == "#" { return "id '\(id)' contains '#', which starts a comment in order scripts" }
            if scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format {
                return "id '\(id)' contains a control character"
            }
        }
        if isReserved(id) { return "'\(id)' is reserved for order-script commands" }
        return nil
    }

    /// What to do about an id `problem(withID:)` rejects: advice that fits
    /// the problem, since an empty id is no word to shorten and a reserved
    /// one is a word already.
    public static func help(forInvalidID id: String) -> String {
        if id.isEmpty { return "an id needs at least one character: give it a name such as 'mango', or remove it" }
        if isReserved(id) { return "choose another id" }
        return "ids are single words such as 'mango' or 'mango-juice'"
    }

    /// Whether `id` is an order-script keyword (`reservedIDs`).
    static func isReserved(_ id: String) -> Bool {
        // Every id of a book is checked here, and most are longer than any
        // command word: the length settles those without a look-up. The rest
        // are compared with the few words themselves: `ScriptKeyword(rawValue:)`
        // searched a table of cases, 290 instructions an id, 14.8 M of a
        // lint of 100,000 unused fruits (callgrind), half of whose ids are
        // that short.
        id.utf8.count <= ScriptKeyword.longest && ScriptKeyword.words.contains(id)
    }
}
