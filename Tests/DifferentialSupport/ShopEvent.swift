/// One thing a run reports, in the reference model's terms (ids, not indices),
/// so the engine's events and the model's compare as plain values, in order.
package enum ShopEvent: Sendable, Hashable, CustomStringConvertible {
    case order(OrderRecord)
    /// A restock that was applied: how much came in and the count after it.
    case restock(line: Int, fruit: String, amount: Int, stock: Int)
    /// `set FRUIT N`, and the count after it.
    case set(line: Int, fruit: String, stock: Int)
    /// `stock`: every fruit's count at that point.
    case stock(line: Int, counts: [String: Int])
    /// A line that was not a valid command.
    case skipped(line: Int)

    package var line: Int {
        switch self {
        case .order(let record): return record.line
        case .restock(let line, _, _, _), .set(let line, _, _), .stock(let line, _), .skipped(let line): return line
        }
    }

    package var description: String {
        switch self {
        case .order(let record):
            return record.description
        case .restock(let line, let fruit, let amount, let stock):
            return "line \(line) restock \(fruit) +\(amount) -> \(stock)"
        case .set(let line, let fruit, let stock):
            return "line \(line) set \(fruit) -> \(stock)"
        case .stock(let line, let counts):
            return "line \(line) stock \(Self.describe(counts))"
        case .skipped(let line):
            return "line \(line) skipped"
        }
    }

    /// `{apple: 3, kiwi: 0}`, sorted by id so the text does not depend on hashing.
    package static func describe(_ counts: [String: Int]) -> String {
        "{" + counts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
    }
}

/// A whole script run by the model: every event in order, and the final stock.
package struct ModelRun: Sendable {
    package var events: [ShopEvent] = []
    package var finalStock: [String: Int] = [:]

    package init(events: [ShopEvent] = [], finalStock: [String: Int] = [:]) {
        self.events = events
        self.finalStock = finalStock
    }
}
