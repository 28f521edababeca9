@_spi(Internals) import JuiceSupport
import JuiceBook
import JuiceEngine
import JuiceShop
/// The shop counter of `juice-run --interactive`: the stock and a numbered
/// menu, orders by number, id or label, and a stock editor offered when an
/// order is refused, like the iOS teaching app it copies.
///
/// It reads lines from `input` and writes everything it shows to `output`, so
/// a test can script a whole session. Prompts (`> `, `stock> ` and the
/// `[y/N]` and `[Y/n]` questions) carry no newline: the caller should flush on
/// every `output` call. A question is asked again until it gets y, yes, n, no
/// or Enter, so an order typed too early is never taken as an answer.
///
/// A refused order offers the stock editor; if the order can be made after
/// editing, the counter offers to make it. The day's tally (`day`) counts each
/// order once: served if it was made, at once or after editing, refused if not. Input is trimmed of surrounding whitespace, and any of it
/// that is shown again has its control characters escaped and is cut short.
///
/// Command words (`menu`, `stock`, `edit`, `help`, `quit`, `exit`, `q`, in any
/// case) are read before menu ids and labels, so an item with such an id is
/// ordered by number or label. Not `Sendable`: it holds the caller's closures.
public struct InteractiveCounter {
    /// The menu and fruit catalog the counter sells from.
    public let book: RecipeBook
    /// The shop's rules (order, refuse, edit stock, make now), shared with
    /// the web counter; the counter only reads lines and shows text.
    private var shop: Shop
    /// The session's journal, in memory: what the day's summary is built from.
    private var entries: [JournalEntry] = []
    private let editor: StockEditor
    private let input: () -> String?
    private let output: (String) -> Void
    /// Menu ids, then labels that are not also an id.
    private let menuNames: [String: Int]
    /// What an unknown order may have meant: menu ids, labels and commands,
    /// searched as lint and scripts search ids (`SuggestionIndex`).
    private let orderSuggestions: SuggestionIndex
    /// The menu items a partial or misspelt order may have meant, when no
    /// whole name is close (`MenuSearch`).
    private let menuSearch: MenuSearch

    /// What a day at the counter came to, for the closing summary.
    public struct Day: Sendable, Hashable {
        public var orders = 0
        public var served = 0
        public var refused = 0
        /// The prices of the orders served, or nil when no menu item has a price.
        public var revenue: Revenue?
    }

    /// The orders so far, for the summary printed when the counter closes:
    /// the shop's day report of the session's journal (`DayReport`), where
    /// an order refused and then made after editing counts once, as served.
    public var day: Day {
        let total = DayReport(day: Self.day, entries: entries, closingStock: nil).total
        return Day(orders: total.orders, served: total.served, refused: total.refused, revenue: hasPrices ? total.sales : nil)
    }

    /// Whether any menu item has a price: without one the day has no revenue, rather than 0.
    private let hasPrices: Bool

    /// The day the session's journal is written under; the terminal counter keeps no calendar.
    private static let day = "counter"

    /// The stock as it stands.
    public var store: FruitStore { shop.stock }

    /// A counter selling from `book`, starting with `store`; nothing is shown until `run()`.
    ///
    /// - Parameters:
    ///   - store: stock indexed by `book`'s fruits, such as `FruitStore(book:)`.
    ///   - input: the next line without its newline, or nil at the end of input.
    ///   - output: text to show, newlines included.
    public init(book: RecipeBook, store: FruitStore, input: @escaping () -> String?, output: @escaping (String) -> Void) {
        self.book = book
        shop = Shop(book: book)
        hasPrices = Revenue(tallying: book) != nil
        self.editor = StockEditor(book: book)
        self.input = input
        self.output = output
        var names: [String: Int] = [:]
        for (index, item) in book.menu.enumerated() where names[item.id] == nil { names[item.id] = index }
        for (index, item) in book.menu.enumerated() where names[item.label] == nil { names[item.label] = index }
        menuNames = names
        orderSuggestions = SuggestionIndex(book.menu.map(\.id) + book.menu.map(\.label) + Command.allCases.map(\.rawValue))
        menuSearch = MenuSearch(book: book)
        record(.dayOpen(Shop.stock(store, of: book)))
    }

