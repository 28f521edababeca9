@_spi(Internals) import JuiceSupport
import JuiceBook
import JuiceEngine

/// The shop's rules at the counter: order, refuse, edit the stock, make now,
/// void, refund and close the day. The terminal counter (`juice-run
/// --interactive`) and the web counter (`juice-serve`) both ask this type,
/// so neither keeps its own copy of a rule.
///
/// Every rule is two steps. A question (`order`, `changeStock`, `void`,
/// `refund`, `closeDay`) reads the state and answers with the journal event
/// to record, or a `ShopError`; it changes nothing. `apply` then takes a
/// written entry and changes the state. The store writes the entry durably
/// between the two, so the state is always the journal replayed: a server
/// that restarts rebuilds it by applying the day's entries in order, through
/// the same `apply`.
///
/// What an order takes is the engine's answer (`OrderPlanner.plan`); this
/// type only records it. No I/O, no clock and no threads: the edge passes
/// the day and the time in.
public struct Shop: Sendable {
    /// The most orders one request may ask for at once.
    public static let maxQuantity = 1_000

    public let book: RecipeBook
    public let planner: OrderPlanner
    /// The stock now: the open day's opening stock with its entries applied.
    public private(set) var stock: FruitStore
    /// The open shop day, `YYYY-MM-DD`; nil before the first day opens and
    /// after a day is closed until the next one opens.
    public private(set) var openDay: String?
    /// The last day that was opened, closed or not.
    public private(set) var lastDay: String?
    /// Orders (of any day seen) already voided or refunded, with the kind.
    public private(set) var corrected: [Int64: String] = [:]
    /// The sequence of the last entry applied.
    public private(set) var lastSequence: Int64 = 0

    private let itemNames: [String: Int]
    private let stockNames: [String: (target: JournalEntry.Target, index: Int)]
    private let menuSearch: MenuSearch
    private let stockSuggestions: SuggestionIndex

    /// A shop selling from `book`, with the book's opening stock and no day open.
    public init(book: RecipeBook) {
        self.book = book
        planner = OrderPlanner(book: book)
        stock = FruitStore(book: book)
        var items: [String: Int] = [:]
        for (index, item) in book.menu.enumerated() where items[item.id] == nil { items[item.id] = index }
        for (index, item) in book.menu.enumerated() where items[item.label] == nil { items[item.label] = index }
        itemNames = items
        var names: [String: (JournalEntry.Target, Int)] = [:]
        for (index, fruit) in book.fruits.enumerated() where names[fruit.id] == nil { names[fruit.id] = (.fruit, index) }
        for (index, fruit) in book.fruits.enumerated() where names[fruit.label] == nil { names[fruit.label] = (.fruit, index) }
        if book.keepsServings {
            for (index, recipe) in book.recipes.enumerated() where names[recipe.id] == nil { names[recipe.id] = (.servings, index) }
        }
        stockNames = names
        menuSearch = MenuSearch(book: book)
        stockSuggestions = SuggestionIndex(Array(names.keys).sorted())
    }

    // MARK: Reading

    /// The menu item an id or label names.
    public func menuIndex(named name: String) -> Int? { itemNames[name] }

    /// The nearest menu items to a name that names none, by id (`MenuSearch`).
    public func suggestions(forItem name: String) -> [String] {
        menuSearch.matches(for: name).map { book.menu[$0].id }
    }

    /// The fruit, or the kept recipe, that an id or label names.
    public func stockTarget(named name: String) -> (target: JournalEntry.Target, index: Int)? { stockNames[name] }

    /// The stock as ids and counts: each fruit, and each recipe's servings on hand.
    public var stockByID: JournalEntry.Stock { Self.stock(stock, of: book) }

    /// `store` as ids and counts, in book order.
    public static func stock(_ store: FruitStore, of book: RecipeBook) -> JournalEntry.Stock {
        JournalEntry.Stock(
            fruit: book.fruits.indices.map { JournalEntry.Count(id: book.fruits[$0].id, count: store[$0]) },
            servings: book.keepsServings
                ? book.recipes.indices.map { JournalEntry.Count(id: book.recipes[$0].id, count: store.servings.indices.contains($0) ? store.servings[$0] : 0) }
                : []
        )
    }

