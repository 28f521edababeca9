import DifferentialSupport
import JuiceSource
import JuiceBook
import JuiceEngine
import JuiceSimulation
import Testing

/// Records a simulation in the reference model's terms, ids rather than
/// indices, so the two runs compare as plain values.
struct OutcomeRecorder: SimulationReporter {
    let book: RecipeBook
    var orders: [OrderRecord] = []
    var restocks: [RestockRecord] = []
    var problemLines: [Int] = []

    mutating func order(sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome) {
        orders.append(OrderRecord(line: line, menu: menu, outcome: outcome, book: book))
    }

    mutating func order(
        sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome, batches: [OrderPlan.Batch], substitutions: [Substitution]
    ) {
        orders.append(OrderRecord(line: line, menu: menu, outcome: outcome, substitutions: substitutions, book: book))
    }

    mutating func restock(line: Int, fruit: Int, amount: Int, stock: Int) {
        restocks.append(RestockRecord(line: line, fruit: book.fruits[fruit].id, stock: stock))
    }

    // The generated scripts never use `set` or `stock`, and the model has neither.
    mutating func set(line: Int, fruit: Int, stock: Int) {
        Issue.record("unexpected set event at line \(line)")
    }

    mutating func stock(line: Int, counts: [Int]) {
        Issue.record("unexpected stock event at line \(line)")
    }

    mutating func problem(_ problem: ScriptProblem) {
        problemLines.append(problem.line)
    }

    mutating func finish(_ summary: SimulationSummary) {}
}

/// Runs the engine on random books with nested recipes and random 10,000-line
/// scripts, and checks every outcome against `ReferenceShop`, a deliberately
/// naive model of the documented behaviour (Tests/DifferentialSupport).
///
/// Each seed fixes its case completely; a failure names the seed, and
/// `DifferentialCase(seed:)` rebuilds its book (the YAML is `.book.yaml`) and script.
@Suite("differential: the engine against a reference model")
struct DifferentialTests {
    @Test(arguments: DifferentialCase.seeds)
    func engineAgreesWithTheReferenceModel(seed: UInt64) throws {
        try check(DifferentialCase(seed: seed))
    }

    /// The same with substitutes: the model covers one missing unit at a
    /// time, and the orders where one stood in are compared too.
    @Test(arguments: DifferentialCase.seeds)
    func engineAgreesWithTheReferenceModelWithSubstitutes(seed: UInt64) throws {
        try check(DifferentialCase(seed: seed + 1_000, substitutes: true))
    }

    /// The substitute cases reach the rule: orders where a substitute stood
    /// in, and refusals that name one that ran short, in many of the books.
    @Test func theSubstituteCasesReachTheRule() {
        var substituting = 0, refusing = 0, orders = 0
        for seed in DifferentialCase.seeds {
            let expected = DifferentialCase(seed: seed + 1_000, substitutes: true).expected
            let substituted = expected.orders.filter { !$0.substituted.isEmpty }.count
            if substituted > 0 { substituting += 1 }
            if expected.orders.contains(where: { $0.refusal?.contains { $0.standsInFor != nil } == true }) { refusing += 1 }
            orders += substituted
        }
        // 14, 11 and 1,995 when written.
        #expect(substituting >= 10 && refusing >= 8 && orders >= 1_000, "\(substituting) books substituting, \(refusing) refusing with stand-ins, \(orders) orders substituted")
    }

