@_spi(Internals) import JuiceSupport
import JuiceBook
import JuiceEngine
import JuiceShop
/// The counter's stock editor: reads `FRUIT +N`, `FRUIT -N` and `FRUIT =N`
/// lines and applies them to a `FruitStore`, the text version of the teaching
/// app's stepper screen.
///
/// FRUIT is a fruit's id or label; N is whole decimal digits. The operator and
/// its number may stand apart or together (`kiwi + 3`, `kiwi=3`). Every change
/// is the shop's stock rule (`Shop.changeStock`, which the web counter
/// uses too), so stock never goes below zero and never overflows: a refused
/// change says why and leaves the stock as it was.
struct StockEditor {
    enum Operation: Equatable {
        case add, take, set
    }

    /// N as read from the line, before it meets the store.
    enum Amount: Equatable {
        case value(Int)
        /// `=-N` with N > 0: a stock below zero.
        case negative
        /// More digits than an `Int` holds.
        case tooLarge
    }

    /// One well-formed line; the fruit name is not yet resolved.
    struct Edit: Equatable {
        var name: Substring
        var operation: Operation
        var amount: Amount
    }

    /// Shown when the editor opens.
    static let instructions = """
        Edit the stock: FRUIT +N adds, FRUIT -N takes, FRUIT =N sets (FRUIT is an id or a label).
        An empty line closes the editor.

        """

    /// Added to `instructions` in a book that keeps servings.
    static let servingsInstructions = "A recipe's id edits its servings on hand the same way.\n"

    /// Shown for a line that is not an edit.
    static let usage = """
        Write FRUIT +N, FRUIT -N or FRUIT =N, such as 'kiwi +5'. An empty line closes the editor.

        """

    let book: RecipeBook
    /// Fruit ids, then labels that are not also an id.
    private let fruitNames: [String: Int]
    /// What an unknown fruit may have meant: fruit ids and labels
    /// (`SuggestionIndex`, as lint searches ids).
    private let fruitSuggestions: SuggestionIndex

    init(book: RecipeBook) {
        self.book = book
        var names: [String: Int] = [:]
        for (index, fruit) in book.fruits.enumerated() where names[fruit.id] == nil { names[fruit.id] = index }
        for (index, fruit) in book.fruits.enumerated() where names[fruit.label] == nil { names[fruit.label] = index }
        fruitNames = names
        fruitSuggestions = SuggestionIndex(book.fruits.map(\.id) + book.fruits.map(\.label))
    }

    /// The fruit a name means, by id or label.
    func fruit(named name: some StringProtocol) -> Int? { fruitNames[String(name)] }

    /// Reads one trimmed, non-empty line and asks `shop` for the change it
    /// means (`Shop.changeStock`, the shop's one rule for stock): returns
    /// what to show, ending in a newline, and the change to record, nil
    /// when the line is refused. The stock itself changes only when the
    /// caller records the event.
    func apply(_ line: Substring, to shop: Shop) -> (text: String, change: JournalEntry.Event?) {
        guard let edit = Self.parse(line) else { return (Self.usage, nil) }
        let servings: Bool
        let id: String
        let before: Int
        if let fruit = fruit(named: edit.name) {
            servings = false
            id = book.fruits[fruit].id
            before = shop.stock[fruit]
        } else if book.keepsServings, let recipe = book.recipeIndex(String(edit.name)) {
            servings = true
            id = book.recipes[recipe].id
            before = shop.stock.servings.indices.contains(recipe) ? shop.stock.servings[recipe] : 0
        } else {
            let name = InteractiveCounter.quote(edit.name)
            if let suggestion = fruitSuggestions.closest(to: String(edit.name)) {
                return ("Unknown fruit \(name): did you mean '\(suggestion.escapingControlCharacters)'?\n", nil)
            }
            let ids = book.fruits.map(\.id).joined(separator: ", ")
            return ("Unknown fruit \(name). The fruits are: \(ids).\n", nil)
        }
        let amount: Int
        switch edit.amount {
        case .value(let value): amount = value
        case .negative:
            return ("Refused: \(servings ? "servings on hand" : "stock") can never go below 0; \(id) stays at \(before).\n", nil)
        case .tooLarge: return ("Refused: the amount is larger than \(Int.max); \(id) stays at \(before).\n", nil)
        }
        let change: Shop.StockEdit = switch edit.operation {
        case .add: .add(amount)
        case .take: .add(-amount)
        case .set: .set(amount)
        }
        do {
            let event = try shop.changeStock(id, change)
            guard case .stockChange(let changed) = event else { return ("Refused: nothing changed.\n", nil) }
            return ("\(id): \(before) -> \(changed.after)\(servings ? " on hand" : "")\n", event)
        } catch {
            switch error {
            case .belowZero:
                return ("Refused: taking \(amount) would leave \(id) below 0; it stays at \(before).\n", nil)
            case .tooLarge:
                return ("Refused: \(id) cannot hold more than \(Int.max); it stays at \(before).\n", nil)
            case .emptyChange:
                return ("Refused: add or take at least 1; \(id) stays at \(before).\n", nil)
            default:
                return ("Refused: \(error.message); nothing changed.\n", nil)
            }
        }
    }

    /// Reads `NAME OP DIGITS` from the right, so a name may hold spaces or
    /// dashes (`dragon-fruit -2`); `=-DIGITS` is read as a negative set.
    /// Nil when the line has no operator and digits at its end, or no name.
    static func parse(_ line: Substring) -> Edit? {
        var rest = line[...]
        let digits = rest.suffix(while: { $0.isASCII && $0.isNumber })
        guard !digits.isEmpty else { return nil }
        rest = rest.dropLast(digits.count).droppingTrailingWhitespace
        guard let symbol = rest.last else { return nil }
        rest = rest.dropLast().droppingTrailingWhitespace
        var operation: Operation
        var negative = false
        switch symbol {
        case "+": operation = .add
        case "=": operation = .set
        case "-":
            operation = .take
            if rest.last == "=" {
                operation = .set
                negative = true
                rest = rest.dropLast().droppingTrailingWhitespace
            }
        default: return nil
        }
        guard !rest.isEmpty else { return nil }
        var amount = Amount.tooLarge
        if let value = WholeNumber(digits).paddedValue {
            amount = negative && value > 0 ? .negative : .value(value)
        } else if negative {
            amount = .negative
        }
        return Edit(name: rest, operation: operation, amount: amount)
    }
}

extension Substring {
    /// The longest run at the end whose characters all match.
    fileprivate func suffix(while predicate: (Character) -> Bool) -> Substring {
        var start = endIndex
        while start > startIndex {
            let previous = index(before: start)
            guard predicate(self[previous]) else { break }
            start = previous
        }
        return self[start...]
    }

    fileprivate var droppingTrailingWhitespace: Substring { dropLast(suffix(while: \.isWhitespace).count) }
}