    /// Writes an event into the session's journal and applies it: the one
    /// way the counter changes the stock, as the web counter's store does.
    @discardableResult
    private mutating func record(_ event: JournalEntry.Event) -> JournalEntry {
        let entry = JournalEntry(sequence: Int64(entries.count + 1), day: Self.day, time: 0, user: "counter", till: "terminal", event: event)
        // The shop decided the event on this state, so it applies; a failure
        // here would be a broken rule, and the stock is then left as it was.
        guard (try? shop.apply(entry)) != nil else { return entry }
        entries.append(entry)
        return entry
    }

    /// The summary shown when the counter closes, by `quit`, end of input or a
    /// signal: the day's orders and, when given, where the stock was saved.
    public func closingText(savedTo path: String?) -> String {
        var text = "Day's summary: \(day.orders) \(day.orders == 1 ? "order" : "orders"), \(day.served) served, \(day.refused) refused"
        if let revenue = day.revenue { text += ", revenue \(revenue)" }
        text += ".\n"
        if let path { text += "Stock saved to '\(path.escapingControlCharacters)'.\n" }
        return text
    }

    /// Runs until `quit` or end of input (Ctrl-D); returns the final stock for the caller to save.
    public mutating func run() -> FruitStore {
        output(screen + "Type a menu number, id or label to order, or 'help'.\n")
        while true {
            output("> ")
            guard let line = input() else { return endOfInput() }
            if respond(to: Self.trimmed(line)) == .quit { return shop.stock }
        }
    }

    private enum Flow {
        case goOn, quit
    }

    private enum Command: String, CaseIterable {
        case menu, stock, edit, help, quit, exit, q
    }

    /// Ctrl-D leaves the cursor after a prompt; end the line so the shell's prompt starts afresh.
    private func endOfInput() -> FruitStore {
        output("\n")
        return shop.stock
    }