    private func check(_ testCase: DifferentialCase) throws {
        let seed = testCase.seed
        let generated = testCase.book
        let context = "seed \(seed)"

        let compilation = RecipeCompiler.compile(generated.files.map { SourceFile(path: $0.path, bytes: Array($0.text.utf8)) })
        let errors = compilation.diagnostics.filter { $0.severity == .error }
        try #require(errors.isEmpty, "\(context): the generated book does not compile: \(errors.map { "\($0.file):\($0.line):\($0.column): \($0.message)" })\n\(generated.yaml)")
        let book = try #require(compilation.book)

        // The book as compiled: fruits in declaration order (the order refusals
        // list short fruits in), and every menu item's flattened need.
        #expect(book.fruits.map(\.id) == generated.fruits, "\(context)")
        #expect(book.menu.map(\.id).sorted() == generated.menuIDs.sorted(), "\(context)")
        #expect(book.openingStock == generated.fruits.map { generated.openingStock[$0] ?? 0 }, "\(context)")
        for item in book.menu {
            let needs = Dictionary(uniqueKeysWithValues: item.needs.map { (book.fruits[$0.fruit].id, $0.amount) })
            #expect(needs == testCase.expectedNeeds[item.id], "\(context): flattened needs of '\(item.id)'\n\(generated.yaml)")
        }

        var simulation = Simulation(book: book, file: "day.orders", reporter: OutcomeRecorder(book: book))
        for (index, line) in testCase.script.lines.enumerated() {
            simulation.run(line: line, number: index + 1)
        }
        let summary = simulation.finish()
        let actual = simulation.reporter
        let expected = testCase.expected

        // The model must agree with what the generator meant, or the model is wrong.
        expectSame(expected.skippedLines, testCase.script.invalidLines, "skipped lines (model vs generator)", testCase, line: { $0 })

        expectSame(actual.orders, expected.orders, "order outcomes", testCase, line: \.line)
        expectSame(actual.restocks, expected.restocks, "restocks", testCase, line: \.line)
        expectSame(actual.problemLines, expected.skippedLines, "skipped lines", testCase, line: { $0 })
        #expect(summary.orders == expected.orders.count, "\(context)")
        #expect(summary.served == expected.served, "\(context)")
        #expect(summary.refused == expected.refused, "\(context)")
        #expect(summary.skippedLines == expected.skippedLines.count, "\(context)")
        let finalStock = Dictionary(uniqueKeysWithValues: book.fruits.indices.map { (book.fruits[$0].id, summary.stock[$0]) })
        #expect(finalStock == expected.finalStock, "\(context): final stock")

        // A case that never serves, or never refuses, would test half the engine.
        #expect(expected.served > 0 && expected.refused > 0, "\(context): served \(expected.served), refused \(expected.refused)")
    }

    /// The generator really produces what the differential test relies on.
    @Test func theGeneratedCasesCoverWhatTheyClaim() {
        let cases = DifferentialCase.seeds.map { DifferentialCase(seed: $0) }
        for testCase in cases {
            #expect(testCase.script.lines.count >= 10_000, "seed \(testCase.seed)")
            #expect((3...12).contains(testCase.book.fruits.count), "seed \(testCase.seed)")
            #expect((3...15).contains(testCase.book.menuIDs.count), "seed \(testCase.seed)")
            #expect(testCase.book.recipeIDs.count <= 8, "seed \(testCase.seed)")
        }
        #expect(cases.map(\.book.depth).max() ?? 0 >= 4, "nesting depths: \(cases.map(\.book.depth))")
        #expect(cases.filter(\.book.repeatsFruitsAcrossLevels).count >= 10)
        #expect(cases.filter(\.book.declaresSomeBlendAfterItsUser).count >= 5)
        #expect(cases.contains { $0.book.files.count == 3 } && cases.contains { $0.book.files.count == 1 })
        #expect(cases.contains { testCase in testCase.book.fruits.contains { testCase.book.openingStock[$0] == nil } }, "some fruit has no stock entry")
        let kinds = cases.reduce(into: Set<String>()) { $0.formUnion($1.script.invalidKinds) }
        // The 21 kinds ScriptGenerator.invalidWords always offers, and ordering a recipe.
        #expect(kinds.count == 22, "invalid kinds written: \(kinds.sorted())")
    }