    /// Each menu item's state at the counter.
    public struct ItemStatus: Sendable, Hashable {
        public let menu: Int
        /// How many could be made one after another from the stock now.
        public let capacity: Int
        /// The fruit that runs out first, when there is one.
        public let limitingFruit: String?
        public var isSoldOut: Bool { capacity == 0 }
    }

    /// Every menu item's capacity on the stock now, in menu order (`Capacity`).
    public var menuStatus: [ItemStatus] {
        Capacity.of(book, stock: stock).map { row in
            ItemStatus(menu: row.menu, capacity: row.count, limitingFruit: row.limitingFruit.map { book.fruits[$0].id })
        }
    }

    // MARK: Questions: what to record

    /// The day-open entry's event for a new day, with the stock now.
    public func openDayEvent() -> JournalEntry.Event { .dayOpen(stockByID) }

    /// Orders `quantity` of the item `name` (an id or a label): the engine
    /// plans all of them at once on the stock now, all or nothing, and the
    /// answer is the made order's event or the refusal's, naming each short
    /// fruit and each substitute that ran short.
    ///
    /// - Parameter resolves: a refusal this order makes good ("make now").
    public func order(_ name: String, quantity: Int, clientID: String, resolves: Int64? = nil) throws(ShopError) -> JournalEntry.Event {
        guard openDay != nil else { throw .noDayOpen }
        guard let menu = itemNames[name] else { throw .unknownItem(name, suggestions: suggestions(forItem: name)) }
        guard quantity >= 1, quantity <= Self.maxQuantity else { throw .badQuantity(quantity) }
        let plan = planner.plan(menu, times: quantity, against: stock)
        let item = book.menu[menu]
        guard plan.isServable else {
            return .refusal(JournalEntry.OrderRefused(
                clientID: clientID, item: item.id, quantity: quantity,
                shortages: plan.shortages.map {
                    JournalEntry.ShortFruit(fruit: book.fruits[$0.fruit].id, need: $0.need, have: $0.have, standsInFor: $0.standsInFor.map { book.fruits[$0].id })
                }
            ))
        }
        var price: Int?
        if let each = item.price {
            let (total, overflow) = each.multipliedReportingOverflow(by: quantity)
            // A price too large to multiply cannot be charged; the order is
            // still made, and its price is unknown rather than wrong.
            price = overflow ? nil : total
        }
        return .order(JournalEntry.OrderMade(
            clientID: clientID, item: item.id, quantity: quantity, price: price,
            cost: plan.cost.map(JournalEntry.Fraction.init),
            fruit: plan.fruit.filter { $0.amount > 0 }.map { JournalEntry.Count(id: book.fruits[$0.fruit].id, count: $0.amount) },
            batches: plan.batches.map { JournalEntry.Count(id: book.recipes[$0.recipe].id, count: $0.count) },
            servings: plan.servings.map { JournalEntry.ServingsChange(recipe: book.recipes[$0.recipe].id, used: $0.used, made: $0.made, left: $0.left) },
            substitutions: plan.substitutions.map {
                JournalEntry.SubstitutionTaken(fruit: book.fruits[$0.fruit].id, substitute: book.fruits[$0.substitute].id, units: $0.units, covered: $0.covered)
            },
            resolves: resolves
        ))
    }

    /// How a stock change is asked for.
    public enum StockEdit: Sendable, Hashable {
        /// Add this many (a negative number takes).
        case add(Int)
        /// Set to this count.
        case set(Int)
    }

