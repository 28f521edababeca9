@_spi(Internals) import JuiceSupport
import JuiceBook
import JuiceEngine

/// `juice-run menu`: for each menu item its price, cost per serving, margin,
/// margin as a share of the price, how many the opening stock makes one
/// after another (leftovers included), and the fruit that runs out first.
///
/// Figures are exact until printed (`Money`), then rounded once to two
/// places; one that cannot be known (no price, a fruit with no cost) is
/// `unknown` in text and `null` in JSON, never 0. One past what `Money`
/// holds is `too large to count` in text (`CostFigure`), and `null` in JSON.
public struct MenuCard: Sendable {
    public struct Row: Sendable, Hashable {
        public let menu: Int
        public let price: Int?
        public let cost: CostFigure
        public let margin: CostFigure
        /// Margin ÷ price × 100; unknown without a price, or with a price of 0.
        public let marginPercent: CostFigure
        public let capacity: Int
        public let limitedBy: Int?
        /// The fruits it uses that substitutes may stand in for, in fruit
        /// order: its cost is still the cost of the fruit its recipe names.
        public let substitutable: [Int]
    }

    public let book: RecipeBook
    public let rows: [Row]

    /// The card of `book` from `stock` (the opening stock by default).
    public init(book: RecipeBook, stock: FruitStore? = nil) {
        self.book = book
        let capacity = Capacity.of(book, stock: stock ?? FruitStore(book: book))
        let costs = CostTable(book: book)
        rows = book.menu.indices.map { index in
            let item = book.menu[index]
            let cost = costs?.menuCost(index) ?? .unknown
            let margin = item.price.map { price in cost.map { Money(price).subtracting($0) } } ?? .unknown
            let percent = item.price.flatMap { price in price > 0 ? margin.map { $0.multiplied(by: 100).flatMap { $0.divided(by: price) } } : nil }
                ?? .unknown
            let substitutable = book.declaresSubstitutes
                ? (Capacity.need(of: .menuItem(index), in: book) ?? []).map(\.fruit).filter { !book.fruits[$0].substitutes.isEmpty }
                : []
            return Row(
                menu: index, price: item.price, cost: cost, margin: margin, marginPercent: percent,
                capacity: capacity[index].count, limitedBy: capacity[index].limitingFruit, substitutable: substitutable
            )
        }
    }

    /// The card as a table for people.
    public func text() -> [String] {
        let header = ["menu item", "price", "cost", "margin", "margin %", "capacity", "limited by"]
        let cells = rows.map { row -> [String] in
            [
                TextSimulationReporter.name(book.menu[row.menu]), row.price.map(String.init) ?? "none",
                row.cost.text(), row.margin.text(),
                row.marginPercent.money.map { $0.description + "%" } ?? row.marginPercent.text(), String(row.capacity),
                row.limitedBy.map { book.fruits[$0].id } ?? "-",
            ]
        }
        let table = TextTable.lines([header] + cells, rightAligned: [1, 2, 3, 4, 5])
        let notes = rows.filter { !$0.substitutable.isEmpty }.map { row in
            "  \(book.menu[row.menu].id): " + row.substitutable.map { book.fruits[$0].id }.joined(separator: ", ")
        }
        guard !notes.isEmpty else { return table }
        return table + ["", "substitutes may stand in for (costs are for the fruit the recipes name; capacity counts the substitutes):"] + notes
    }

    /// One JSON object per menu item, in menu order.
    public func jsonLines() -> [String] {
        rows.map { row in
            var json = JSONWriter()
            json.beginObject()
            json.field("id", book.menu[row.menu].id)
            json.field("label", book.menu[row.menu].label)
            json.key("price")
            if let price = row.price { json.number(String(price)) } else { json.null() }
            for (key, value) in [("cost", row.cost), ("margin", row.margin), ("marginPercent", row.marginPercent)] {
                json.key(key)
                if let value = value.money { json.number(value.description) } else { json.null() }
            }
            json.field("capacity", row.capacity)
            json.field("limitedBy", row.limitedBy.map { book.fruits[$0].id })
            if book.declaresSubstitutes {
                json.key("substitutable")
                json.beginArray()
                for fruit in row.substitutable { json.string(book.fruits[fruit].id) }
                json.endArray()
            }
            json.endObject()
            return json.output
        }
    }

    /// A header row and one row per menu item; unknown figures are empty.
    public func csv() -> [String] {
        let header = ["id", "label", "price", "cost", "margin", "marginPercent", "capacity", "limitedBy"]
        return [CSV.row(header)] + rows.map { row in
            CSV.row([
                book.menu[row.menu].id, book.menu[row.menu].label, row.price.map(String.init) ?? "",
                row.cost.money?.description ?? "", row.margin.money?.description ?? "", row.marginPercent.money?.description ?? "",
                String(row.capacity), row.limitedBy.map { book.fruits[$0].id } ?? "",
            ])
        }
    }
}

/// RFC 4180 rows: a field with a comma, quote or line break is quoted, its
/// quotes doubled.
enum CSV {
    static func row(_ fields: [String]) -> String {
        fields.map { field in
            field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                ? "\"" + field.reduce(into: "") { $0 += $1 == "\"" ? "\"\"" : String($1) } + "\"" : field
        }.joined(separator: ",")
    }
}
