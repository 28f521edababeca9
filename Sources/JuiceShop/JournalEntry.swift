import JuiceBook

/// One line of the shop's journal: something that happened at the counter,
/// who did it, at which till and when.
///
/// The journal is the shop's truth. Its entries are never edited or
/// deleted: the stock any till sees is the day's opening stock with the
/// day's entries applied in order (`Shop.apply`), and a correction (a void,
/// a refund) is a new entry that points at the order it corrects. Entries
/// name fruits, recipes and menu items by id, not by index, so a journal
/// still reads after the book gains or loses a fruit.
public struct JournalEntry: Sendable, Hashable, Codable {
    /// The entry's place in the journal, from 1, given by the store when it
    /// is written; 0 for an entry not yet written.
    public var sequence: Int64
    /// The shop day it belongs to, `YYYY-MM-DD`.
    public var day: String
    /// When it was written: milliseconds since 1970 UTC, from the edge's clock.
    public var time: Int64
    /// Who made it: a user's name, or `system` for the server's own entries.
    public var user: String
    /// The till it came from; free text from the client, `api` when none.
    public var till: String
    public var event: Event

    private enum CodingKeys: String, CodingKey {
        case sequence, day, time, user, till, kind
    }

    /// One flat object: the entry's fields, its `kind`, and the fields of
    /// what happened beside them (`{"sequence": 3, …, "kind": "order",
    /// "item": "kiwi-juice", …}`), as the API and the store write it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(day, forKey: .day)
        try container.encode(time, forKey: .time)
        try container.encode(user, forKey: .user)
        try container.encode(till, forKey: .till)
        try container.encode(event.kind, forKey: .kind)
        switch event {
        case .dayOpen(let stock): try stock.encode(to: encoder)
        case .order(let made): try made.encode(to: encoder)
        case .refusal(let refused): try refused.encode(to: encoder)
        case .stockChange(let change): try change.encode(to: encoder)
        case .stockSet(let set): try set.encode(to: encoder)
        case .void(let correction), .refund(let correction): try correction.encode(to: encoder)
        case .dayClose: break
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sequence = try container.decode(Int64.self, forKey: .sequence)
        day = try container.decode(String.self, forKey: .day)
        time = try container.decode(Int64.self, forKey: .time)
        user = try container.decode(String.self, forKey: .user)
        till = try container.decode(String.self, forKey: .till)
        let kind = try container.decode(String.self, forKey: .kind)
        switch kind {
        case "day-open": event = .dayOpen(try Stock(from: decoder))
        case "order": event = .order(try OrderMade(from: decoder))
        case "refusal": event = .refusal(try OrderRefused(from: decoder))
        case "stock": event = .stockChange(try StockChange(from: decoder))
        case "stock-set": event = .stockSet(try StockSet(from: decoder))
        case "void": event = .void(try Correction(from: decoder))
        case "refund": event = .refund(try Correction(from: decoder))
        case "day-close": event = .dayClose
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "unknown journal entry kind '\(kind)'")
        }
    }

    public init(sequence: Int64 = 0, day: String, time: Int64, user: String, till: String, event: Event) {
        self.sequence = sequence
        self.day = day
        self.time = time
        self.user = user
        self.till = till
        self.event = event
    }

    /// What happened.
    public enum Event: Sendable, Hashable {
        /// A shop day began with this stock.
        case dayOpen(Stock)
        /// An order was made.
        case order(OrderMade)
        /// An order was refused for want of fruit.
        case refusal(OrderRefused)
        /// A manager changed one fruit's count or one recipe's servings.
        case stockChange(StockChange)
        /// The whole stock was set at once (`juice-serve stock import`), or
        /// the book gained fruits or kept recipes and brought their opening
        /// stock: each count named replaces the one before.
        case stockSet(StockSet)
        /// An order was voided: it was not made, and what it took went back.
        case void(Correction)
        /// An order was refunded: it was made and given back; its fruit is waste.
        case refund(Correction)
        /// The day was closed; no entry may follow in it.
        case dayClose

        /// The kind's name, as the API and the store write it.
        public var kind: String {
            switch self {
            case .dayOpen: "day-open"
            case .order: "order"
            case .refusal: "refusal"
            case .stockChange: "stock"
            case .stockSet: "stock-set"
            case .void: "void"
            case .refund: "refund"
            case .dayClose: "day-close"
            }
        }
    }

    /// Fruit counts and servings on hand, by id.
    public struct Stock: Sendable, Hashable, Codable {
        public var fruit: [Count]
        public var servings: [Count]

        public init(fruit: [Count], servings: [Count]) {
            self.fruit = fruit
            self.servings = servings
        }
    }

    /// A number of something named by id: units of a fruit, servings of a recipe, batches.
    public struct Count: Sendable, Hashable, Codable {
        public var id: String
        public var count: Int

        public init(id: String, count: Int) {
            self.id = id
            self.count = count
        }
    }

    /// An order that was made: what the order plan took, and what it was paid.
    public struct OrderMade: Sendable, Hashable, Codable {
        /// The till's own id for the order, so a retried request is answered
        /// from the journal instead of ordering again.
        public var clientID: String
        public var item: String
        public var quantity: Int
        /// The price of all `quantity` orders, in the smallest currency unit; nil when the item has none.
        public var price: Int?
        /// The fruit's cost, exact, as `numerator/denominator`; nil when unknown.
        public var cost: Fraction?
        /// Fruit taken, substitutes included, in fruit order.
        public var fruit: [Count]
        /// Batches made, in recipe order.
        public var batches: [Count]
        /// Servings used, made and left, per recipe.
        public var servings: [ServingsChange]
        public var substitutions: [SubstitutionTaken]
        /// The refusal this order made good ("make now" after editing the
        /// stock): the day report then counts the two as one served order.
        public var resolves: Int64?
    }

    /// An order that was refused, and the fruit that was short.
    public struct OrderRefused: Sendable, Hashable, Codable {
        public var clientID: String
        public var item: String
        public var quantity: Int
        public var shortages: [ShortFruit]
    }

    /// One fruit an order lacked; `standsInFor` names the fruit a short substitute covered.
    public struct ShortFruit: Sendable, Hashable, Codable {
        public var fruit: String
        public var need: Int
        public var have: Int
        public var standsInFor: String?

        public init(fruit: String, need: Int, have: Int, standsInFor: String?) {
            self.fruit = fruit
            self.need = need
            self.have = have
            self.standsInFor = standsInFor
        }
    }

    /// One recipe's servings in an order.
    public struct ServingsChange: Sendable, Hashable, Codable {
        public var recipe: String
        public var used: Int
        public var made: Int
        public var left: Int
    }

    /// A substitute that stood in: `units` of `substitute` for `covered` of `fruit`.
    public struct SubstitutionTaken: Sendable, Hashable, Codable {
        public var fruit: String
        public var substitute: String
        public var units: Int
        public var covered: Int
    }

    /// One change to one fruit's count or one recipe's servings.
    public struct StockChange: Sendable, Hashable, Codable {
        /// The till's own id for the change, when it sent one, so a retried
        /// request is answered from the journal instead of changing twice.
        public var clientID: String?
        /// Whether `id` is a fruit or a recipe's servings on hand.
        public var target: Target
        public var id: String
        public var before: Int
        public var after: Int
    }

    /// Which count a stock change touches.
    public enum Target: String, Sendable, Hashable, Codable {
        case fruit, servings
    }

    /// A stock set wholesale, and why.
    public struct StockSet: Sendable, Hashable, Codable {
        public var reason: String
        public var stock: Stock

        public init(reason: String, stock: Stock) {
            self.reason = reason
            self.stock = stock
        }
    }

    /// A void or refund: the journal sequence of the order it corrects, and
    /// a copy of what it reverses (the price, the fruit and its cost), so a
    /// day's report reads a refund of an earlier day's order from its own
    /// entries.
    public struct Correction: Sendable, Hashable, Codable {
        public var order: Int64
        public var clientID: String
        public var item: String
        public var price: Int?
        public var cost: Fraction?
        public var fruit: [Count]
        /// The order's servings used and made, which a void puts back.
        public var servings: [ServingsChange]

        public init(order: Int64, made: OrderMade) {
            self.order = order
            clientID = made.clientID
            item = made.item
            price = made.price
            cost = made.cost
            fruit = made.fruit
            servings = made.servings
        }

        private enum CodingKeys: String, CodingKey {
            case order, clientID, item, price, cost, fruit, servings
        }

        /// Reads a correction; one written before corrections kept the
        /// order's servings has none, and reads as using and making none.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            order = try container.decode(Int64.self, forKey: .order)
            clientID = try container.decode(String.self, forKey: .clientID)
            item = try container.decode(String.self, forKey: .item)
            price = try container.decodeIfPresent(Int.self, forKey: .price)
            cost = try container.decodeIfPresent(Fraction.self, forKey: .cost)
            fruit = try container.decode([Count].self, forKey: .fruit)
            servings = try container.decodeIfPresent([ServingsChange].self, forKey: .servings) ?? []
        }

        /// The order as far as its stock goes: what a void undoes.
        var taken: OrderMade {
            OrderMade(clientID: clientID, item: item, quantity: 1, price: price, cost: cost, fruit: fruit, batches: [], servings: servings, substitutions: [], resolves: nil)
        }
    }

    /// An exact amount of money, as `Money` holds it.
    public struct Fraction: Sendable, Hashable, Codable {
        public var numerator: Int
        public var denominator: Int

        public init(_ money: Money) {
            numerator = money.numerator
            denominator = money.denominator
        }

        public var money: Money? { Money(numerator, over: denominator) }
    }
}
