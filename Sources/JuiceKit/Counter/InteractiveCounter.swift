/// The shop counter of `juice-run --interactive`: the stock and a numbered
/// menu, orders by number, id or label, and a stock editor offered when an
/// order is refused, like the iOS teaching app it copies.
///
/// It reads lines from `input` and writes everything it shows to `output`, so
/// a test can script a whole session. Prompts (`> `, `stock> ` and the
/// `[y/N]` question) carry no newline: the caller should flush on every
/// `output` call. Input is trimmed of surrounding whitespace, and any of it
/// that is shown again has its control characters escaped and is cut short.
///
/// Command words (`menu`, `stock`, `edit`, `help`, `quit`, `exit`, `q`, in any
/// case) are read before menu ids and labels, so an item with such an id is
/// ordered by number or label. Not `Sendable`: it holds the caller's closures.
public struct InteractiveCounter {
    /// The menu and fruit catalog the counter sells from.
    public let book: RecipeBook
    private var maker: JuiceMaker
    private let editor: StockEditor
    private let input: () -> String?
    private let output: (String) -> Void
    /// Menu ids, then labels that are not also an id.
    private let menuNames: [String: Int]

    /// The stock as it stands.
    public var store: FruitStore { maker.store }

    /// A counter selling from `book`, starting with `store`; nothing is shown until `run()`.
    ///
    /// - Parameters:
    ///   - store: stock indexed by `book`'s fruits, such as `FruitStore(book:)`.
    ///   - input: the next line without its newline, or nil at the end of input.
    ///   - output: text to show, newlines included.
    public init(book: RecipeBook, store: FruitStore, input: @escaping () -> String?, output: @escaping (String) -> Void) {
        self.book = book
        self.maker = JuiceMaker(book: book, store: store)
        self.editor = StockEditor(book: book)
        self.input = input
        self.output = output
        var names: [String: Int] = [:]
        for (index, item) in book.menu.enumerated() where names[item.id] == nil { names[item.id] = index }
        for (index, item) in book.menu.enumerated() where names[item.label] == nil { names[item.label] = index }
        menuNames = names
    }

    /// Runs until `quit` or end of input (Ctrl-D); returns the final stock for the caller to save.
    public mutating func run() -> FruitStore {
        output(screen + "Type a menu number, id or label to order, or 'help'.\n")
        while true {
            output("> ")
            guard let line = input() else { return endOfInput() }
            if respond(to: Self.trimmed(line)) == .quit { return maker.store }
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
        return maker.store
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
            guard let value = StockEditor.value(of: line), value >= 1, value <= book.menu.count else {
                output(noSuchNumber(line))
                return .goOn
            }
            return order(value - 1)
        }
        if let index = menuNames[String(line)] { return order(index) }
        output(unknown(line))
        return .goOn
    }

    private mutating func order(_ index: Int) -> Flow {
        let item = book.menu[index]
        let label = item.label.escapingControlCharacters
        switch maker.make(index) {
        case .served:
            output("\(label) is ready. Enjoy!\n" + stockTable)
            return .goOn
        case .refused(let short):
            var text = "\(label) needs more fruit:\n"
            for shortage in short {
                text += "  \(book.fruits[shortage.fruit].id): need \(shortage.need), have \(shortage.have)\n"
            }
            output(text + "Not enough fruit. Edit the stock? [y/N] ")
            guard let answer = input() else {
                _ = endOfInput()
                return .quit
            }
            switch Self.trimmed(answer).lowercased() {
            case "y", "yes": return editStock()
            default: return .goOn
            }
        }
    }

    /// The stepper screen: edit lines until an empty one, then show the stock.
    private mutating func editStock() -> Flow {
        output(StockEditor.instructions + stockTable)
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
            output(editor.apply(line, to: &maker.store))
        }
    }

    // MARK: Text

    /// The stock, then the menu with what can be made now.
    private var screen: String { stockTable + "\n" + menuTable + "\n" }

    private var stockTable: String {
        let rows = book.fruits.enumerated().map { index, fruit in
            [fruit.emoji ?? "", fruit.label, fruit.label == fruit.id ? "" : fruit.id, String(store[index])]
        }
        return "stock:\n" + Self.table(rows, rightAligned: [3])
    }

    private var menuTable: String {
        guard !book.menu.isEmpty else { return "menu: (empty)\n" }
        let rows = book.menu.enumerated().map { index, item in
            let ready = store.shortages(for: item.needs).isEmpty
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

    private func unknown(_ line: Substring) -> String {
        let name = String(line)
        if editor.fruit(named: name) != nil {
            return "\(Self.quote(line)) is a fruit, not a menu item. Type 'edit' to change the stock.\n"
        }
        let candidates = book.menu.map(\.id) + book.menu.map(\.label) + Command.allCases.map(\.rawValue)
        if let suggestion = Suggestion.closest(to: name, in: candidates) {
            return "Unknown order \(Self.quote(line)): did you mean '\(suggestion.escapingControlCharacters)'?\n"
        }
        return "Unknown order \(Self.quote(line)). Type 'help' to see how to order.\n"
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
        let rows = rows.map { $0.map(\.escapingControlCharacters) }
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], DisplayWidth.of(cell)) }
        }
        var text = ""
        for row in rows {
            var cells: [String] = []
            for (column, cell) in row.enumerated() where widths[column] > 0 {
                let padding = String(repeating: " ", count: widths[column] - DisplayWidth.of(cell))
                cells.append(rightAligned.contains(column) ? padding + cell : cell + padding)
            }
            var line = "  " + cells.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            text += line + "\n"
        }
        return text
    }
}