    /// Changes one fruit's count or one kept recipe's servings (by id or
    /// label). Stock never goes below 0 and never past `Int.max`; a change
    /// of nothing is refused, so every entry says something happened.
    public func changeStock(_ name: String, _ edit: StockEdit, clientID: String? = nil) throws(ShopError) -> JournalEntry.Event {
        guard openDay != nil else { throw .noDayOpen }
        guard let (target, index) = stockNames[name] else {
            let suggestion = stockSuggestions.closest(to: name)
            throw .unknownStock(name, suggestions: suggestion.map { [$0] } ?? [])
        }
        let id = target == .fruit ? book.fruits[index].id : book.recipes[index].id
        let before = target == .fruit ? stock[index] : (stock.servings.indices.contains(index) ? stock.servings[index] : 0)
        let after: Int
        switch edit {
        case .set(let value):
            guard value >= 0 else { throw .belowZero(id: id, before: before, change: value) }
            after = value
        case .add(let amount):
            guard amount != 0 else { throw .emptyChange(id: id, before: before) }
            let (sum, overflow) = before.addingReportingOverflow(amount)
            if overflow { throw amount > 0 ? .tooLarge(id: id, before: before) : .belowZero(id: id, before: before, change: amount) }
            guard sum >= 0 else { throw .belowZero(id: id, before: before, change: amount) }
            after = sum
        }
        return .stockChange(JournalEntry.StockChange(clientID: clientID, target: target, id: id, before: before, after: after))
    }

    /// Voids a made order of the open day: it was not made, so its plan is
    /// put back exactly (fruit returned, servings its batches made taken
    /// away again). At most once per order.
    ///
    /// - Parameters:
    ///   - order: the order's entry, from the store.
    ///   - correctedBy: the kind of an earlier void or refund of it the store knows of.
    public func void(_ order: JournalEntry, correctedBy: String? = nil) throws(ShopError) -> JournalEntry.Event {
        let made = try correctable(order, correctedBy: correctedBy)
        guard order.day == openDay else { throw .voidOutsideDay(order: made.clientID, day: order.day) }
        var next = stock
        try Self.undo(made, in: &next, book: book)
        return .void(JournalEntry.Correction(order: order.sequence, made: made))
    }

    /// Refunds a made order of any day: it was made and given back, so its
    /// price is paid back and its fruit, which does not return, is waste.
    public func refund(_ order: JournalEntry, correctedBy: String? = nil) throws(ShopError) -> JournalEntry.Event {
        let made = try correctable(order, correctedBy: correctedBy)
        return .refund(JournalEntry.Correction(order: order.sequence, made: made))
    }

    private func correctable(_ order: JournalEntry, correctedBy: String?) throws(ShopError) -> JournalEntry.OrderMade {
        guard openDay != nil else { throw .noDayOpen }
        guard case .order(let made) = order.event else { throw .unknownOrder(String(order.sequence)) }
        if let kind = correctedBy ?? corrected[order.sequence] { throw .alreadyCorrected(order: made.clientID, kind: kind) }
        return made
    }

    /// Closes the open day.
    public func closeDay() throws(ShopError) -> JournalEntry.Event {
        guard openDay != nil else { throw .noDayOpen }
        return .dayClose
    }

    /// Sets the whole stock from `imported`: each fruit and kept recipe it
    /// names takes its count; those it leaves out keep theirs. Ids the book
    /// does not know are refused.
    public func setStock(_ imported: JournalEntry.Stock, reason: String) throws(ShopError) -> JournalEntry.Event {
        guard openDay != nil else { throw .noDayOpen }
        for count in imported.fruit {
            guard book.fruitIndex(count.id) != nil else { throw .unknownStock(count.id, suggestions: []) }
            guard count.count >= 0 else { throw .belowZero(id: count.id, before: 0, change: count.count) }
        }
        for count in imported.servings {
            guard book.keepsServings, book.recipeIndex(count.id) != nil else { throw .unknownStock(count.id, suggestions: []) }
            guard count.count >= 0 else { throw .belowZero(id: count.id, before: 0, change: count.count) }
        }
        return .stockSet(JournalEntry.StockSet(reason: reason, stock: imported))
    }

    // MARK: Applying written entries

