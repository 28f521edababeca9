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

    /// Issue 37: one day of Poisson demand (mean 20) against 20 apples, two
    /// runs, one short and one not. mean ± t·s/√R put the cycle service
    /// level at [-5.8531, 6.8531]; each share's interval is now the Wilson
    /// score interval of its counts pooled over the runs, within [0, 1].
    @Test func sharesHaveTheWilsonIntervalOfTheirPooledCounts() throws {
        let book = try VersionTwoTests.book("""
            version: 2
            fruits:
              apple: { cost: 1, restock: { up-to: 20 } }
            menu:
              juice: { price: 5, recipe: { apple: 1 } }
            """)
        let settings = Self.settings(days: 1, runs: 2, orders: 20, demand: .poisson, seed: 3)
        let runs = try SequentialPlanRunner().runs(of: PlanRun(book: book, settings: settings), count: 2)
        let summary = PlanSummary(settings: settings, runs: runs, fruitCount: 1)
        // The textbook form, centre ± half, on k of n.
        func wilson(_ k: Int, _ n: Int) -> (Double, Double) {
            let z = 1.959963984540054, p = Double(k) / Double(n), n = Double(n)
            let centre = (p + z * z / (2 * n)) / (1 + z * z / n)
            let half = z * (p * (1 - p) / n + z * z / (4 * n * n)).squareRoot() / (1 + z * z / n)
            return (centre - half, centre + half)
        }
        #expect(runs.map(\.daysWithoutRefusal) == [1, 0])
        #expect(runs.map(\.shortDays) == [[0], [1]])
        let served = runs.map(\.served).reduce(0, +), orders = runs.map(\.orders).reduce(0, +)
        let cases: [(String, Estimate, (Double, Double), Double)] = [
            ("cycle service level", summary.cycleServiceLevel, wilson(1, 2), 0.5),
            ("apple's short days", summary.fruits[0].shortDayShare, wilson(1, 2), 0.5),
            ("fill rate", summary.fillRate, wilson(served, orders), Double(served) / Double(orders)),
        ]
        for (name, estimate, bounds, mean) in cases {
            let low = try #require(estimate.low, "\(name)"), high = try #require(estimate.high, "\(name)")
            #expect(estimate.mean == mean, "\(name)")
            #expect(0 <= low && low <= estimate.mean && estimate.mean <= high && high <= 1, "\(name): [\(low), \(high)]")
            #expect(abs(low - bounds.0) < 1e-12 && abs(high - bounds.1) < 1e-12, "\(name): [\(low), \(high)], want \(bounds)")
        }
        #expect(PlanReport.interval(summary.cycleServiceLevel, places: 4) == "[0.0945, 0.9055]")
        // No successes and all of them: exactly 0 and exactly 1 at the ends.
        #expect(Estimate.wilson(successes: 0, trials: 6) == (0, 1 - 6 / (6 + 1.959963984540054 * 1.959963984540054)))
        #expect(Estimate.wilson(successes: 6, trials: 6).high == 1)
    }

    /// Issue 37: up-to 2⁶² with keeps 1 buys 2⁶² mangoes each morning and
    /// throws them away each evening; on day 2 the run has bought 2⁶³. That
    /// was reported as 2⁶³ − 1 bought and wasted; now it ends the plan.
    @Test func aCountPastWhatItHoldsEndsThePlanNamingTheFruit() throws {
        let book = try VersionTwoTests.book("""
            version: 2
            fruits:
              mango: { cost: 1, keeps: 1, restock: { up-to: 4611686018427387904 } }
            menu:
              juice: { price: 5, recipe: { mango: 1 } }
            """)
        let plan = PlanRun(book: book, settings: Self.settings(days: 3, runs: 1, orders: 1))
        let error = PlanError.tally("bought over the run", name: "mango", day: 2)
        #expect(throws: error) { try plan.run(1) }
        #expect(error.description == "on day 2, 'mango' bought over the run would pass 9223372036854775807")
    }

    /// 3 × 2⁶¹ mangoes fit a count, but not at 4 each: the purchases
    /// (which were reported as unknown) end the plan, naming the fruit.
    @Test func moneyPastWhatItHoldsEndsThePlanNamingTheFruit() throws {
        let book = try VersionTwoTests.book("""
            version: 2
            fruits:
              mango: { cost: 4, keeps: 1, restock: { up-to: 2305843009213693952 } }
            menu:
              juice: { price: 5, recipe: { mango: 1 } }
            """)
        let plan = PlanRun(book: book, settings: Self.settings(days: 3, runs: 1, orders: 1))
        let error = PlanError.money(figure: "purchases", cause: "the cost of the 'mango' bought")
        #expect(throws: error) { try plan.run(1) }
        #expect(error.description == "the cost of the 'mango' bought would take a run's purchases past 9223372036854775807")
    }

    /// The summary's money is exact and rounded once (half to even), as a
    /// run's is; other numbers are never written with an exponent.
    @Test func summaryMoneyIsExactAndNumbersArePlain() throws {
        #expect(MoneyMean([Money(1, over: 8)!])?.description == "0.12")
        #expect(MoneyMean([Money(3, over: 8)!])?.description == "0.38")
        #expect(MoneyMean([Money(-1, over: 8)!])?.description == "-0.12")
        #expect(MoneyMean([Money(1), Money(2)])?.description == "1.50")
        #expect(MoneyMean([Money(1), Money(2)])?.minus(0.25) == "1.25")
        #expect(MoneyMean([Money(1), Money(2)])?.minus(-0.25) == "1.75")
        // The sum is past 64 bits; the mean is not.
        #expect(MoneyMean([Money(Int.max), Money(Int.max - 1)])?.description == "9223372036854775806.50")
        #expect(MoneyMean([Money(7)], dividedBy: 2)?.description == "3.50")
        #expect(PlanReport.plain(9.223372036854776e18) == "9223372036854776000")
        #expect(PlanReport.plain(1e-5) == "0.00001")
        #expect(PlanReport.plain(-1.5e-7) == "-0.00000015")
        #expect(PlanReport.plain(12.5) == "12.5")
        #expect(PlanReport.fixed(6.917529027641082e18, 2) == "6917529027641082000.00")
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
