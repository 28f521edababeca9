import Testing
@testable import JuiceBook
@testable import JuiceShop
@testable import JuiceSimulation

/// `juice-run plan --history`'s estimate (`DemandHistory`): what counts as
/// demand, the exact interval, weekdays and the plan's dates. The whole
/// command is held to exports written by an independent writer in
/// Tests/Reference/test_plan_history.py.
struct DemandHistoryTests {
    static func book() throws -> RecipeBook {
        try VersionTwoTests.book("""
            version: 2
            fruits:
              kiwi: { cost: 100, restock: { up-to: 10 } }
            menu:
              kiwi-juice: { price: 500, recipe: { kiwi: 1 } }
              double-kiwi: { price: 900, recipe: { kiwi: 2 } }
            """)
    }

    /// A small journal: `events` by day, numbered from 1 in order.
    static func entries(_ days: [(String, [JournalEntry.Event])], shop: String = "main") -> [JournalExport.ExportedEntry] {
        var sequence: Int64 = 0
        var entries: [JournalExport.ExportedEntry] = []
        for (day, events) in days {
            for event in events {
                sequence += 1
                let entry = JournalEntry(sequence: sequence, day: day, time: sequence, user: "anna", till: "front", event: event)
                entries.append(.init(shop: shop, entry: entry, line: Int(sequence)))
            }
        }
        return entries
    }

    static let open = JournalEntry.Event.dayOpen(.init(fruit: [], servings: []))

    static func order(_ item: String, _ quantity: Int = 1, resolves: Int64? = nil) -> JournalEntry.Event {
        .order(.init(clientID: "c", item: item, quantity: quantity, price: nil, cost: nil, fruit: [], batches: [], servings: [], substitutions: [], resolves: resolves))
    }

    static func refusal(_ item: String, _ quantity: Int = 1) -> JournalEntry.Event {
        .refusal(.init(clientID: "c", item: item, quantity: quantity, shortages: []))
    }

    static func void(_ order: Int64, _ item: String) -> JournalEntry.Event {
        .void(JournalEntry.Correction(order: order, made: .init(clientID: "c", item: item, quantity: 1, price: nil, cost: nil, fruit: [], batches: [], servings: [], substitutions: [], resolves: nil)))
    }

    @Test func demandCountsOrdersAndRefusalsOnceAndLeavesVoidsOut() throws {
        let entries = Self.entries([
            ("2026-03-02", [
                Self.open,                               // 1
                Self.order("kiwi-juice", 2),             // 2: counts 2
                Self.order("kiwi-juice", 5),             // 3: voided below
                Self.void(3, "kiwi-juice"),              // 4
                Self.refusal("double-kiwi", 1),          // 5: made good by 6
                Self.order("double-kiwi", 1, resolves: 5), // 6: counts 1
                Self.refusal("kiwi-juice", 3),           // 7: counts 3
                Self.order("mango-juice"),               // 8: not on the menu
            ]),
            ("2026-03-03", [Self.open]),
            ("2026-03-05", [Self.order("kiwi-juice", 9)]),  // no day-open that day
        ])
        let history = try DemandHistory(entries: entries, book: try Self.book(), shop: nil, start: nil)
        #expect(history.days == 2 && !history.perWeekday)
        #expect(history.estimates[0].map(\.units) == [5, 1])
        #expect(history.estimates[0].map(\.mean) == [2.5, 0.5])
        #expect(history.unknownItems == ["mango-juice"])
        #expect(history.unseenItems == [])
        #expect(history.entriesOutsideDays == 1)
        #expect(JournalExport.dayText(history.start) == "2026-03-04")
    }

    @Test func theIntervalIsTheExactPoissonOne() {
        // χ² quantiles from tables: χ²(0.025; 20) = 9.590777, χ²(0.975; 22) = 36.780712.
        let ten = DemandHistory.poissonInterval(total: 10, days: 1)
        #expect(abs(ten.low - 9.590777 / 2) < 1e-5 && abs(ten.high - 36.780712 / 2) < 1e-5)
        // No event: [0, −ln(0.025)] over the days.
        let none = DemandHistory.poissonInterval(total: 0, days: 4)
        #expect(none.low == 0 && abs(none.high - 3.688879 / 4) < 1e-6)
        // One event: the low end solves P(X ≥ 1) = 0.025, −ln(0.975).
        #expect(abs(DemandHistory.poissonInterval(total: 1, days: 1).low - 0.0253178) < 1e-6)
        // Past the exact method's range, Wilson–Hilferty, still around the mean.
        let large = DemandHistory.poissonInterval(total: 10_000_000, days: 10)
        #expect(large.low < 1_000_000 && large.high > 1_000_000 && large.high - large.low < 1_300)
        // Never negative, never a trap, whatever the count.
        for total in [0, 1, 2, 99_999, 100_000, 100_001, Int.max] {
            let interval = DemandHistory.poissonInterval(total: total, days: 1)
            #expect(interval.low >= 0 && interval.low <= interval.high, "\(total)")
        }
    }

