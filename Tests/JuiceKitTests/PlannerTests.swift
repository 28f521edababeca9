import Foundation
import Testing
@testable import JuiceBook
@testable import JuiceSimulation
@testable import JuiceCommandLine

/// `juice-run plan`'s core against closed forms (docs/planning.md); the
/// independent reference model in Tests/Reference holds the whole command
/// to random books.
struct PlannerTests {
    static func settings(days: Int, runs: Int, orders: Int, demand: DemandStream.Demand = .fixed, seed: UInt64 = 1) -> PlanSettings {
        var settings = PlanSettings()
        settings.days = days
        settings.runs = runs
        settings.ordersPerDay = orders
        settings.demand = demand
        settings.seed = seed
        return settings
    }

    /// One item taking 2 mango; 3 orders a day; bought each morning up to
    /// 10 in packs of 4: day 1 buys 12 (0 → 12, 6 used), then 4 (6 → 10, 6
    /// used, 4 left), then 8 (4 → 12), alternating 4 and 8.
    @Test func upToInPacksHasItsClosedForm() throws {
        let book = try VersionTwoTests.book("""
            version: 2
            fruits:
              mango: { cost: 100, pack: 4, restock: { up-to: 10 } }
            menu:
              juice: { price: 500, recipe: { mango: 2 } }
            """)
        let result = try PlanRun(book: book, settings: Self.settings(days: 5, runs: 1, orders: 3)).run(1, trace: true)
        #expect(result.orders == 15 && result.served == 15 && result.daysWithoutRefusal == 5)
        #expect(result.bought == [12 + 4 + 8 + 4 + 8])
        #expect(result.trace?.onHand.map { $0[0] } == [6, 4, 6, 4, 6])
        #expect(result.purchases == Money(36 * 100))
        #expect(result.revenue == Money(15 * 500))
        #expect(result.grossMargin == Money(15 * 500 - 3600))
        #expect(result.averageOnHand(0) == 26.0 / 5)
    }

    /// `keeps: 2`: a unit received on day d is thrown away at the end of
    /// day d + 1, and the oldest units are used first.
    @Test func spoilageUsesTheOldestFirst() throws {
        let book = try VersionTwoTests.book("""
            version: 2
            fruits:
              kiwi: { cost: 10, keeps: 2 }
            stock:
              kiwi: 5
            menu:
              juice: { recipe: { kiwi: 1 } }
            """)
        // Day 1 uses 1 of the 5 opening units; day 2 uses 1 more and the
        // 3 left (received day 1) are thrown away at its end.
        let result = try PlanRun(book: book, settings: Self.settings(days: 3, runs: 1, orders: 1)).run(1, trace: true)
        #expect(result.trace?.wasted.map { $0[0] } == [0, 3, 0])
        #expect(result.wasted == [3])
        #expect(result.served == 2 && result.refused == 1)
        #expect(result.shortDays == [1])
        #expect(result.wasteAtCost == Money(30))
    }

    /// (s, S) with lead 2: ordered at the end of day 1, it arrives at the
    /// start of day 4 (d + L + 1).
    @Test func anOrderArrivesLeadPlusOneDaysLater() throws {
        let book = try VersionTwoTests.book("""
            version: 2
            fruits:
              lime: { restock: { below: 5, up-to: 10, lead: 2 } }
            stock:
              lime: 4
            menu:
              juice: { recipe: { lime: 1 } }
            """)
        let trace = try #require(try PlanRun(book: book, settings: Self.settings(days: 5, runs: 1, orders: 1)).run(1, trace: true).trace)
        #expect(trace.received.map { $0[0] } == [0, 0, 0, 7, 0])
        #expect(trace.onHand.map { $0[0] } == [3, 2, 1, 7, 6])
    }