    /// With substitutes drawn, the generator's books still compile without
    /// errors, and each fruit's substitutes are resolved as drawn, in order.
    @Test func generatedBooksWithSubstitutesCompileAsDrawn() throws {
        var listed = 0
        for seed in UInt64(1)...40 {
            let generated = BookGenerator.generate(seed: seed, substitutes: true)
            let compilation = RecipeCompiler.compile(generated.files.map { SourceFile(path: $0.path, bytes: Array($0.text.utf8)) })
            #expect(!compilation.diagnostics.containsErrors, "seed \(seed): \(compilation.spots)")
            let book = try #require(compilation.book, "seed \(seed)")
            for fruit in book.fruits {
                let drawn = generated.substitutes[fruit.id] ?? []
                #expect(fruit.substitutes.map { book.fruits[$0.fruit].id } == drawn.map(\.id), "seed \(seed): \(fruit.id)")
                #expect(fruit.substitutes.map(\.ratio) == drawn.map(\.amount), "seed \(seed): \(fruit.id)")
                #expect(fruit.substitutes.allSatisfy { (1...3).contains($0.ratio) && book.fruits[$0.fruit].id != fruit.id })
            }
            listed += generated.substitutes.count
        }
        #expect(listed >= 40, "fruits with substitutes over 40 seeds: \(listed)")
        // Off, the default, a seed draws no substitutes and the same files as before the flag.
        #expect(BookGenerator.generate(seed: 7).substitutes.isEmpty)
        #expect(BookGenerator.generate(seed: 7).yaml == BookGenerator.generate(seed: 7, substitutes: false).yaml)
    }

    /// The model on the flattening example of docs/recipes.md, worked by hand,
    /// so a wrong model cannot agree with a wrong engine unnoticed.
    @Test func theReferenceModelFollowsTheDocs() {
        let book = GeneratedBook(
            fruits: ["strawberry", "kiwi"],
            openingStock: ["strawberry": 20],
            blends: [
                .init(id: "syrup", isMenuItem: false, ingredients: [.init(id: "strawberry", amount: 2)]),
                .init(id: "base", isMenuItem: false, ingredients: [.init(id: "syrup", amount: 3), .init(id: "strawberry", amount: 1)]),
                .init(id: "deluxe", isMenuItem: true, ingredients: [.init(id: "base", amount: 2), .init(id: "strawberry", amount: 1)]),
                .init(id: "kiwi-cup", isMenuItem: true, ingredients: [.init(id: "kiwi", amount: 1), .init(id: "deluxe", amount: 1)]),
            ]
        )
        var model = ReferenceShop(book: book)
        #expect(model.need(of: "deluxe") == ["strawberry": 15])
        #expect(model.need(of: "kiwi-cup") == ["strawberry": 15, "kiwi": 1])
        let run = model.run([
            "deluxe x2   # 15 of 20, then 5 left",
            "kiwi-cup",
            "restock kiwi 1",
            "restock strawberry 10#",
            "kiwi-cup x0",
            "base",
            "",
            "\tkiwi-cup\t",
        ])
        #expect(run.orders == [
            OrderRecord(line: 1, menu: "deluxe", refusal: nil),
            OrderRecord(line: 1, menu: "deluxe", refusal: [Shortfall(fruit: "strawberry", need: 15, have: 5)]),
            OrderRecord(line: 2, menu: "kiwi-cup", refusal: [
                Shortfall(fruit: "strawberry", need: 15, have: 5), Shortfall(fruit: "kiwi", need: 1, have: 0),
            ]),
            OrderRecord(line: 8, menu: "kiwi-cup", refusal: nil),
        ])
        #expect(run.restocks == [
            RestockRecord(line: 3, fruit: "kiwi", stock: 1), RestockRecord(line: 4, fruit: "strawberry", stock: 15),
        ])
        #expect(run.skippedLines == [5, 6])
        #expect(run.finalStock == ["strawberry": 0, "kiwi": 0])
    }
}

/// Records the first difference between two runs' sequences, if any.
func expectSame<T: Equatable & CustomStringConvertible>(
    _ actual: [T], _ expected: [T], _ what: String, _ testCase: DifferentialCase, line: (T) -> Int,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    if let difference = testCase.difference(in: what, actual: actual, expected: expected, line: line) {
        Issue.record(Comment(rawValue: difference), sourceLocation: sourceLocation)
    }
}
