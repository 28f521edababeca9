import Foundation
import Testing
@testable import JuiceSource
@testable import JuiceBook
@testable import JuiceEngine
@testable import JuiceSimulation

/// Version 2 of the recipe language (issue 28): its keys and their rules,
/// the batch rule, money, and the menu card. Expected figures are worked by
/// hand in the comments; the random books are Tests/Reference's.
struct VersionTwoTests {
    /// The issue's example: syrup (mango 3, kiwi 1) makes 4 servings and 2
    /// are on hand; kiwi-base (kiwi 2) is the short form.
    static let sunrise = """
        version: 2
        fruits:
          mango: { label: 망고, cost: 800, pack: 6 }
          kiwi: { cost: 500 }
        stock:
          mango: 12
          kiwi: 6
          syrup: 2
        recipes:
          syrup:
            yield: 4
            recipe: { mango: 3, kiwi: 1 }
          kiwi-base: { kiwi: 2 }
        menu:
          sunrise:
            price: 5000
            recipe: { syrup: 1, kiwi-base: 1, mango: 1 }
        """

    static func book(_ yaml: String) throws -> RecipeBook {
        let compilation = compile(yaml: yaml)
        #expect(compilation.diagnostics.filter { $0.severity == .error }.isEmpty, "\(compilation.spots)")
        return try #require(compilation.book)
    }

    // MARK: The language

    @Test func versionOneRefusesTheNewKeysAndSaysWhy() throws {
        let diagnostic = try compile(yaml: "version: 1\nfruits:\n  mango: { cost: 800 }\n").single()
        #expect(diagnostic.spot == Spot(.unknownKey, "inline.yaml", 3, 12))
        #expect(diagnostic.message == "unknown key 'cost' in fruit 'mango'")
        #expect(diagnostic.help == "'cost' is a version 2 key; this file says 'version: 1': write 'version: 2' to use it")
    }

    @Test func versionLineAfterTheSectionsStillCounts() throws {
        let diagnostic = try compile(yaml: "fruits:\n  mango: { pack: 6 }\nversion: 1\n").single()
        #expect(diagnostic.spot == Spot(.unknownKey, "inline.yaml", 2, 12))
    }

    @Test func aMenuItemHasNoYield() throws {
        let compilation = compile(yaml: "fruits:\n  mango:\nmenu:\n  m: { yield: 2, recipe: { mango: 1 } }\n")
        let diagnostic = try compilation.single()
        #expect(diagnostic.spot == Spot(.unknownKey, "inline.yaml", 4, 8))
        #expect(diagnostic.help == "a menu item has no yield: each order is one serving; put the yield on a recipe it uses")
    }

    @Test func stockMayNameARecipeButNotAMenuItem() throws {
        let yaml = "fruits:\n  mango:\nstock:\n  mango: 1\n  r: 2\n  m: 1\nrecipes:\n  r: { mango: 1 }\nmenu:\n  m: { recipe: { r: 1 } }\n"
        let compilation = compile(yaml: yaml)
        #expect(compilation.spots == [Spot(.unknownFruit, "inline.yaml", 6, 3)])
        #expect(compilation.diagnostics.first?.message == "'m' is a menu item; stock names fruits and recipes, and a menu item is made to order")
        // In a version 1 file, the same entry for a recipe is still an error.
        let old = compile(yaml: "version: 1\n" + yaml)
        #expect(old.spots == [Spot(.unknownFruit, "inline.yaml", 6, 3), Spot(.unknownFruit, "inline.yaml", 7, 3)])
    }

    @Test func yieldAndPackAreAtLeastOne() throws {
        let compilation = compile(yaml: "fruits:\n  mango: { pack: 0 }\nrecipes:\n  r: { recipe: { mango: 1 }, yield: 0 }\n")
        #expect(compilation.spots == [Spot(.zeroAmount, "inline.yaml", 2, 18), Spot(.zeroAmount, "inline.yaml", 4, 37)])
    }

    @Test func theLongFormReadsYieldAndLabel() throws {
        let book = try Self.book(Self.sunrise)
        #expect(book.recipes.map(\.yield) == [4, 1])
        #expect(book.openingServings == [2, 0])
        #expect(book.keepsServings)
        #expect(book.fruits.map(\.pack) == [6, 1])
    }

    // MARK: Batches

    /// Order by order from mango 12, kiwi 6, syrup 2 on hand:
    /// 1. syrup from hand (1 left); kiwi-base 1 batch (kiwi 2); mango 1: mango 11, kiwi 4.
    /// 2. syrup from hand (0 left); kiwi 2, mango 1: mango 10, kiwi 2.
    /// 3. syrup 1 batch (mango 3, kiwi 1), kiwi-base (kiwi 2), mango 1: kiwi 3 > 2, refused.
    @Test func ordersPlanBatchesOnTheServingsOnHand() throws {
        let book = try Self.book(Self.sunrise)
        var maker = JuiceMaker(book: book)
        #expect(maker.make(0) == .served)
        #expect(maker.batchesMade == [OrderPlan.Batch(recipe: 1, count: 1)])
        #expect(maker.store.servings == [1, 0])
        #expect(maker.make(0) == .served)
        #expect(maker.store.counts == [10, 2])
        #expect(maker.make(0) == .refused([Shortage(fruit: 1, need: 3, have: 2)]))
        // A refusal changes nothing.
        #expect(maker.store.counts == [10, 2])
        #expect(maker.store.servings == [0, 0])
    }

