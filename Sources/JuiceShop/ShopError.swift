/// Why the shop refused to do something: the one list of the shop's "no"s,
/// each with a stable code that the web API sends and a message for people.
///
/// An order refused for want of fruit is not an error: it is a journal entry
/// (`JournalEntry.OrderRefused`). These are requests the shop cannot take at all.
public enum ShopError: Error, Sendable, Hashable {
    /// No menu item has this id (or label); `suggestions` are the nearest ones.
    case unknownItem(String, suggestions: [String])
    /// A quantity below 1 or above the most one order may ask.
    case badQuantity(Int)
    /// No fruit or kept recipe has this id.
    case unknownStock(String, suggestions: [String])
    /// The change would leave `id` below zero.
    case belowZero(id: String, before: Int, change: Int)
    /// The change would take `id` past what an integer holds.
    case tooLarge(id: String, before: Int)
    /// An add or take of zero, which changes nothing.
    case emptyChange(id: String, before: Int)
    /// No shop day is open (before the first, or after the last was closed).
    case noDayOpen
    /// The day the entry names is closed, or is not the open one.
    case dayClosed(String)
    /// The order to void or refund does not exist.
    case unknownOrder(String)
    /// The order was already voided or refunded (`kind`).
    case alreadyCorrected(order: String, kind: String)
    /// A void of an order from a day other than the open one: its fruit went into that day's stock.
    case voidOutsideDay(order: String, day: String)
    /// Putting the order's plan back would leave servings below zero: later
    /// orders used the servings its batches made.
    case servingsSinceUsed(order: String, recipe: String)
    /// The journal entry does not fit the shop's state: a replay of a journal
    /// written by another book, or a broken store.
    case inconsistentJournal(String)

    /// The stable code the API sends (`{"error": {"code", "message"}}`).
    public var code: String {
        switch self {
        case .unknownItem: "unknown-item"
        case .badQuantity: "bad-quantity"
        case .unknownStock: "unknown-stock"
        case .belowZero: "stock-below-zero"
        case .tooLarge: "stock-too-large"
        case .emptyChange: "empty-change"
        case .noDayOpen: "no-day-open"
        case .dayClosed: "day-closed"
        case .unknownOrder: "unknown-order"
        case .alreadyCorrected: "already-corrected"
        case .voidOutsideDay: "void-outside-day"
        case .servingsSinceUsed: "servings-since-used"
        case .inconsistentJournal: "inconsistent-journal"
        }
    }

    /// A sentence for the person at the till.
    public var message: String {
        switch self {
        case .unknownItem(let name, let suggestions):
            suggestions.isEmpty
                ? "no menu item is called '\(name)'"
                : "no menu item is called '\(name)'; did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))?"
        case .badQuantity(let quantity):
            "the quantity must be a whole number from 1 to \(Shop.maxQuantity), not \(quantity)"
        case .unknownStock(let name, let suggestions):
            suggestions.isEmpty
                ? "no fruit or kept recipe is called '\(name)'"
                : "no fruit or kept recipe is called '\(name)'; did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))?"
        case .belowZero(let id, let before, let change):
            "stock can never go below 0: \(id) has \(before), and the change is \(change)"
        case .tooLarge(let id, let before):
            "\(id) cannot hold more than \(Int.max); it stays at \(before)"
        case .emptyChange(let id, let before):
            "add or take at least 1; \(id) stays at \(before)"
        case .noDayOpen:
            "no shop day is open"
        case .dayClosed(let day):
            "the day \(day) is closed and takes no more entries"
        case .unknownOrder(let id):
            "no order has the id '\(id)'"
        case .alreadyCorrected(let order, let kind):
            "the order '\(order)' was already \(kind == "void" ? "voided" : "refunded")"
        case .voidOutsideDay(let order, let day):
            "the order '\(order)' belongs to \(day), a closed day; refund it instead"
        case .servingsSinceUsed(let order, let recipe):
            "the order '\(order)' cannot be voided: later orders used the \(recipe) servings its batches made; refund it instead"
        case .inconsistentJournal(let why):
            "the journal does not fit the book: \(why)"
        }
    }
}
