/// Parses order-script lines.
///
/// Grammar, one command per line, `#` to the end of the line is a comment:
///
///     MENU-ID            one order
///     MENU-ID xN         N orders, 1 <= N <= ScriptParser.maxRepeat
///     restock FRUIT N    add N >= 1 of FRUIT
///     set FRUIT N        set FRUIT's stock to N >= 0
///     stock              show the stock at this point
public struct ScriptParser: Sendable {
    /// The most orders one `xN` line may ask for, so a typo such as `x10000000000`
    /// cannot keep the simulator busy for hours.
    public static let maxRepeat = 1_000_000

    public let book: RecipeBook
    public let file: String
    /// Built on the first misspelt name; a script with none never pays for it.
    private let menuIDs: SuggestionIndex
    private let fruitIDs: SuggestionIndex

    /// A parser for scripts against `book`; `file` names lines in messages.
    public init(book: RecipeBook, file: String) {
        self.book = book
        self.file = file
        menuIDs = SuggestionIndex(book.menu.map(\.id))
        fruitIDs = SuggestionIndex(book.fruits.map(\.id))
    }

    /// The command on a line, nil for a blank or comment line.
    public func parse(_ line: String, number: Int) throws(ScriptProblem) -> ScriptCommand? {
        let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        guard let first = words.first else { return nil }
        func fail(_ message: String, _ help: String? = nil) -> ScriptProblem {
            ScriptProblem(file: file, line: number, message: message, help: help)
        }
        if first == "restock" || first == "set" {
            let minimum = first == "restock" ? 1 : 0
            guard words.count == 3 else {
                throw fail("expected '\(first) FRUIT AMOUNT'", "for example '\(first) mango 5'")
            }
            let name = String(words[1])
            guard let fruit = book.fruitIndex(name) else {
                throw fail("unknown fruit '\(name)'",
                           fruitIDs.didYouMean(name))
            }
            switch RecipeValues.wholeNumber(words[2].utf8) {
            case .value(let amount) where amount >= minimum:
                return first == "restock" ? .restock(fruit: fruit, amount: amount) : .set(fruit: fruit, amount: amount)
            case .tooLarge:
                throw fail("\(first) amount '\(words[2])' is too large", "the largest amount is \(Int.max)")
            case .negative where first == "set":
                throw fail("stock cannot go below 0: '\(words[2])'", "use 'set \(name) 0' to empty it")
            default:
                throw fail("\(first) amount '\(words[2])' is not a whole number of at least \(minimum)")
            }
        }
        if first == "stock" {
            guard words.count == 1 else { throw fail("'stock' takes no arguments") }
            return .stock
        }
        guard words.count <= 2 else {
            throw fail("expected 'MENU-ID' or 'MENU-ID xN', found \(words.count) words")
        }
        let name = String(first)
        guard let menu = book.menuIndex(name) else { throw unknownMenuItem(name, fail) }
        var count = 1
        if words.count == 2 {
            let repeatWord = words[1]
            guard repeatWord.first == "x" else {
                throw fail("expected 'xN' after '\(name)', found '\(String(repeatWord))'", "for example '\(name) x3'")
            }
            switch RecipeValues.wholeNumber(repeatWord.dropFirst().utf8) {
            case .value(let n) where n >= 1 && n <= Self.maxRepeat:
                count = n
            case .value(let n) where n > Self.maxRepeat:
                throw fail("'\(repeatWord)' repeats more than \(Self.maxRepeat) orders", "split it over several lines")
            case .tooLarge:
                throw fail("'\(repeatWord)' repeats more than \(Self.maxRepeat) orders", "split it over several lines")
            default:
                throw fail("'\(String(repeatWord))' is not a repeat count", "write 'x' and a whole number of at least 1, such as 'x3'")
            }
        }
        return .order(menu: menu, count: count)
    }

    private func unknownMenuItem(_ name: String, _ fail: (String, String?) -> ScriptProblem) -> ScriptProblem {
        let suggestion = menuIDs.didYouMean(name)
        if book.fruitIndex(name) != nil {
            return fail("'\(name)' is a fruit, not a menu item", suggestion ?? "order a menu item, or 'restock \(name) N'")
        }
        if book.recipeIndex(name) != nil {
            return fail("'\(name)' is an intermediate recipe, not a menu item", suggestion)
        }
        return fail("unknown menu item '\(name)'", suggestion)
    }
}