    /// Three levels, a yield at each: top (yield 2) uses mid 3; mid (yield 3)
    /// uses low 2; low (yield 5) uses fruit 1. One order of `drink` (top 1):
    /// top: 1 batch (2 made, 1 left); mid demand 3: 1 batch (3 made, 0 left);
    /// low demand 2: 1 batch (5 made, 3 left); fruit 1.
    /// Second order: top from hand; nothing else made; fruit 0.
    /// Third: top 1 batch; mid 1 batch; low demand 2 of 3 on hand: none; fruit 0.
    @Test func nestedYieldsAtEveryLevel() throws {
        let book = try Self.book("""
            fruits:
              f:
            stock:
              f: 10
            recipes:
              top: { yield: 2, recipe: { mid: 3 } }
              mid: { yield: 3, recipe: { low: 2 } }
              low: { yield: 5, recipe: { f: 1 } }
            menu:
              drink: { recipe: { top: 1 } }
            """)
        var maker = JuiceMaker(book: book)
        #expect(maker.make(0) == .served)
        #expect(maker.store.counts == [9])
        #expect(maker.store.servings == [1, 0, 3])
        #expect(maker.make(0) == .served)
        #expect(maker.store.counts == [9])
        #expect(maker.make(0) == .served)
        #expect(maker.store.counts == [9])
        #expect(maker.store.servings == [1, 0, 1])
        // Capacity from the opening stock: f 10 makes low 10 times (50
        // servings), mid needs 2 a batch: 25 batches, 75 servings; top needs
        // 3 a batch: 25 batches, 50 orders.
        #expect(Capacity.of(book, stock: FruitStore(book: book)).first?.count == 50)
    }

    /// Two bases share syrup (yield 4) within one order: demand 2, one batch.
    @Test func aRecipeSharedWithinOneOrderIsBatchedOnce() throws {
        let book = try Self.book("""
            fruits:
              f:
            stock:
              f: 3
            recipes:
              syrup: { yield: 4, recipe: { f: 3 } }
              a: { syrup: 1 }
              b: { syrup: 1 }
            menu:
              both: { recipe: { a: 1, b: 1 } }
            """)
        var maker = JuiceMaker(book: book)
        #expect(maker.make(0) == .served)
        #expect(maker.store.servings == [2, 0, 0])
        #expect(maker.make(0) == .served)
        #expect(maker.store.counts == [0])
        #expect(maker.make(0) == .refused([Shortage(fruit: 0, need: 3, have: 0)]))
    }

    /// The planner walks an item's short list of recipes, or, past
    /// `walkLimit` (books whose items reach many recipes), takes them off a
    /// heap by rank: both must plan alike. Every servings state from 0 to 3
    /// of each recipe, 1 to 4 orders at once, every item.
    @Test func walkedAndHeapPlansAgree() throws {
        for yaml in [Self.sunrise, Self.shared] {
            let book = try Self.book(yaml)
            let ingredients = (book.recipes.map(\.ingredients), book.menu.map(\.ingredients))
            let walked = BatchPlanner(yields: book.recipes.map(\.yield), recipeIngredients: ingredients.0, menuIngredients: ingredients.1)
            let heap = BatchPlanner(
                yields: book.recipes.map(\.yield), recipeIngredients: ingredients.0, menuIngredients: ingredients.1, walkLimit: 0
            )
            var first = BatchPlanner.Scratch(recipes: book.recipes.count, fruits: book.fruits.count)
            var second = first
            let states = (0..<Int(pow(4.0, Double(book.recipes.count)))).map { code in
                book.recipes.indices.map { (code >> (2 * $0)) & 3 }
            }
            for onHand in states {
                for menu in book.menu.indices {
                    for times in 1...4 {
                        walked.plan(menu: menu, times: times, onHand: onHand, into: &first)
                        heap.plan(menu: menu, times: times, onHand: onHand, into: &second)
                        #expect(first.touched.sorted().map { first.fruit[$0] } == second.touched.sorted().map { second.fruit[$0] })
                        #expect(first.walked.sorted().map { first.batches[$0] } == second.walked.sorted().map { second.batches[$0] })
                        var afterFirst = onHand, afterSecond = onHand
                        walked.apply(first, to: &afterFirst)
                        heap.apply(second, to: &afterSecond)
                        #expect(afterFirst == afterSecond, "\(onHand) menu \(menu) ×\(times)")
                    }
                }
            }
        }
    }