    private mutating func respond(to line: Substring) -> Flow {
        if line.isEmpty { return .goOn }
        if let command = Command(rawValue: line.lowercased()) {
            switch command {
            case .menu: output(screen)
            case .stock: output(stockTable)
            case .edit: return editStock()
            case .help: output(help)
            case .quit, .exit, .q: return .quit
            }
            return .goOn
        }
        if line.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let value = WholeNumber(line).paddedValue, value >= 1, value <= book.menu.count else {
                output(noSuchNumber(line))
                return .goOn
            }
            return order(value - 1)
        }
        if let index = menuNames[String(line)] { return order(index) }
        if let (index, count) = repeatedOrder(line) {
            // As a script's `ID xN`: one order after another, each all or nothing.
            for _ in 0..<count where order(index) == .quit { return .quit }
            return .goOn
        }
        output(unknown(line))
        return .goOn
    }

    /// `ID xN` (or `LABEL xN`), N from 1 to the script's limit, as scripts write it.
    private func repeatedOrder(_ line: Substring) -> (menu: Int, count: Int)? {
        guard let space = line.lastIndex(of: " ") else { return nil }
        let name = Self.trimmed(String(line[..<space]))
        let word = line[line.index(after: space)...]
        guard word.first == "x" || word.first == "X", let index = menuNames[String(name)],
              let count = WholeNumber(word.dropFirst()).paddedValue, count >= 1, count <= ScriptParser.maxRepeat
        else { return nil }
        return (index, count)
    }

    private mutating func order(_ index: Int) -> Flow {
        let item = book.menu[index]
        let label = item.label.escapingControlCharacters
        let refusal: JournalEntry
        let refused: JournalEntry.OrderRefused
        switch ask(index) {
        case .order(let made):
            record(.order(made))
            serve(made)
            return .goOn
        case .refusal(let short):
            refusal = record(.refusal(short))
            refused = short
        default:
            return .goOn
        }
        var text = "\(label) needs more fruit:\n"
        for shortage in refused.shortages {
            // A substitute that ran short says which fruit it stood in for.
            let standsIn = shortage.standsInFor.map { " for \($0)" } ?? ""
            text += "  \(shortage.fruit)\(standsIn): need \(shortage.need), have \(shortage.have)\n"
        }
        output(text)
        switch ask("Not enough fruit.", "Edit the stock? [y/N] ", yesByDefault: false) {
        case nil: return .quit
        case false?: return .goOn
        case true?: break
        }
        guard editStock() == .goOn else { return .quit }
        if case .refusal(let still) = ask(index) {
            output("\(label) still needs more fruit (\(TextSimulationReporter.describe(shortages(still), book: book))); the order is not made.\n")
            return .goOn
        }
        switch ask(nil, "Make \(item.id.escapingControlCharacters) now? [Y/n] ", yesByDefault: true) {
        case nil: return .quit
        case false?: return .goOn
        case true?:
            // Made good: the day report counts the refusal and this order once, as served.
            guard case .order(let made) = ask(index, resolving: refusal.sequence) else { return .goOn }
            record(.order(made))
            serve(made)
            return .goOn
        }
    }

    /// The shop's answer to one order of a menu item, on the stock now; nothing is recorded yet.
    private func ask(_ index: Int, resolving refusal: Int64? = nil) -> JournalEntry.Event? {
        try? shop.order(book.menu[index].id, quantity: 1, clientID: String(entries.count + 1), resolves: refusal)
    }

    /// A refusal's short fruit, by index, as the run's text printer takes them.
    private func shortages(_ refused: JournalEntry.OrderRefused) -> [Shortage] {
        refused.shortages.compactMap { short in
            book.fruitIndex(short.fruit).map { Shortage(fruit: $0, need: short.need, have: short.have, standsInFor: short.standsInFor.flatMap(book.fruitIndex)) }
        }
    }

    /// Shows a made order.
    private func serve(_ made: JournalEntry.OrderMade) {
        let substitutions = made.substitutions.compactMap { taken -> Substitution? in
            guard let fruit = book.fruitIndex(taken.fruit), let substitute = book.fruitIndex(taken.substitute) else { return nil }
            return Substitution(fruit: fruit, substitute: substitute, units: taken.units, covered: taken.covered)
        }
        let stoodIn = substitutions.isEmpty ? "" : "Made with \(TextSimulationReporter.describe(substitutions, book: book)).\n"
        let label = book.menuIndex(made.item).map { book.menu[$0].label } ?? made.item
        output("\(label.escapingControlCharacters) is ready. Enjoy!\n" + stoodIn + stockTable)
    }

    /// Asks until the answer is yes or no; Enter takes the default. Nil at end
    /// of input, which ends the session like Ctrl-D at the prompt. Anything
    /// else is asked again rather than taken as no: it is most likely the next
    /// order, typed before the question was read.
    private func ask(_ lead: String?, _ question: String, yesByDefault: Bool) -> Bool? {
        output((lead.map { $0 + " " } ?? "") + question)
        while true {
            guard let answer = input() else {
                _ = endOfInput()
                return nil
            }
            switch Self.trimmed(answer).lowercased() {
            case "": return yesByDefault
            case "y", "yes": return true
            case "n", "no": return false
            default: output("Answer y or n. " + question)
            }
        }
    }

    /// The stepper screen: edit lines until an empty one, then show the stock.
    private mutating func editStock() -> Flow {
        let servings = book.keepsServings && !book.recipes.isEmpty ? StockEditor.servingsInstructions : ""
        output(StockEditor.instructions + servings + stockTable)
        while true {
            output("stock> ")
            guard let raw = input() else {
                _ = endOfInput()
                return .quit
            }
            let line = Self.trimmed(raw)
            if line.isEmpty {
                output(stockTable)
                return .goOn
            }
            let (text, change) = editor.apply(line, to: shop)
            if let change { record(change) }
            output(text)
        }
    }

    // MARK: Text

    /// The stock, then the menu with what can be made now.
    private var screen: String { stockTable + "\n" + menuTable + "\n" }

    private var stockTable: String {
        let rows = book.fruits.enumerated().map { index, fruit in
            [fruit.emoji ?? "", fruit.label, fruit.label == fruit.id ? "" : fruit.id, String(store[index])]
        }
        var text = "stock:\n" + Self.table(rows, rightAligned: [3])
        if book.keepsServings && !book.recipes.isEmpty {
            let servings = book.recipes.enumerated().map { index, recipe in
                ["", recipe.label, recipe.label == recipe.id ? "" : recipe.id, String(store.servings.indices.contains(index) ? store.servings[index] : 0)]
            }
            text += "on hand (servings):\n" + Self.table(servings, rightAligned: [3])
        }
        return text
    }

    private var menuTable: String {
        guard !book.menu.isEmpty else { return "menu: (empty)\n" }
        let rows = book.menu.enumerated().map { index, item in
            let ready = shop.canMake(index)
            return [String(index + 1), item.label, item.price.map(String.init) ?? "", ready ? "ready" : "sold out"]
        }
        return "menu:\n" + Self.table(rows, rightAligned: [0, 2])
    }

    private var help: String {
        var text = ""
        if let first = book.menu.first {
            let names = ["1", first.id, first.label].reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            let examples = names.map { "'\($0.escapingControlCharacters)'" }
            let listed = examples.count == 1 ? examples[0] : examples.dropLast().joined(separator: ", ") + " or " + examples[examples.count - 1]
            text += "To order, type a menu number, id or label, such as \(listed).\n"
            text += "When there is not enough fruit, answer 'y' to edit the stock.\n"
        } else {
            text += "The menu is empty.\n"
        }
        return text + """
            Commands:
              menu   show the stock and the menu
              stock  show the stock
              edit   edit the stock
              help   show this help
              quit   close the counter (also 'exit', 'q' or Ctrl-D)

            """
    }

    private func noSuchNumber(_ line: Substring) -> String {
        let number = Self.quote(line)
        switch book.menu.count {
        case 0: return "There is no \(number) on the menu: the menu is empty.\n"
        case 1: return "There is no \(number) on the menu; type 1 to order \(book.menu[0].label.escapingControlCharacters).\n"
        default: return "There is no \(number) on the menu; choose 1 to \(book.menu.count).\n"
        }
    }

    /// The answer to an order that names nothing on the menu: a fruit is
    /// pointed to the editor, and to the items that use its name; a name close
    /// to a whole id, label or command gets that one; a partial or misspelt
    /// name gets the menu items it may mean (`MenuSearch`); else help.
    private func unknown(_ line: Substring) -> String {
        let name = String(line)
        if editor.fruit(named: name) != nil {
            let items = menuSearch.matches(for: name)
            let meant = items.isEmpty ? "." : ": did you mean \(Self.list(items, of: book))?"
            return "\(Self.quote(line)) is a fruit, not a menu item\(meant) Type 'edit' to change the stock.\n"
        }
        if let suggestion = orderSuggestions.closest(to: name) {
            return "Unknown order \(Self.quote(line)): did you mean '\(suggestion.escapingControlCharacters)'?\n"
        }
        let items = menuSearch.matches(for: name)
        if !items.isEmpty {
            return "Unknown order \(Self.quote(line)): did you mean \(Self.list(items, of: book))?\n"
        }
        return "Unknown order \(Self.quote(line)). Type 'help' to see how to order.\n"
    }

    /// Menu items as `'id' (label)`, the label left out where it is the id:
    /// `'a' (A), 'b' (B) or 'c'`.
    static func list(_ items: [Int], of book: RecipeBook) -> String {
        let names = items.map { index in
            let item = book.menu[index]
            let id = "'\(item.id.escapingControlCharacters)'"
            return item.label == item.id ? id : id + " (\(item.label.escapingControlCharacters))"
        }
        guard let last = names.last else { return "" }
        return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " or " + last
    }

    // MARK: Helpers

    /// Text from input, quoted for showing back: control characters escaped,
    /// and cut to 40 characters so a pasted page does not flood the screen.
    static func quote(_ text: Substring) -> String {
        let limit = 40
        let shown = text.count > limit ? String(text.prefix(limit)) + "..." : String(text)
        return "'" + shown.escapingControlCharacters + "'"
    }

    static func trimmed(_ text: String) -> Substring {
        let head = text.drop(while: \.isWhitespace)
        var end = head.endIndex
        while end > head.startIndex, head[head.index(before: end)].isWhitespace { end = head.index(before: end) }
        return head[..<end]
    }

    /// Rows as indented columns two spaces apart, widths by terminal cells
    /// (Hangul and emoji take two); a column empty in every row is left out.
    static func table(_ rows: [[String]], rightAligned: Set<Int>) -> String {
        TextTable.lines(rows, rightAligned: rightAligned, indent: "  ").map { $0 + "\n" }.joined()
    }
}
