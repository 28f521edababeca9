@_spi(Internals) import JuiceSupport
import JuiceBook
/// Parses order-script lines: the one grammar of the language, used for a
/// replayed file, `--order`, the counter and the fuzz targets alike.
///
/// Grammar, one command per line, `#` to the end of the line is a comment:
///
///     MENU-ID            one order
///     MENU-ID xN         N orders, 1 <= N <= ScriptParser.maxRepeat
///     restock FRUIT N    add N >= 1 of FRUIT
///     set FRUIT N        set FRUIT's stock to N >= 0
///     stock              show the stock at this point
///
/// Words are split at spaces, tabs and carriage returns, bytes the UTF-8 of
/// no other character contains. A line is read from its bytes: replaying
/// millions of lines is dominated by per-line `String` work, so a valid line
/// makes none, and ids are found in a byte-keyed `NameTable`. Message text
/// is built only on the way out of a line that is wrong, so the fast path and
/// the path that explains a mistake are the same code.
public struct ScriptParser: Sendable {
    /// The most orders one `xN` line may ask for, so a typo such as `x10000000000`
    /// cannot keep the simulator busy for hours.
    public static let maxRepeat = 1_000_000

    /// What one line holds.
    public enum Line: Sendable, Hashable {
        /// A blank or comment-only line.
        case nothing
        case command(ScriptCommand)
        /// A line that is not a valid command, and why. Boxed, so a parsed
        /// line stays a few words wide on the path that has no problem.
        indirect case problem(ScriptProblem)
    }

    /// The book the lines are read against.
    public var book: RecipeBook { tables.book }
    /// What messages call the script.
    public var file: String { tables.file }
    private let tables: Tables

    /// Everything the parser reads, behind one reference. A simulation keeps
    /// its parser in a struct it mutates line by line, and a parser of many
    /// words was copied for every line (a `memcpy` a line, 5% of a quiet
    /// replay's instructions, measured with callgrind).
    private final class Tables: Sendable {
        let book: RecipeBook
        let file: String
        let keywords = ScriptKeywordTable()
        let menuNames: NameTable<Int>
        let fruitNames: NameTable<Int>
        /// Built on the first misspelt name; a script with none never pays for it.
        let menuIDs: SuggestionIndex
        let fruitIDs: SuggestionIndex

        init(book: RecipeBook, file: String) {
            self.book = book
            self.file = file
            menuNames = NameTable(utf8Names: book.menu.map(\.id))
            fruitNames = NameTable(utf8Names: book.fruits.map(\.id))
            menuIDs = SuggestionIndex(book.menu.map(\.id))
            fruitIDs = SuggestionIndex(book.fruits.map(\.id))
        }
    }

    /// A parser for scripts against `book`; `file` names lines in messages.
    public init(book: RecipeBook, file: String) {
        tables = Tables(book: book, file: file)
    }

    /// The command on a line, nil for a blank or comment line.
    public func parse(_ line: String, number: Int) throws(ScriptProblem) -> ScriptCommand? {
        var text = line
        switch text.withUTF8({ parse(bytes: $0, number: number) }) {
        case .nothing: return nil
        case .command(let command): return command
        case .problem(let problem): throw problem
        }
    }

    /// What the line whose UTF-8 is `line` holds (invalid UTF-8 is shown as
    /// U+FFFD in messages); `number` is its line number, for messages.
    ///
    /// Always inlined: called out of line from a simulation's `mutating`
    /// method, the parser (ten words) was copied for every line, 3% of a
    /// quiet replay's instructions.
    @inline(__always)
    public func parse(bytes line: UnsafeBufferPointer<UInt8>, number: Int) -> Line {
        let words = Words(line)
        guard words.count > 0 else { return .nothing }
        let first = words[0]
        if let keyword = tables.keywords.keyword(first) {
            return command(keyword, words, number: number)
        }
        guard words.count <= 2 else {
            return fail(number, "expected 'MENU-ID' or 'MENU-ID xN', found \(words.count) words")
        }
        guard let menu = menuIndex(first) else { return unknownMenuItem(Self.text(first), number: number) }
        guard words.count == 2 else { return .command(.order(menu: menu, count: 1)) }
        let repeatWord = words[1]
        guard repeatWord.first == UInt8(ascii: "x") else {
            let name = Self.text(first)
            return fail(number, "expected 'xN' after '\(name)', found '\(Self.text(repeatWord))'", "for example '\(name) x3'")
        }
        switch WholeNumber(utf8: UnsafeBufferPointer(rebasing: repeatWord[1...])) {
        case .value(let count) where count >= 1 && count <= Self.maxRepeat:
            return .command(.order(menu: menu, count: count))
        case .value(let count) where count > Self.maxRepeat:
            return fail(number, "'\(Self.text(repeatWord))' repeats more than \(Self.maxRepeat) orders", "split it over several lines")
        case .tooLarge:
            return fail(number, "'\(Self.text(repeatWord))' repeats more than \(Self.maxRepeat) orders", "split it over several lines")
        default:
            return fail(number, "'\(Self.text(repeatWord))' is not a repeat count", "write 'x' and a whole number of at least 1, such as 'x3'")
        }
    }