    /// Two levels sharing a syrup, for `walkedAndHeapPlansAgree`.
    static let shared = """
        fruits:
          f:
          g:
        recipes:
          syrup: { yield: 4, recipe: { f: 3 } }
          a: { yield: 2, recipe: { syrup: 1, g: 1 } }
          b: { yield: 3, recipe: { syrup: 2, a: 1 } }
        menu:
          both: { recipe: { a: 1, b: 1 } }
          one: { recipe: { b: 2, f: 1 } }
        """

    // MARK: Money

    @Test func moneyRoundsOnceHalfToEven() {
        #expect(Money(3, over: 4)?.description == "0.75")
        #expect(Money(1, over: 8)?.description == "0.12")
        #expect(Money(3, over: 8)?.description == "0.38")
        #expect(Money(-1, over: 8)?.description == "-0.12")
        #expect(Money(2525).description == "2525.00")
        #expect(Money(1, over: 3)?.adding(Money(2, over: 3)!) == Money(1))
        #expect(Money(Int.max).adding(Money(1)) == nil)
        #expect(Money(Int.max).description == "9223372036854775807.00")
    }

    /// syrup: (3 × 800 + 500) ÷ 4 = 725; kiwi-base 2 × 500 = 1000; sunrise
    /// 725 + 1000 + 800 = 2525, margin 2475, 49.50% of 5000.
    @Test func theMenuCardIsExact() throws {
        let card = MenuCard(book: try Self.book(Self.sunrise))
        #expect(card.jsonLines() == [
            #"{"id":"sunrise","label":"sunrise","price":5000,"cost":2525.00,"margin":2475.00,"marginPercent":49.50,"capacity":2,"limitedBy":"kiwi"}"#
        ])
    }

    /// A fraction of the smallest unit: 3 units at 1 in a yield of 4 is 0.75.
    /// A fruit with no cost makes the cost unknown, not 0.
    @Test func costsAreFractionsOrUnknown() throws {
        let book = try Self.book("""
            fruits:
              f: { cost: 1 }
              g:
            recipes:
              r: { yield: 4, recipe: { f: 3 } }
            menu:
              cheap: { price: 1, recipe: { r: 1 } }
              unknown: { price: 1, recipe: { r: 1, g: 1 } }
            """)
        let costs = try #require(CostTable(book: book))
        #expect(costs.recipes == [Money(3, over: 4)])
        #expect(costs.menu == [Money(3, over: 4), nil])
        #expect(costs.menuMissing == [[], [1]])
    }

    @Test func theCostRulesSayWhereAndWhy() throws {
        let compilation = RecipeCompiler.compile([SourceFile(path: "inline.yaml", bytes: Array("""
            fruits:
              mango: { cost: 800 }
              kiwi:
            stock: { mango: 10, kiwi: 10 }
            menu:
              a: { price: 1000, recipe: { mango: 2 } }
              b: { price: 3000, recipe: { mango: 1, kiwi: 1 } }
              c: { price: 3000, recipe: { mango: 1 } }
            """.utf8))], analysis: true, pass: OpeningStockAnalysis())
        #expect(compilation.spots == [Spot(.priceBelowCost, "inline.yaml", 6, 3), Spot(.missingCost, "inline.yaml", 7, 3)])
        #expect(compilation.diagnostics.map(\.message) == [
            "menu item 'a' is priced 1000, below its cost per serving of 1600.00",
            "the cost of menu item 'b' is unknown: 'kiwi' has no cost",
        ])
    }

    /// Shortfall with batches: the all-served run of `sunrise x4` goes kiwi
    /// 4, 2, -1 (syrup batch + base), -3 (syrup from its leftover): short 3.
    /// In packs of 1 at 500: 3 units, 1500.
    @Test func theShoppingListCoversTheShortfallInPacks() throws {
        let book = try Self.book(Self.sunrise)
        var simulation = Simulation(book: book, file: "t", reporter: ShoppingListProbe())
        simulation.run(line: "sunrise x4", number: 1)
        let summary = simulation.finish()
        #expect(summary.shortfall == [0, 3])
        let list = ShoppingList(book: book, shortfall: summary.shortfall)
        #expect(list.lines == [ShoppingList.Line(fruit: 1, shortfall: 3, packs: 3, units: 3, cost: .exact(Money(1500)))])
        #expect(list.total == .exact(Money(1500)))
    }
}

/// A reporter that hears nothing, for runs whose summary is all a test reads.
private struct ShoppingListProbe: SimulationReporter {
    mutating func order(sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome) {}
    mutating func restock(line: Int, fruit: Int, amount: Int, stock: Int) {}
    mutating func set(line: Int, fruit: Int, stock: Int) {}
    mutating func stock(line: Int, counts: [Int]) {}
    mutating func problem(_ problem: ScriptProblem) { Issue.record("unexpected problem \(problem.message)") }
    mutating func finish(_ summary: SimulationSummary) {}
}