    @Test func fourWeeksGiveMeansPerWeekday() throws {
        // 2026-01-05 is a Monday; Sundays sell 7, other days 0.
        let monday = try #require(JournalExport.dayNumber("2026-01-05"))
        let days = (0..<28).map { offset -> (String, [JournalEntry.Event]) in
            let day = JournalExport.dayText(monday + Int64(offset))
            return (day, offset % 7 == 6 ? [Self.open, Self.order("kiwi-juice", 7)] : [Self.open])
        }
        let history = try DemandHistory(entries: Self.entries(days), book: try Self.book(), shop: nil, start: nil)
        #expect(history.perWeekday && history.estimates.count == 7)
        #expect(history.estimates.map { $0[0].mean } == [0, 0, 0, 0, 0, 0, 7])
        #expect(history.estimates.allSatisfy { $0[0].days == 4 })
        #expect(JournalExport.dayText(history.start) == "2026-02-02" && history.profile(ofPlanDay: 1) == 0 && history.profile(ofPlanDay: 7) == 6)
        let fewer = try DemandHistory(entries: Self.entries(Array(days.dropLast())), book: try Self.book(), shop: nil, start: nil)
        #expect(!fewer.perWeekday && fewer.estimates.count == 1 && fewer.estimates[0][0].mean == 21.0 / 27)

        // A plan that starts on a Monday sees no order for six days; Sunday's are Poisson(7).
        var settings = PlanSettings()
        settings.days = 6
        settings.seed = 5
        settings.history = history
        #expect(try PlanRun(book: try Self.book(), settings: settings).run(1).orders == 0)
        settings.days = 7
        let week = try (1...200).map { try PlanRun(book: try Self.book(), settings: settings).run($0).orders }
        #expect(abs(Double(week.reduce(0, +)) / 200 - 7) < 1)
    }

    @Test func problemsAreNamed() throws {
        let book = try Self.book()
        func problem(_ entries: [JournalExport.ExportedEntry], shop: String? = nil) -> String? {
            do {
                _ = try DemandHistory(entries: entries, book: book, shop: shop, start: nil)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(problem(Self.entries([("2026-03-02", [Self.order("kiwi-juice")])])) == "shop 'main' has no day-open entry in it, so no day to learn from")
        #expect(problem(Self.entries([("2026-02-30", [Self.open])])) == "line 1: the day '2026-02-30' is not a date written YYYY-MM-DD")
        #expect(problem(Self.entries([("2026-03-02", [Self.open, Self.order("kiwi-juice", 0)])])) == "line 2: the quantity 0 is not a positive count")
        #expect(problem(Self.entries([("2026-03-02", [Self.open, Self.order("kiwi-juice", 2_000_000)])]))?.hasSuffix("is more than the planner's 1000000") == true)
        let two = Self.entries([("2026-03-02", [Self.open])], shop: "b") + Self.entries([("2026-03-02", [Self.open])], shop: "a")
        #expect(problem(two) == "it holds several shops ('a', 'b')\n  help: choose one with --history-shop NAME")
        #expect(problem(two, shop: "c") == "it holds no shop 'c'; it holds 'a', 'b'")
        #expect(problem(two, shop: "a") == nil)
    }

    @Test func datesAreReadStrictly() {
        #expect(JournalExport.dayNumber("1970-01-01") == 0)
        #expect(JournalExport.dayNumber("2024-02-29") != nil)
        for bad in ["2023-02-29", "2026-13-01", "2026-00-10", "2026-1-01", "26-01-01x", "", "２０２６-01-01", "2026-01-32"] {
            #expect(JournalExport.dayNumber(bad) == nil, "\(bad)")
        }
        #expect(JournalExport.weekday(0) == 3)  // a Thursday
    }
}