    /// (s, S) = (5, 10), one lime a day from 4: on hand 3 after day 1,
    /// below 5, so 7 are ordered that evening (position 3 → 10) and arrive
    /// at the start of day 1 + L + 1; nothing more is ordered meanwhile
    /// (the position counts what is on order). Day by day, for L = 0, 1, 2.
    @Test(arguments: [
        (0, [0, 7, 0, 0, 0, 0], [3, 9, 8, 7, 6, 5]),
        (1, [0, 0, 7, 0, 0, 0], [3, 2, 8, 7, 6, 5]),
        (2, [0, 0, 0, 7, 0, 0], [3, 2, 1, 7, 6, 5]),
    ])
    func leadTimesDayByDay(lead: Int, received: [Int], onHand: [Int]) throws {
        let book = try VersionTwoTests.book("""
            version: 2
            fruits:
              lime: { restock: { below: 5, up-to: 10, lead: \(lead) } }
            stock:
              lime: 4
            menu:
              juice: { recipe: { lime: 1 } }
            """)
        let result = try PlanRun(book: book, settings: Self.settings(days: 6, runs: 1, orders: 1)).run(1, trace: true)
        let trace = try #require(result.trace)
        #expect(trace.received.map { $0[0] } == received)
        #expect(trace.onHand.map { $0[0] } == onHand)
        #expect(result.bought == [7])
        #expect(result.refused == 0)
    }

    @Test func lotsGiveTheOldestFirstAndSpoilByDay() {
        var lots = Lots()
        lots.receive(5, on: 1)
        lots.receive(3, on: 2)
        lots.use(6)
        #expect(lots.spoil(receivedThrough: 1) == 0)
        #expect(lots.spoil(receivedThrough: 2) == 2)
    }

    @Test func intervalsHaveTheirClosedForms() {
        #expect(Estimate([3, 3, 3]) == Estimate([3, 3, 3]))
        let flat = Estimate([3, 3, 3])
        #expect(flat.mean == 3 && flat.low == 3 && flat.high == 3)
        let one = Estimate([7])
        #expect(one.mean == 7 && one.low == nil && one.high == nil)
        // Two runs: s = 1/√2, so the half-width is t(1) × s / √2 = t(1) / 2.
        let two = Estimate([0, 1])
        #expect(abs((two.high ?? 0) - (0.5 + 12.706204736174706 / 2)) < 1e-12)
        #expect(abs(Estimate.tQuantile(degreesOfFreedom: 39) - 2.0226909200367578) < 1e-12)
        #expect(abs(Estimate.tQuantile(degreesOfFreedom: 500) - 1.9647198374673) < 1e-9)
    }

    @Test func theStreamIsTheDocumentedOne() {
        #expect(DemandStream.derive(0, 1) == 17_337_079_992_952_517_357)
        #expect(DemandStream.derive(42, 7) == 5_736_144_931_528_303_595)
        // Six squarings multiply the series' relative error (a few ulp) by 64.
        #expect(abs(DemandStream.expNegative(30) / exp(-30) - 1) < 1e-13)
        #expect(abs(DemandStream.expNegative(0.5) / exp(-0.5) - 1) < 64 * 4 * Double.ulpOfOne)
    }

    /// The runs on every core give what one after another gives, in order.
    @Test func parallelRunsEqualSequentialRuns() throws {
        let book = try VersionTwoTests.book("""
            version: 2
            fruits:
              mango: { cost: 100, pack: 6, keeps: 3, restock: { up-to: 30 } }
              kiwi: { cost: 50, restock: { below: 10, up-to: 40, lead: 1 } }
            menu:
              a: { price: 400, recipe: { mango: 2 } }
              b: { price: 300, recipe: { mango: 1, kiwi: 2 } }
            """)
        let plan = PlanRun(book: book, settings: Self.settings(days: 20, runs: 12, orders: 15, demand: .poisson, seed: 99))
        let sequential = SequentialPlanRunner().results(of: plan, runs: 12).map { try? $0.get() }
        let parallel = ParallelPlanRunner().results(of: plan, runs: 12).map { try? $0.get() }
        #expect(sequential == parallel)
        #expect(sequential.compactMap { $0?.run } == Array(1...12))
    }

    /// Five orders a day of one mango each, bought in ones: the cheapest par
    /// level that serves every day is 5, and the re-check holds it.
    @Test func targetServiceFindsTheCheapestLevelOnAClosedForm() throws {
        let book = try VersionTwoTests.book("""
            version: 2
            fruits:
              mango: { cost: 100 }
            menu:
              juice: { price: 400, recipe: { mango: 1 } }
            """)
        let outcome = try ParLevelSearch(
            book: book, settings: Self.settings(days: 10, runs: 3, orders: 5), target: 1, runner: SequentialPlanRunner()
        ).run()
        #expect(outcome.levels == [5])
        #expect(outcome.recheck?.cycleServiceLevel.mean == 1)
    }
}