    /// A line that starts with a keyword.
    private func command(_ keyword: ScriptKeyword, _ words: Words, number: Int) -> Line {
        let word = keyword.rawValue
        switch keyword {
        case .stock:
            guard words.count == 1 else { return fail(number, "'stock' takes no arguments") }
            return .command(.stock)
        case .restock, .set:
            let minimum = keyword == .restock ? 1 : 0
            guard words.count == 3 else {
                return fail(number, "expected '\(word) FRUIT AMOUNT'", "for example '\(word) mango 5'")
            }
            let fruit = fruitIndex(words[1])
            let recipe = fruit == nil ? book.recipeIndex(Self.text(words[1])) : nil
            if fruit == nil {
                let name = Self.text(words[1])
                guard recipe != nil else { return fail(number, "unknown fruit '\(name)'", tables.fruitIDs.didYouMean(name)) }
                guard book.keepsServings else {
                    return fail(number, "'\(name)' is a recipe, and this book keeps no servings of recipes",
                                "give a recipe a 'yield:' or an opening stock entry (version 2) to keep servings")
                }
            }
            switch WholeNumber(utf8: words[2]) {
            case .value(let amount) where amount >= minimum:
                if let recipe {
                    return .command(keyword == .restock ? .restockRecipe(recipe: recipe, amount: amount) : .setRecipe(recipe: recipe, amount: amount))
                }
                guard let fruit else { return fail(number, "unknown fruit '\(Self.text(words[1]))'") }
                return .command(keyword == .restock ? .restock(fruit: fruit, amount: amount) : .set(fruit: fruit, amount: amount))
            case .tooLarge:
                return fail(number, "\(word) amount '\(Self.text(words[2]))' is too large", "the largest amount is \(Int.max)")
            case .negative where keyword == .set:
                let name = Self.text(words[1])
                return fail(number, "stock cannot go below 0: '\(Self.text(words[2]))'", "use 'set \(name) 0' to empty it")
            default:
                return fail(number, "\(word) amount '\(Self.text(words[2]))' is not a whole number of at least \(minimum)")
            }
        }
    }

    /// The menu item named by `bytes`. A name that is the same text in
    /// another Unicode normal form (an accent as its own scalar) is found
    /// through the book, as a `String` comparison finds it.
    private func menuIndex(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        tables.menuNames.value(utf8: bytes, hash: NameTable<Int>.utf8Hash(bytes)) ?? book.menuIndex(Self.text(bytes))
    }

    /// The fruit named by `bytes`; see `menuIndex(_:)`.
    private func fruitIndex(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        tables.fruitNames.value(utf8: bytes, hash: NameTable<Int>.utf8Hash(bytes)) ?? book.fruitIndex(Self.text(bytes))
    }

    private func fail(_ number: Int, _ message: String, _ help: String? = nil) -> Line {
        .problem(ScriptProblem(file: file, line: number, message: message, help: help))
    }

    private func unknownMenuItem(_ name: String, number: Int) -> Line {
        let suggestion = tables.menuIDs.didYouMean(name)
        if book.fruitIndex(name) != nil {
            return fail(number, "'\(name)' is a fruit, not a menu item", suggestion ?? "order a menu item, or 'restock \(name) N'")
        }
        if book.recipeIndex(name) != nil {
            return fail(number, "'\(name)' is an intermediate recipe, not a menu item", suggestion)
        }
        return fail(number, "unknown menu item '\(name)'", suggestion)
    }

    private static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// A line's words before any `#`: the first three, which are all a valid
    /// line has, and how many there are in all, for the message about too many.
    private struct Words {
        package private(set) var count = 0
        private var ranges: (Range<Int>, Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0)
        private let line: UnsafeBufferPointer<UInt8>

        init(_ line: UnsafeBufferPointer<UInt8>) {
            self.line = line
            var position = 0
            while position < line.count {
                let byte = line[position]
                if Self.isDelimiter(byte) {
                    if byte == UInt8(ascii: "#") { break }
                    position += 1
                    continue
                }
                let start = position
                position += 1
                while position < line.count, !Self.isDelimiter(line[position]) {
                    position += 1
                }
                switch count {
                case 0: ranges.0 = start..<position
                case 1: ranges.1 = start..<position
                case 2: ranges.2 = start..<position
                default: break
                }
                count += 1
            }
        }

        /// Word 0, 1 or 2.
        subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
            let range = index == 0 ? ranges.0 : index == 1 ? ranges.1 : ranges.2
            return UnsafeBufferPointer(rebasing: line[range])
        }

        /// Space, tab, carriage return and `#`, as bits: every byte a word
        /// ends at is below 64, so one comparison settles most bytes of an id.
        private static let delimiters: UInt64 =
            1 << UInt64(UInt8(ascii: " ")) | 1 << UInt64(UInt8(ascii: "\t")) | 1 << UInt64(UInt8(ascii: "\r"))
            | 1 << UInt64(UInt8(ascii: "#"))

        @inline(__always)
        private static func isDelimiter(_ byte: UInt8) -> Bool {
            byte < 64 && (delimiters >> UInt64(byte)) & 1 != 0
        }
    }
}
