/// `ReferenceShop` with the two commands it does not know, `set FRUIT N` and
/// `stock`, as docs/recipes.md describes them.
///
/// It wraps the model rather than changing it: `ReferenceShop` is what the
/// differential tests trust, and it stays exactly as it is. Every line that is
/// not `set` or `stock` goes to the wrapped model as a one-line script; `set`
/// replaces the model with one whose opening stock is the current stock with
/// that fruit changed, which is all `set` does; `stock` reads the model's stock.
package struct ReferenceRunner {
    let book: GeneratedBook
    private(set) var shop: ReferenceShop

    package init(book: GeneratedBook) {
        self.book = book
        shop = ReferenceShop(book: book)
    }

    /// Each menu item's whole-fruit need, as the model expands it.
    package var needs: [String: [String: Int]] {
        Dictionary(uniqueKeysWithValues: book.menuIDs.map { ($0, shop.need(of: $0)) })
    }

    /// Runs every line, numbered from 1.
    package mutating func run(_ lines: [String]) -> ModelRun {
        var run = ModelRun()
        for (index, line) in lines.enumerated() {
            let number = index + 1
            switch parseCommand(line) {
            case .set(let fruit, let amount):
                var changed = book
                changed.openingStock = shop.stock
                changed.openingStock[fruit] = amount
                shop = ReferenceShop(book: changed)
                run.events.append(.set(line: number, fruit: fruit, stock: amount))
            case .stock:
                run.events.append(.stock(line: number, counts: shop.stock))
            case .invalid:
                run.events.append(.skipped(line: number))
            case .other:
                let before = shop.stock
                let result = shop.run([line])
                for order in result.orders {
                    run.events.append(.order(OrderRecord(line: number, menu: order.menu, refusal: order.refusal)))
                }
                for restock in result.restocks {
                    let amount = restock.stock - (before[restock.fruit] ?? 0)
                    run.events.append(.restock(line: number, fruit: restock.fruit, amount: amount, stock: restock.stock))
                }
                if !result.skippedLines.isEmpty { run.events.append(.skipped(line: number)) }
            }
        }
        run.finalStock = shop.stock
        return run
    }

    enum Command {
        case set(String, amount: Int)
        case stock
        case invalid
        /// Anything else: the wrapped model's business.
        case other
    }

    /// `set FRUIT N` with N >= 0 and `stock` alone, in the grammar
    /// `ReferenceShop.parse` uses for the other commands.
    func parseCommand(_ line: String) -> Command {
        let content = line.prefix { $0 != "#" }
        let words = content.split { $0 == " " || $0 == "\t" }.map(String.init)
        switch words.first {
        case "set":
            guard words.count == 3, book.fruits.contains(words[1]),
                  let amount = ReferenceShop.plainNumber(words[2]) else { return .invalid }
            return .set(words[1], amount: amount)
        case "stock":
            return words.count == 1 ? .stock : .invalid
        default:
            return .other
        }
    }
}
