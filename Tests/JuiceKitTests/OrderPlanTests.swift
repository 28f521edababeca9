import DifferentialSupport
import Foundation
import Testing
import JuiceSupport
import JuiceSimulation
@testable import JuiceBook
@testable import JuiceEngine

/// The order plan (issue 37): the one value for what an order takes, the
/// substitutes rule on it, and making then undoing a plan.

/// `book` with `substitutes` (fruit id → [(substitute id, ratio)]) added:
/// the engine's tests do not wait for the reader.
func withSubstitutes(_ book: RecipeBook, _ substitutes: [String: [(String, Int)]], stock: [String: Int] = [:]) throws -> RecipeBook {
    let fruits = try book.fruits.map { fruit in
        let list = try (substitutes[fruit.id] ?? []).map { id, ratio in
            RecipeBook.Substitute(fruit: try #require(book.fruitIndex(id)), ratio: ratio)
        }
        return RecipeBook.Fruit(
            id: fruit.id, label: fruit.label, emoji: fruit.emoji, cost: fruit.cost, pack: fruit.pack, keeps: fruit.keeps,
            restock: fruit.restock, substitutes: list)
    }
    let opening = book.fruits.indices.map { stock[book.fruits[$0].id] ?? book.openingStock[$0] }
    return RecipeBook(
        fruits: fruits, recipes: book.recipes, menu: book.menu, openingStock: opening, openingServings: book.openingServings,
        keepsServings: book.keepsServings)
}

/// The issue's anchor book: one strawberry juice takes 6 strawberries, one
/// mango juice 3 mangoes and 1 strawberry.
private func anchorBook(stock: [String: Int]) throws -> RecipeBook {
    let compilation = compile(yaml: """
        version: 2
        fruits:
          strawberry: { cost: 300 }
          frozen-strawberry: { cost: 180 }
          mango: { cost: 1200 }
          mango-puree: { cost: 500 }
          frozen-mango: { cost: 700 }
        menu:
          strawberry-juice: { recipe: { strawberry: 6 } }
          mango-juice: { recipe: { mango: 3, strawberry: 1 } }
          puree-cup: { recipe: { mango-puree: 2 } }
        """)
    let book = try #require(compilation.book, "\(compilation.diagnostics)")
    return try withSubstitutes(
        book, ["strawberry": [("frozen-strawberry", 1)], "mango": [("mango-puree", 2), ("frozen-mango", 1)]], stock: stock)
}

@Suite struct SubstituteRuleTests {
    @Test func aShortFruitIsCoveredFromItsSubstitute() throws {
        let book = try anchorBook(stock: ["strawberry": 2, "frozen-strawberry": 10])
        var maker = JuiceMaker(book: book)
        let plan = maker.plan(0)
        #expect(plan.isServable)
        #expect(plan.fruit == [.init(fruit: 0, amount: 2), .init(fruit: 1, amount: 4)])
        #expect(plan.substitutions == [Substitution(fruit: 0, substitute: 1, units: 4, covered: 4)])
        #expect(plan.cost == Money(2 * 300 + 4 * 180))
        #expect(maker.make(0) == .served)
        #expect(maker.substitutionsMade == plan.substitutions)
        #expect(maker.store.counts == [0, 6, 0, 0, 0])
    }

    @Test func substitutesAreTakenInTheListedOrderAtTheirRatio() throws {
        // Short of 3 mangoes: mango-puree (2 a unit) covers 1 with its 3, then frozen-mango 2.
        let book = try anchorBook(stock: ["strawberry": 1, "mango": 0, "mango-puree": 3, "frozen-mango": 5])
        let plan = JuiceMaker(book: book).plan(1)
        #expect(plan.substitutions == [
            Substitution(fruit: 2, substitute: 3, units: 2, covered: 1),
            Substitution(fruit: 2, substitute: 4, units: 2, covered: 2),
        ])
        #expect(plan.fruit == [.init(fruit: 0, amount: 1), .init(fruit: 3, amount: 2), .init(fruit: 4, amount: 2)])
    }

    @Test func aFruitServesItsOwnNeedBeforeStandingIn() throws {
        // puree-cup needs 2 mango-puree itself; with 3 on hand, only 1 is left for mango's 2-a-unit ratio.
        let compilation = compile(yaml: """
            version: 2
            fruits: { mango: {}, mango-puree: {}, frozen-mango: {} }
            menu:
              both: { recipe: { mango: 1, mango-puree: 2 } }
            """)
        let book = try withSubstitutes(
            try #require(compilation.book), ["mango": [("mango-puree", 2), ("frozen-mango", 1)]],
            stock: ["mango": 0, "mango-puree": 3, "frozen-mango": 0])
        let plan = JuiceMaker(book: book).plan(0)
        #expect(!plan.isServable)
        #expect(plan.shortages == [
            Shortage(fruit: 0, need: 1, have: 0),
            Shortage(fruit: 1, need: 4, have: 3, standsInFor: 0),
            Shortage(fruit: 2, need: 1, have: 0, standsInFor: 0),
        ])
    }

    @Test func shortFruitsAreCoveredInDeclarationOrder() throws {
        // a and b are both short by 1 and share s, which has 1: a, declared first, gets it.
        let compilation = compile(yaml: """
            fruits: { b: {}, a: {}, s: {} }
            menu:
              ab: { recipe: { a: 1, b: 1 } }
            """)
        let book = try withSubstitutes(try #require(compilation.book), ["a": [("s", 1)], "b": [("s", 1)]], stock: ["a": 0, "b": 0, "s": 1])
        let plan = JuiceMaker(book: book).plan(0)
        // b (index 0) is covered first, being declared first; a is left short, and s with it.
        #expect(plan.shortages == [Shortage(fruit: 1, need: 1, have: 0), Shortage(fruit: 2, need: 2, have: 1, standsInFor: 1)])
    }

    @Test func aSubstitutesOwnSubstitutesAreNotFollowed() throws {
        let compilation = compile(yaml: """
            fruits: { a: {}, s: {}, t: {} }
            menu:
              cup: { recipe: { a: 1 } }
            """)
        let book = try withSubstitutes(try #require(compilation.book), ["a": [("s", 1)], "s": [("t", 1)]], stock: ["a": 0, "s": 0, "t": 9])
        var maker = JuiceMaker(book: book)
        #expect(maker.make(0) == .refused([Shortage(fruit: 0, need: 1, have: 0), Shortage(fruit: 1, need: 1, have: 0, standsInFor: 0)]))
        #expect(maker.store.counts == [0, 0, 9])
    }

    @Test func eachOrderOfARepeatIsPlannedOnTheStockTheLastLeft() throws {
        let book = try anchorBook(stock: ["strawberry": 8, "frozen-strawberry": 5])
        var maker = JuiceMaker(book: book)
        // x2: the first takes 6 strawberries, the second 2 and 4 frozen; a third is short.
        let two = maker.plan(0, times: 2)
        #expect(two.fruit == [.init(fruit: 0, amount: 8), .init(fruit: 1, amount: 4)])
        #expect(two.substitutions == [Substitution(fruit: 0, substitute: 1, units: 4, covered: 4)])
        #expect(!maker.plan(0, times: 3).isServable)
        #expect(maker.makeIfAvailable(0, times: 3) == nil)  // the caller goes one at a time
        #expect(Capacity.of(book, stock: maker.store).first?.count == 2)
    }

    @Test func theShortfallIgnoresSubstitutes() throws {
        let book = try anchorBook(stock: ["strawberry": 2, "frozen-strawberry": 10])
        var maker = JuiceMaker(book: book)
        var ledger = ShortfallLedger(following: maker)
        #expect(maker.make(0) == .served)
        ledger.serve(0, alongside: maker, served: 1)
        #expect(ledger.amounts == [4, 0, 0, 0, 0])
    }
}

/// Random books, stocks and orders: making an order is applying its plan,
/// undoing a plan gives the stock back, and the substitutes rule is the
/// one-unit-at-a-time model's.
@Suite struct OrderPlanPropertyTests {
    @Test func makingThenUndoingIsTheIdentity() throws {
        var substituted = 0, refused = 0, batches = 0
        for seed in 0..<80 {
            try check(seed: seed, substituted: &substituted, refused: &refused, batches: &batches)
        }
        // The cases really reach the rule: substitutes stand in, orders are
        // refused, and batches are made, many times each.
        #expect(substituted > 100 && refused > 100 && batches > 100, "\(substituted) \(refused) \(batches)")
    }

    private func check(seed: Int, substituted: inout Int, refused: inout Int, batches: inout Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &+ 0x5eed)
        let (book, plainBook) = try Self.randomBook(&random)
        var maker = JuiceMaker(book: book)
        for _ in 0..<40 {
            let menu = Int(random.next() % UInt64(book.menu.count))
            let before = maker.store
            let plan = maker.plan(menu)
            if !plan.substitutions.isEmpty { substituted += 1 }
            if !plan.isServable { refused += 1 }
            if !plan.batches.isEmpty { batches += 1 }
            // The one-unit-at-a-time model on what the order needs without substitutes.
            let need = JuiceMaker(book: plainBook, store: FruitStore(counts: before.counts.map { _ in Int.max / 4 }, servings: before.servings)).plan(menu)
            let model = Self.coverOneUnitAtATime(need.fruit, stock: before.counts, book: book)
            #expect(plan.isServable == (model != nil), "seed \(seed)")
            if let model { #expect(plan.fruit == model, "seed \(seed)") }
            var applied = before
            if plan.isServable {
                try applied.apply(plan)
                var undone = applied
                try undone.undo(plan)
                #expect(undone == before, "seed \(seed)")
            } else {
                #expect(throws: FruitStore.ChangeError.self) { try applied.apply(plan) }
            }
            // The maker's own path decides the same.
            #expect((maker.make(menu) == .served) == plan.isServable, "seed \(seed)")
            #expect(maker.store == applied, "seed \(seed)")
            // Restocks keep the stock near where fruits run short.
            if random.next() % 3 != 0 {
                let fruit = Int(random.next() % UInt64(book.fruits.count))
                try maker.store.restock(fruit, by: Int(random.next() % 8) + 1)
            }
        }
    }

    /// What `need` takes once its short fruits are covered one unit at a
    /// time, in fruit order, from each fruit's substitutes in the listed
    /// order; nil when a unit cannot be covered.
    static func coverOneUnitAtATime(_ need: [RecipeBook.FruitAmount], stock: [Int], book: RecipeBook) -> [RecipeBook.FruitAmount]? {
        var left = stock
        var taken = [Int](repeating: 0, count: stock.count)
        var missing: [(Int, Int)] = []
        for part in need {
            let own = min(part.amount, left[part.fruit])
            left[part.fruit] -= own
            taken[part.fruit] += own
            if part.amount > own { missing.append((part.fruit, part.amount - own)) }
        }
        for (fruit, count) in missing.sorted(by: { $0.0 < $1.0 }) {
            for _ in 0..<count {
                guard let standIn = book.fruits[fruit].substitutes.first(where: { left[$0.fruit] >= $0.ratio }) else { return nil }
                left[standIn.fruit] -= standIn.ratio
                taken[standIn.fruit] += standIn.ratio
            }
        }
        return taken.indices.filter { taken[$0] > 0 }.map { RecipeBook.FruitAmount(fruit: $0, amount: taken[$0]) }
    }

    /// A random version 2 book (batches half the time) with random
    /// substitutes, and the same book without them.
    static func randomBook(_ random: inout SplitMix64) throws -> (RecipeBook, RecipeBook) {
        let fruits = Int(random.next() % 5) + 2
        let batches = random.next() % 2 == 0
        let recipes = Int(random.next() % 3) + (batches ? 1 : 0)
        var yaml = "version: 2\nfruits:\n"
        for fruit in 0..<fruits { yaml += "  f\(fruit): {}\n" }
        func ingredients(upTo recipeLimit: Int) -> String {
            var parts: [String] = []
            for fruit in 0..<fruits where random.next() % 2 == 0 { parts.append("f\(fruit): \(random.next() % 3 + 1)") }
            for recipe in 0..<recipeLimit where random.next() % 2 == 0 { parts.append("r\(recipe): \(random.next() % 2 + 1)") }
            if parts.isEmpty { parts.append("f\(random.next() % UInt64(fruits)): 1") }
            return "{ " + parts.joined(separator: ", ") + " }"
        }
        if recipes > 0 {
            yaml += "recipes:\n"
            for recipe in 0..<recipes {
                let yield = batches ? ", yield: \(random.next() % 4 + 1)" : ""
                yaml += "  r\(recipe): { recipe: \(ingredients(upTo: recipe))\(yield) }\n"
            }
        }
        yaml += "menu:\n"
        for item in 0..<(Int(random.next() % 3) + 1) { yaml += "  m\(item): { recipe: \(ingredients(upTo: recipes)) }\n" }
        yaml += "stock:\n"
        for fruit in 0..<fruits { yaml += "  f\(fruit): \(random.next() % 12)\n" }
        if batches && recipes > 0 { yaml += "  r0: \(random.next() % 3)\n" }
        let compilation = compile(yaml: yaml)
        let plain = try #require(compilation.book, "\(compilation.diagnostics)\n\(yaml)")
        var table: [String: [(String, Int)]] = [:]
        for fruit in 0..<fruits where random.next() % 2 == 0 {
            let others = random.shuffled((0..<fruits).filter { $0 != fruit }).prefix(Int(random.next() % 2) + 1)
            table["f\(fruit)"] = others.map { ("f\($0)", Int(random.next() % 3) + 1) }
        }
        return (try withSubstitutes(plain, table), plain)
    }
}

/// Substitutes as the reports show them: the menu card keeps the primary
/// cost and notes them; a replay's events say what stood in.
@Suite struct SubstitutesInReportsTests {
    static let yaml = """
        version: 2
        fruits:
          strawberry: { cost: 300, substitutes: { frozen-strawberry: 1 } }
          frozen-strawberry: { cost: 180 }
          kiwi: { cost: 100 }
        stock: { strawberry: 8, frozen-strawberry: 5, kiwi: 9 }
        menu:
          strawberry-juice: { price: 4000, recipe: { strawberry: 6 } }
          kiwi-juice: { price: 1000, recipe: { kiwi: 3 } }
        """

    @Test func theMenuCardKeepsThePrimaryCostAndNotesSubstitutes() throws {
        let compilation = compile(yaml: Self.yaml)
        let book = try #require(compilation.book, "\(compilation.diagnostics)")
        let card = MenuCard(book: book)
        // 6 × 300, and 2 orders in a row: 8 strawberries, then 2 + 4 frozen.
        #expect(card.rows[0].cost.money == Money(1800))
        #expect(card.rows[0].capacity == 2)
        #expect(Array(card.text().suffix(3)) == [
            "",
            "substitutes may stand in for (costs are for the fruit the recipes name; capacity counts the substitutes):",
            "  strawberry-juice: strawberry",
        ])
        #expect(card.jsonLines()[0].hasSuffix(#""limitedBy":"strawberry","substitutable":["strawberry"]}"#))
        #expect(card.jsonLines()[1].hasSuffix(#""substitutable":[]}"#))
    }

    @Test func aReplaySaysWhatStoodIn() throws {
        let compilation = compile(yaml: Self.yaml)
        let book = try #require(compilation.book, "\(compilation.diagnostics)")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("substituted-\(UUID().uuidString)").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { unlink(path) }
        let output = OutputBuffer(descriptor: descriptor)
        var simulation = Simulation(
            book: book, file: "day.orders", reporter: JSONLinesSimulationReporter(book: book, output: output, errors: output))
        simulation.run(line: "strawberry-juice x3", number: 1)
        output.flush()
        close(descriptor)
        let lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        #expect(lines == [
            #"{"type":"order","seq":1,"line":1,"menu":"strawberry-juice","status":"served","short":[]}"#,
            #"{"type":"order","seq":2,"line":1,"menu":"strawberry-juice","status":"served","short":[],"substituted":{"strawberry":{"frozen-strawberry":4}}}"#,
            #"{"type":"order","seq":3,"line":1,"menu":"strawberry-juice","status":"refused","short":[{"fruit":"strawberry","need":6,"have":0},{"fruit":"frozen-strawberry","need":6,"have":1,"for":"strawberry"}]}"#,
        ])
    }
}