    /// Applies a written entry: the only way the state changes. Replaying a
    /// journal is applying its entries in order. An entry that does not fit
    /// (an order the stock cannot serve, a day that is closed) throws and
    /// changes nothing.
    ///
    /// It changes the state in place, each step checked before anything
    /// moves: copying the whole shop for every entry made a day of orders
    /// quadratic (the server went from about 1,200 orders a second to
    /// fewer as the day grew).
    ///
    /// Ids the book does not know are skipped: a journal outlives a book
    /// that drops a fruit.
    public mutating func apply(_ entry: JournalEntry) throws(ShopError) {
        if case .dayOpen(let opening) = entry.event {
            guard openDay == nil else { throw .inconsistentJournal("day \(entry.day) opens while \(openDay ?? "") is open") }
            Self.set(&stock, to: opening, book: book)
            openDay = entry.day
            lastDay = entry.day
            lastSequence = max(lastSequence, entry.sequence)
            return
        }
        guard let openDay else { throw .noDayOpen }
        guard entry.day == openDay else { throw .dayClosed(entry.day) }
        switch entry.event {
        case .dayOpen, .refusal:
            break
        case .order(let made):
            try Self.take(made, from: &stock, book: book)
        case .stockChange(let change):
            guard change.after >= 0 else { throw .belowZero(id: change.id, before: change.before, change: change.after) }
            switch change.target {
            case .fruit:
                if let index = book.fruitIndex(change.id) { try? stock.set(index, to: change.after) }
            case .servings:
                if let index = book.recipeIndex(change.id) { try? stock.set(recipe: index, to: change.after) }
            }
        case .stockSet(let set):
            Self.set(&stock, to: set.stock, book: book)
        case .void(let correction):
            guard corrected[correction.order] == nil else { throw .alreadyCorrected(order: correction.clientID, kind: "void") }
            try Self.undo(correction.taken, in: &stock, book: book)
            corrected[correction.order] = "void"
        case .refund(let correction):
            guard corrected[correction.order] == nil else { throw .alreadyCorrected(order: correction.clientID, kind: "refund") }
            corrected[correction.order] = "refund"
        case .dayClose:
            self.openDay = nil
        }
        lastSequence = max(lastSequence, entry.sequence)
    }

    private static func set(_ store: inout FruitStore, to stock: JournalEntry.Stock, book: RecipeBook) {
        for count in stock.fruit {
            if let index = book.fruitIndex(count.id) { try? store.set(index, to: max(0, count.count)) }
        }
        for count in stock.servings {
            if let index = book.recipeIndex(count.id) { try? store.set(recipe: index, to: max(0, count.count)) }
        }
    }

    /// A recorded order read back as the engine's plan, by index; what the
    /// book no longer knows is left out.
    private static func plan(of made: JournalEntry.OrderMade, book: RecipeBook) -> OrderPlan {
        OrderPlan(
            recorded: book.menuIndex(made.item) ?? 0, times: made.quantity,
            fruit: made.fruit.compactMap { taken in book.fruitIndex(taken.id).map { RecipeBook.FruitAmount(fruit: $0, amount: taken.count) } },
            batches: made.batches.compactMap { batch in book.recipeIndex(batch.id).map { OrderPlan.Batch(recipe: $0, count: batch.count) } },
            servings: made.servings.compactMap { change in book.recipeIndex(change.recipe).map { ($0, change.used, change.made) } },
            substitutions: [], cost: nil)
    }

    /// Takes what a made order took (`FruitStore.apply`).
    private static func take(_ made: JournalEntry.OrderMade, from store: inout FruitStore, book: RecipeBook) throws(ShopError) {
        do { try store.apply(plan(of: made, book: book)) } catch {
            throw .inconsistentJournal("the stock cannot give what order '\(made.clientID)' took")
        }
    }

    /// Puts back exactly what `take` took (`FruitStore.undo`).
    private static func undo(_ made: JournalEntry.OrderMade, in store: inout FruitStore, book: RecipeBook) throws(ShopError) {
        do { try store.undo(plan(of: made, book: book)) } catch {
            switch error {
            case .notEnough:
                let recipe = made.servings.first { $0.made > 0 }?.recipe ?? ""
                throw .servingsSinceUsed(order: made.clientID, recipe: recipe)
            default:
                throw .tooLarge(id: made.item, before: 0)
            }
        }
    }
}

extension Shop {
    /// Whether one order of a menu item can be made from the stock now (the engine's plan).
    public func canMake(_ menu: Int) -> Bool {
        book.menu.indices.contains(menu) && planner.plan(menu, against: stock).isServable
    }
}
