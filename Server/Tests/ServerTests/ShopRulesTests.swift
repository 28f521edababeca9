import Foundation
import Testing
import JuiceSource
import JuiceBook
import JuiceEngine
import JuiceShop

/// The shop's rules on their own, without HTTP or a store: the canonical
/// book (10 of each fruit; kiwi-juice takes 3 kiwi, mango-kiwi-juice 2 mango
/// and 1 kiwi, strawberry-juice 16 strawberries).
func canonicalBook() throws -> RecipeBook {
    let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("recipes")
    let compilation = RecipeCompiler.compile(try RecipeSources.load(paths: [directory.path]))
    return try #require(compilation.book)
}

/// A book from YAML text.
func book(_ yaml: String) throws -> RecipeBook {
    let compilation = RecipeCompiler.compile([SourceFile(path: "book.yaml", bytes: Array(yaml.utf8))])
    return try #require(compilation.book, "\(compilation.diagnostics)")
}

/// Prices and costs for the report: kiwi-juice takes 3 kiwi at 150 and
/// sells for 900; mango-juice takes 2 mango at 250 and sells for 1000.
let pricedBook = """
    version: 2
    fruits:
      kiwi: { cost: 150 }
      mango: { cost: 250 }
    stock:
      kiwi: 10
      mango: 1
    menu:
      kiwi-juice: { price: 900, recipe: { kiwi: 3 } }
      mango-juice: { price: 1000, recipe: { mango: 2 } }
    """

/// Records events as a store would: numbered from 1, on one day.
struct Journal {
    var shop: Shop
    var entries: [JournalEntry] = []

    init(book: RecipeBook) throws {
        shop = Shop(book: book)
        try record(.dayOpen(shop.stockByID))
    }

    @discardableResult
    mutating func record(_ event: JournalEntry.Event, user: String = "anna", till: String = "t1") throws -> JournalEntry {
        let entry = JournalEntry(sequence: Int64(entries.count + 1), day: "2026-11-29", time: 0, user: user, till: till, event: event)
        try shop.apply(entry)
        entries.append(entry)
        return entry
    }
}

@Suite struct ShopRulesTests {
    @Test func anOrderTakesItsPlanAndAVoidPutsItBack() throws {
        var journal = try Journal(book: try canonicalBook())
        let kiwi = try #require(journal.shop.book.fruitIndex("kiwi"))
        let opening = journal.shop.stock
        let order = try journal.record(try journal.shop.order("kiwi-juice", quantity: 2, clientID: "c1"))
        guard case .order(let made) = order.event else { Issue.record("refused: \(order.event)"); return }
        #expect(made.fruit == [JournalEntry.Count(id: "kiwi", count: 6)])
        #expect(journal.shop.stock[kiwi] == 4)
        try journal.record(try journal.shop.void(order))
        #expect(journal.shop.stock == opening)
        #expect(throws: ShopError.alreadyCorrected(order: "c1", kind: "void")) { try journal.shop.refund(order) }
    }

    @Test func aRefusalNamesTheShortFruitAndChangesNothing() throws {
        var journal = try Journal(book: try canonicalBook())
        let before = journal.shop.stock
        let refusal = try journal.record(try journal.shop.order("strawberry-juice", quantity: 1, clientID: "c1"))
        guard case .refusal(let refused) = refusal.event else { Issue.record("made: \(refusal.event)"); return }
        #expect(refused.shortages == [JournalEntry.ShortFruit(fruit: "strawberry", need: 16, have: 10, standsInFor: nil)])
        #expect(journal.shop.stock == before)
    }

    @Test func stockNeverGoesBelowZeroOrPastTheRange() throws {
        var journal = try Journal(book: try canonicalBook())
        #expect(throws: ShopError.belowZero(id: "kiwi", before: 10, change: -11)) { try journal.shop.changeStock("kiwi", .add(-11)) }
        #expect(throws: ShopError.belowZero(id: "kiwi", before: 10, change: -1)) { try journal.shop.changeStock("kiwi", .set(-1)) }
        #expect(throws: ShopError.emptyChange(id: "kiwi", before: 10)) { try journal.shop.changeStock("kiwi", .add(0)) }
        try journal.record(try journal.shop.changeStock("kiwi", .set(Int.max)))
        #expect(throws: ShopError.tooLarge(id: "kiwi", before: Int.max)) { try journal.shop.changeStock("kiwi", .add(1)) }
        #expect(throws: ShopError.unknownStock("kiwii", suggestions: ["kiwi"])) { try journal.shop.changeStock("kiwii", .add(1)) }
    }

    @Test func anUnknownItemGetsTheNearestItems() throws {
        let journal = try Journal(book: try canonicalBook())
        #expect(throws: ShopError.unknownItem("mango", suggestions: ["mango-juice", "mango-kiwi-juice"])) {
            try journal.shop.order("mango", quantity: 1, clientID: "c1")
        }
        #expect(throws: ShopError.badQuantity(0)) { try journal.shop.order("kiwi-juice", quantity: 0, clientID: "c1") }
    }

    @Test func aClosedDayTakesNoEntries() throws {
        var journal = try Journal(book: try canonicalBook())
        try journal.record(try journal.shop.closeDay())
        #expect(throws: ShopError.noDayOpen) { try journal.shop.order("kiwi-juice", quantity: 1, clientID: "c1") }
    }

    /// The Z report, against sums written out by hand (`pricedBook`): a void
    /// takes its order out, a refund keeps it served, pays it back and
    /// counts its fruit as waste, and a refusal made good counts once.
    @Test func theDayReportCountsVoidsRefundsAndMadeGoodRefusals() throws {
        var journal = try Journal(book: try book(pricedBook))
        let first = try journal.record(try journal.shop.order("kiwi-juice", quantity: 1, clientID: "c1"), user: "anna", till: "t1")
        let second = try journal.record(try journal.shop.order("kiwi-juice", quantity: 1, clientID: "c2"), user: "sam", till: "t2")
        let refusal = try journal.record(try journal.shop.order("mango-juice", quantity: 1, clientID: "c3"), user: "sam", till: "t2")
        try journal.record(try journal.shop.changeStock("mango", .set(2)))
        try journal.record(try journal.shop.order("mango-juice", quantity: 1, clientID: "c4", resolves: refusal.sequence), user: "sam", till: "t2")
        try journal.record(try journal.shop.void(first))
        try journal.record(try journal.shop.refund(second))
        let report = DayReport(day: "2026-11-29", entries: journal.entries, closingStock: journal.shop.stockByID)
        #expect(report.total.orders == 3)
        #expect(report.total.served == 2)
        #expect(report.total.refused == 0)
        #expect(report.total.voided == 1)
        #expect(report.total.refunded == 1)
        // Served: kiwi (refunded) 900 − 900, mango 1000.
        #expect(report.total.revenue == Money(1000))
        // Fruit used: the refunded kiwi-juice's 3 × 150 and the mango-juice's 2 × 250.
        #expect(report.total.fruitCost == Money(950))
        #expect(report.total.wasteCost == Money(450))
        #expect(report.total.grossMargin == Money(50))
        #expect(report.waste == [JournalEntry.Count(id: "kiwi", count: 3)])
        #expect(report.tills.map(\.name) == ["t1", "t2"])
        #expect(report.users.first { $0.name == "sam" }?.figures.served == 2)
        #expect(report.users.first { $0.name == "anna" }?.figures.voided == 1)
        #expect(report.closingStock?.fruit == [JournalEntry.Count(id: "kiwi", count: 7), JournalEntry.Count(id: "mango", count: 0)])
    }
}
