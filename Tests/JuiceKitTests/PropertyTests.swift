import DifferentialSupport
import Foundation
@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics
import JuiceBook
import JuiceEngine
import JuiceSimulation
import JuiceLint
import Testing

/// Properties that must hold for every book and script, each checked on
/// `PropertyCase.count` seeded cases (small books from `BookGenerator`, 5–80
/// line scripts with `set` and `stock` from `PropertyScriptGenerator`) or, for
/// the linter, `LintCase.count` books over several files, many with faults.
///
/// A failing case is reported with its seed and the text that rebuilds it:
/// `PropertyCase(seed:)` or `LintCase(seed:)` gives the same book and script on
/// any machine, since `SplitMix64` does its own arithmetic.
///
/// `PropertyTests.Checkers` below feeds each checker a tampered result, so a
/// checker that can no longer fail does not pass unnoticed.
@Suite("properties: invariants over a thousand generated cases each")
struct PropertyTests {
    /// How many cases each property runs; `everyPropertyRunsAThousandCases` holds it there.
    static let caseCount = PropertyCase.count

    @Test func everyPropertyRunsAThousandCases() {
        #expect(Self.caseCount >= 1_000)
        #expect(PropertyCase.seeds.count == Self.caseCount)
        #expect(Set(PropertyCase.seeds).count == Self.caseCount, "seeds must be distinct")
        #expect(LintCase.seeds.count >= 1_000)
        #expect(Set(LintCase.seeds).count == LintCase.seeds.count, "seeds must be distinct")
    }

    /// For every fruit, the opening stock (or the last `set`) plus what was
    /// restocked since, minus what served orders took since, is the stock: at
    /// every restock and `stock` command, and at the end.
    @Test func conservation() {
        let checked = checkProperty("conservation", seeds: PropertyCase.seeds, reproduce: { PropertyCase(seed: $0).reproduction }) { seed in
            let (testCase, book) = try CompiledCase.compiled(seed)
            let run = EngineRun.byLine(book, testCase.script.lines)
            return PropertyCheck.conservation(
                fruits: book.fruits.map(\.id), opening: stockByID(book.openingStock, book), needs: needsByID(book),
                events: run.events, finalStock: stockByID(run.summary.stock, book)
            )
        }
        #expect(checked == Self.caseCount)
    }

    /// No count is ever below zero: in the store after every command (each
    /// order of an `xN` line on its own), in any event, or at the end.
    @Test func nonNegativity() {
        let checked = checkProperty("non-negativity", seeds: PropertyCase.seeds, reproduce: { PropertyCase(seed: $0).reproduction }) { seed in
            let (testCase, book) = try CompiledCase.compiled(seed)
            let run = EngineRun.stepped(book, testCase.script.lines)
            return PropertyCheck.nonNegativity(steps: run.steps, events: run.events, finalStock: stockByID(run.summary.stock, book))
        }
        #expect(checked == Self.caseCount)
    }

    /// A refused order changes nothing, and a served one takes exactly its
    /// flattened need: all of it or none, order by order.
    @Test func atomicity() {
        var refusals = 0
        let checked = checkProperty("atomicity", seeds: PropertyCase.seeds, reproduce: { PropertyCase(seed: $0).reproduction }) { seed in
            let (testCase, book) = try CompiledCase.compiled(seed)
            let run = EngineRun.stepped(book, testCase.script.lines)
            refusals += run.steps.filter(\.isRefusal).count
            return PropertyCheck.atomicity(steps: run.steps, needs: needsByID(book))
        }
        #expect(checked == Self.caseCount)
        // The property says nothing unless orders are refused, and often.
        #expect(refusals >= Self.caseCount, "only \(refusals) refused orders were checked")
    }

    /// The same book and script give byte-identical reports, text and JSON
    /// (standard output and standard error), and the same lint report.
    ///
    /// Both runs are in one process, so this catches output that depends on a
    /// collection's storage (two equal dictionaries can iterate in different
    /// orders), not on the per-process hash seed, which only separate
    /// processes vary.
    @Test func determinism() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let lintFormats: [LintFormat] = [.text, .json, .github, .sarif]
        let checked = checkProperty("determinism", seeds: PropertyCase.seeds, reproduce: { PropertyCase(seed: $0).reproduction }) { seed in
            let (testCase, book) = try CompiledCase.compiled(seed)
            var violations: [String] = []
            // csv is the menu card's and the shopping list's, not a run's.
            for format in RunFormat.allCases where format != .csv {
                let first = try scratch.capture { EngineRun.render(book, testCase.script.lines, format: format, output: $0, errors: $1) }
                let second = try scratch.capture { EngineRun.render(book, testCase.script.lines, format: format, output: $0, errors: $1) }
                if let difference = firstDifference(first.output, second.output) {
                    violations.append("juice-run --format \(format.rawValue), standard output: \(difference)")
                }
                if let difference = firstDifference(first.errors, second.errors) {
                    violations.append("juice-run --format \(format.rawValue), standard error: \(difference)")
                }
            }
            let paths = try scratch.write(testCase.book.files)
            let format = lintFormats[Int(seed % UInt64(lintFormats.count))]
            violations += compare(
                try scratch.lint(paths, format: format), try scratch.lint(paths, format: format),
                "juice-lint --format \(format.rawValue), run twice"
            )
            return violations
        }
        #expect(checked == Self.caseCount)
    }

    /// The engine agrees with `ReferenceShop` (through `ReferenceRunner`, which
    /// adds `set` and `stock`): every event in order (served or refused with
    /// each shortfall, restocks, sets, stock listings, skipped lines), the
    /// totals and the final stock, reading lines as text and as bytes.
    @Test func agreementWithTheReferenceModel() {
        let checked = checkProperty("agreement", seeds: PropertyCase.seeds, reproduce: { PropertyCase(seed: $0).reproduction }) { seed in
            let (testCase, book) = try CompiledCase.compiled(seed)
            var violations: [String] = []
            if book.fruits.map(\.id) != testCase.book.fruits {
                violations.append("fruit order \(book.fruits.map(\.id)), the model's \(testCase.book.fruits)")
            }
            if needsByID(book) != testCase.expectedNeeds {
                violations.append("flattened needs \(needsByID(book)), the model's \(testCase.expectedNeeds)")
            }
            // The model must skip exactly the lines the generator wrote to be invalid, or the model is wrong.
            let skipped = testCase.expected.events.compactMap { event -> Int? in
                if case .skipped(let line) = event { return line }
                return nil
            }
            if skipped != testCase.script.invalidLines {
                violations.append("the model skips lines \(skipped), the generator wrote \(testCase.script.invalidLines) as invalid")
            }
            let runs = [
                ("run(line:)", EngineRun.byLine(book, testCase.script.lines)),
                ("run(bytes:)", EngineRun.byBytes(book, testCase.script.lines)),
            ]
            for (how, run) in runs {
                violations += PropertyCheck.agreement(
                    events: run.events, finalStock: stockByID(run.summary.stock, book), expected: testCase.expected
                ).map { "\(how): \($0)" }
                let orders = testCase.expected.events.compactMap { event -> OrderRecord? in
                    if case .order(let record) = event { return record }
                    return nil
                }
                let totals = [run.summary.orders, run.summary.served, run.summary.refused, run.summary.skippedLines]
                let servedCount = orders.filter { $0.refusal == nil }.count
                let expectedTotals = [orders.count, servedCount, orders.count - servedCount, skipped.count]
                if totals != expectedTotals {
                    violations.append("\(how): orders, served, refused, skipped \(totals), the model's \(expectedTotals)")
                }
            }
            return violations
        }
        #expect(checked == Self.caseCount)
    }

    /// `juice-lint` reports the same bytes (report, summary and exit code)
    /// however the files are listed on its command line: in a random order,
    /// and in the text format now and then as their directory or with a file
    /// twice. One test per format, so the four run side by side.
    ///
    /// Books with faults are where this matters: which of two duplicate
    /// definitions is "first", and so gets the note, depends on file order.
    @Test(arguments: [LintFormat.text, .json, .github, .sarif])
    func lintOutputDoesNotDependOnFileOrder(format: LintFormat) throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        var rules = Set<String>()
        var casesWithErrors = 0
        let checked = checkProperty("stability (\(format.rawValue))", seeds: LintCase.seeds, reproduce: { LintCase(seed: $0).reproduction }) { seed in
            let lintCase = try CompiledCase.lintCase(seed)
            let paths = try scratch.write(lintCase.files)
            var rng = SplitMix64(seed: seed)
            var shuffled = rng.shuffled(paths)
            if shuffled == paths { shuffled.reverse() }
            var listings = [shuffled]
            // Naming the directory, or a file twice, changes how the files are
            // found, not what is rendered from them, so one format is enough there.
            if format == .text {
                switch seed % 4 {
                case 0: listings.append([scratch.bookPath])
                case 1: listings.append(shuffled + [rng.pick(paths)])
                default: break
                }
            }
            var violations: [String] = []
            let reference = try scratch.lint(paths, format: format)
            let errors = reference.counts?.errors ?? 0
            if errors > 0 { casesWithErrors += 1 }
            if lintCase.expectsErrors && errors == 0 {
                violations.append("faults \(lintCase.faults) were written, but juice-lint reports no error")
            }
            if format == .text { rules.formUnion(ruleIDs(inHumanReport: reference.output)) }
            for listing in listings {
                let shown = listing.map { $0.replacingOccurrences(of: scratch.bookPath + "/", with: "") }
                violations += compare(reference, try scratch.lint(listing, format: format), "--format \(format.rawValue) with the files as \(shown)")
            }
            return violations
        }
        #expect(checked == LintCase.seeds.count)
        // The property is only worth something on diagnostics, errors included.
        #expect(casesWithErrors >= LintCase.seeds.count / 2, "only \(casesWithErrors) cases had errors")
        if format == .text {
            let wanted: Set = [
                "unknown-fruit", "duplicate-definition", "zero-amount", "negative-amount", "empty-recipe", "recipe-cycle",
                "yaml-syntax", "unknown-key", "invalid-name", "unused-suppression", "missing-stock", "unused-fruit",
                "unused-recipe", "never-makeable",
            ]
            #expect(wanted.isSubset(of: rules), "rules never reported: \(wanted.subtracting(rules).sorted())")
        }
    }

    /// Every book `BookGenerator` drew for the cases compiles, except those
    /// that open a file with `...` (`GeneratedBook.opensAFileWithDocumentEnd`),
    /// which libyaml stops at: the cases leave out exactly those, no more.
    @Test func generatedBooksCompileUnlessAFileOpensWithDocumentEnd() throws {
        var left = 0
        for seed in PropertyCase.seeds {
            let entry = try #require(CompiledCase.all[seed])
            if case .failure(let failure) = entry.book { Issue.record("PropertyCase(seed: \(seed)): \(failure)") }
            for book in entry.testCase.redrawn {
                left += 1
                let compilation = RecipeCompiler.compile(book.files.map { SourceFile(path: $0.path, bytes: Array($0.text.utf8)) })
                let stops = compilation.diagnostics.contains { $0.rule == .yamlSyntax && $0.message == "did not find expected node content" }
                #expect(stops, "PropertyCase(seed: \(seed)) left out a book that opens a file with '...' but compiles\n\(book.yaml)")
            }
        }
        // About one book in a hundred; many more would mean the test above is too broad.
        #expect(left <= PropertyCase.seeds.count / 20, "\(left) books left out")
    }

    /// The cases exercise what the properties are about: served and refused
    /// orders, `xN`, restocks, `set` (often to 0), `stock`, and invalid lines of
    /// every kind, in most cases together; and lint books of several files.
    @Test func theCasesCoverWhatThePropertiesNeed() {
        var served = 0, refused = 0, repeated = 0, restocks = 0, sets = 0, emptied = 0, listings = 0, skipped = 0, mixed = 0
        var kinds = Set<String>()
        for seed in PropertyCase.seeds {
            guard let testCase = CompiledCase.all[seed]?.testCase else {
                Issue.record("no property case for seed \(seed)")
                continue
            }
            #expect((5...80).contains(testCase.script.lines.count), "seed \(seed)")
            kinds.formUnion(testCase.script.invalidKinds)
            var caseServed = 0, caseRefused = 0
            var lastOrderLine = 0
            for event in testCase.expected.events {
                switch event {
                case .order(let record):
                    if record.refusal == nil { caseServed += 1 } else { caseRefused += 1 }
                    if record.line == lastOrderLine { repeated += 1 }  // the second and later orders of an `xN` line
                    lastOrderLine = record.line
                case .restock: restocks += 1
                case .set(_, _, let stock): sets += 1; if stock == 0 { emptied += 1 }
                case .stock: listings += 1
                case .skipped: skipped += 1
                }
            }
            served += caseServed
            refused += caseRefused
            if caseServed > 0 && caseRefused > 0 { mixed += 1 }
        }
        let count = PropertyCase.seeds.count
        #expect(served >= 5 * count && refused >= 5 * count, "served \(served), refused \(refused)")
        #expect(repeated >= 5 * count, "only \(repeated) orders came from the second and later repeats of 'xN' lines")
        #expect(restocks >= 5 * count && sets >= 2 * count && emptied >= count / 2, "restocks \(restocks), sets \(sets) (\(emptied) to 0)")
        #expect(listings >= count && skipped >= count, "stock listings \(listings), skipped lines \(skipped)")
        #expect(mixed >= count * 3 / 4, "only \(mixed) cases both serve and refuse")
        // ScriptGenerator's 22 kinds of invalid line and PropertyScriptGenerator's 11.
        #expect(kinds.count == 33, "invalid kinds written: \(kinds.sorted())")

        let lintCases = CompiledCase.lintCases.values
        #expect(lintCases.allSatisfy { $0.files.count >= 2 }, "every lint book has several files")
        for fault in BookFault.allCases {
            let written = lintCases.filter { $0.faults.contains(fault) }.count
            #expect(written >= LintCase.seeds.count / 20, "fault '\(fault)' written in only \(written) cases")
        }
        #expect(lintCases.filter { $0.faults.isEmpty }.count >= LintCase.seeds.count / 10, "clean books")
    }
}

extension PropertyTests {
    /// Each checker on a real case, untouched and then tampered with: it must
    /// pass the first and catch the second, naming what is wrong.
    @Suite("properties: the checkers catch what they check")
    struct Checkers {
        /// The first property case that serves, refuses, restocks and sets, so
        /// every checker has something of each kind to tamper with.
        static func sample() throws -> (testCase: PropertyCase, book: RecipeBook) {
            let testCase = try #require(PropertyCase.seeds.lazy.map { PropertyCase(seed: $0) }.first { testCase in
                let events = testCase.expected.events
                return events.contains(where: \.isServedOrder) && events.contains(where: \.isRefusedOrder)
                    && events.contains { if case .restock = $0 { return true } else { return false } }
                    && events.contains { if case .set = $0 { return true } else { return false } }
            })
            return (testCase, try compiledBook(testCase.book))
        }

        @Test func conservationCatchesATamperedFinalStock() throws {
            let (testCase, book) = try Self.sample()
            let run = EngineRun.byLine(book, testCase.script.lines)
            let fruits = book.fruits.map(\.id)
            func check(_ finalStock: [String: Int], _ events: [ShopEvent]) -> [String] {
                PropertyCheck.conservation(
                    fruits: fruits, opening: stockByID(book.openingStock, book), needs: needsByID(book),
                    events: events, finalStock: finalStock
                )
            }
            let finalStock = stockByID(run.summary.stock, book)
            #expect(check(finalStock, run.events) == [])

            let fruit = try #require(fruits.last)
            var tampered = finalStock
            tampered[fruit, default: 0] += 1
            let violations = check(tampered, run.events)
            #expect(violations.count == 1)
            #expect(violations.first?.contains("final stock of '\(fruit)'") == true, "\(violations)")

            // A restock that claims one more than came in no longer adds up at its own line.
            let restock = try #require(run.events.enumerated().lazy.compactMap { index, event -> (Int, Int, String, Int, Int)? in
                if case .restock(let line, let fruit, let amount, let stock) = event { return (index, line, fruit, amount, stock) }
                return nil
            }.first)
            let (restockIndex, line, restocked, amount, stock) = restock
            var events = run.events
            events[restockIndex] = .restock(line: line, fruit: restocked, amount: amount + 1, stock: stock)
            let inflated = check(finalStock, events)
            #expect(inflated.first?.hasPrefix("line \(line): after the restock '\(restocked)'") == true, "\(inflated)")
        }

        @Test func nonNegativityCatchesANegativeCount() throws {
            let (testCase, book) = try Self.sample()
            let run = EngineRun.stepped(book, testCase.script.lines)
            let finalStock = stockByID(run.summary.stock, book)
            #expect(PropertyCheck.nonNegativity(steps: run.steps, events: run.events, finalStock: finalStock) == [])

            var steps = run.steps
            try #require(!steps.isEmpty)
            let fruit = try #require(book.fruits.first?.id)
            steps[steps.count / 2].after[fruit] = -1
            let violations = PropertyCheck.nonNegativity(steps: steps, events: run.events, finalStock: finalStock)
            #expect(violations.count == 1)
            #expect(violations.first?.contains("'\(fruit)' is -1") == true, "\(violations)")
        }

        @Test func atomicityCatchesARefusedOrderThatTookFruit() throws {
            let (testCase, book) = try Self.sample()
            let run = EngineRun.stepped(book, testCase.script.lines)
            #expect(PropertyCheck.atomicity(steps: run.steps, needs: needsByID(book)) == [])

            var steps = run.steps
            let index = try #require(steps.firstIndex { $0.isRefusal })
            let fruit = try #require(steps[index].after.keys.sorted().first)
            steps[index].after[fruit, default: 0] -= 1
            let violations = PropertyCheck.atomicity(steps: steps, needs: needsByID(book))
            #expect(violations.count == 1)
            #expect(violations.first?.contains("refused") == true && violations.first?.contains("'\(fruit)'") == true, "\(violations)")
        }

        @Test func atomicityCatchesAServedOrderThatTookTooLittle() throws {
            let (testCase, book) = try Self.sample()
            let run = EngineRun.stepped(book, testCase.script.lines)
            var steps = run.steps
            let index = try #require(steps.firstIndex { $0.events.contains(where: \.isServedOrder) })
            let fruit = try #require(steps[index].after.keys.sorted().first)
            steps[index].after[fruit, default: 0] += 1
            let violations = PropertyCheck.atomicity(steps: steps, needs: needsByID(book))
            #expect(violations.count == 1)
            #expect(violations.first?.contains("served") == true, "\(violations)")
        }

        @Test func agreementCatchesAFlippedOutcomeAndAWrongFinalStock() throws {
            let (testCase, book) = try Self.sample()
            let run = EngineRun.byLine(book, testCase.script.lines)
            let finalStock = stockByID(run.summary.stock, book)
            #expect(PropertyCheck.agreement(events: run.events, finalStock: finalStock, expected: testCase.expected) == [])

            var events = run.events
            let served = try #require(events.enumerated().lazy.compactMap { index, event -> (Int, OrderRecord)? in
                if case .order(let record) = event, record.refusal == nil { return (index, record) }
                return nil
            }.first)
            let (index, record) = served
            var refused = record
            refused.refusal = [Shortfall(fruit: "mango", need: 1, have: 0)]
            events[index] = .order(refused)
            let flipped = PropertyCheck.agreement(events: events, finalStock: finalStock, expected: testCase.expected)
            #expect(flipped.count == 1)
            #expect(flipped.first?.contains("#\(index + 1)") == true, "\(flipped)")

            var wrongStock = finalStock
            let fruit = try #require(book.fruits.first?.id)
            wrongStock[fruit, default: 0] += 2
            let wrong = PropertyCheck.agreement(events: run.events, finalStock: wrongStock, expected: testCase.expected)
            #expect(wrong.count == 1)
            #expect(wrong.first?.contains("final stock") == true, "\(wrong)")
        }

        @Test func byteComparisonNamesTheFirstDifferingLine() {
            #expect(firstDifference(Array("a\nb\nc\n".utf8), Array("a\nb\nc\n".utf8)) == nil)
            #expect(firstDifference(Array("a\nb\nc\n".utf8), Array("a\nB\nc\n".utf8)) == "line 2 differs: 'b' then 'B'")
            #expect(firstDifference(Array("a\n".utf8), Array("a\nb\n".utf8)) == "line 2 differs: (end) then 'b'")
            let long = String(repeating: "x", count: 200)
            #expect(firstDifference(Array((long + "a" + long).utf8), Array((long + "b" + long).utf8))
                == "line 1, column 201 differs: '…\(long.prefix(60))a\(long.prefix(59))…' then '…\(long.prefix(60))b\(long.prefix(59))…'")
        }
    }
}

// MARK: - Running a property

/// A case that cannot even be set up (the generated book does not compile).
struct PropertySetupFailure: Error, CustomStringConvertible {
    var description: String
}

/// Runs `check` on every seed and records one issue per failing seed (the
/// first five in full, with the text that rebuilds the case, then a count), so
/// a broken property does not bury the report under a thousand copies.
/// Returns how many seeds were checked.
@discardableResult
func checkProperty(
    _ property: String, seeds: [UInt64], reproduce: (UInt64) -> String,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ check: (UInt64) throws -> [String]
) -> Int {
    var failing: [UInt64] = []
    var checked = 0
    for seed in seeds {
        let violations: [String]
        do {
            violations = try check(seed)
        } catch {
            violations = ["\(error)"]
        }
        checked += 1
        guard !violations.isEmpty else { continue }
        failing.append(seed)
        if failing.count <= 5 {
            let shown = violations.prefix(10).map { "  - " + $0 }.joined(separator: "\n")
            let more = violations.count > 10 ? "\n  ... and \(violations.count - 10) more" : ""
            Issue.record(
                Comment(rawValue: "\(property) fails for seed \(seed):\n\(shown)\(more)\n\(reproduce(seed))"),
                sourceLocation: sourceLocation
            )
        }
    }
    if failing.count > 5 {
        Issue.record(
            Comment(rawValue: "\(property) fails for \(failing.count) of \(seeds.count) seeds: "
                + failing.prefix(50).map(String.init).joined(separator: ", ")),
            sourceLocation: sourceLocation
        )
    }
    return checked
}

// MARK: - The checkers

/// The properties as plain functions over what a run reported, in the
/// model's terms. Each returns one line per violation, naming the script line
/// and the fruit, and nothing when the property holds.
enum PropertyCheck {
    /// Follows every fruit from the opening stock, or from its last `set`,
    /// adding restocks and taking served orders' needs, and compares the result
    /// with every count the run reports: after each restock, at each `stock`
    /// command, and at the end.
    static func conservation(
        fruits: [String], opening: [String: Int], needs: [String: [String: Int]], events: [ShopEvent], finalStock: [String: Int]
    ) -> [String] {
        var base = opening
        var restocked: [String: Int] = [:]
        var consumed: [String: Int] = [:]
        var violations: [String] = []
        func expected(_ fruit: String) -> Int {
            (base[fruit] ?? 0) + (restocked[fruit] ?? 0) - (consumed[fruit] ?? 0)
        }
        func account(_ fruit: String) -> String {
            "from \(base[fruit] ?? 0) + \(restocked[fruit] ?? 0) restocked - \(consumed[fruit] ?? 0) consumed = \(expected(fruit))"
        }
        for event in events {
            switch event {
            case .order(let record):
                guard record.refusal == nil else { continue }
                guard let need = needs[record.menu] else {
                    violations.append("line \(record.line): served '\(record.menu)', which has no known need")
                    continue
                }
                for (fruit, amount) in need { consumed[fruit, default: 0] += amount }
            case .restock(let line, let fruit, let amount, let stock):
                restocked[fruit, default: 0] += amount
                if stock != expected(fruit) {
                    violations.append("line \(line): after the restock '\(fruit)' is \(stock), but \(account(fruit))")
                }
            case .set(_, let fruit, let stock):
                base[fruit] = stock
                restocked[fruit] = 0
                consumed[fruit] = 0
            case .stock(let line, let counts):
                for fruit in fruits where counts[fruit] != expected(fruit) {
                    let shown = counts[fruit].map(String.init) ?? "nothing"
                    violations.append("line \(line): 'stock' shows '\(fruit)' at \(shown), but \(account(fruit))")
                }
            case .skipped:
                continue
            }
        }
        for fruit in fruits where finalStock[fruit] != expected(fruit) {
            violations.append("final stock of '\(fruit)' is \(finalStock[fruit].map(String.init) ?? "missing"), but \(account(fruit))")
        }
        return violations
    }

    /// Every count in the store before and after each step, in every event
    /// and in the final stock is zero or more.
    static func nonNegativity(steps: [Step], events: [ShopEvent], finalStock: [String: Int]) -> [String] {
        var violations: [String] = []
        func check(_ counts: [String: Int], _ when: String) {
            for (fruit, count) in counts.sorted(by: { $0.key < $1.key }) where count < 0 {
                violations.append("\(when): '\(fruit)' is \(count)")
            }
        }
        for step in steps {
            check(step.before, "line \(step.line), before \(step.command)")
            check(step.after, "line \(step.line), after \(step.command)")
        }
        for event in events {
            switch event {
            case .order(let record):
                for short in record.refusal ?? [] where short.have < 0 {
                    violations.append("line \(record.line): the refusal of '\(record.menu)' says '\(short.fruit)' has \(short.have)")
                }
            case .restock(let line, let fruit, _, let stock), .set(let line, let fruit, let stock):
                if stock < 0 { violations.append("line \(line): \(event) leaves '\(fruit)' at \(stock)") }
            case .stock(let line, let counts):
                check(counts, "line \(line), 'stock'")
            case .skipped:
                continue
            }
        }
        check(finalStock, "final stock")
        return violations
    }

    /// For each single order: a refusal leaves the stock exactly as it was; a
    /// serve takes exactly the item's need of each fruit and nothing else.
    static func atomicity(steps: [Step], needs: [String: [String: Int]]) -> [String] {
        var violations: [String] = []
        for step in steps {
            let orders = step.events.compactMap { event -> OrderRecord? in
                if case .order(let record) = event { return record }
                return nil
            }
            guard let order = orders.first else { continue }
            guard orders.count == 1 else {
                violations.append("line \(step.line): one step reported \(orders.count) orders")
                continue
            }
            let fruits = Set(step.before.keys).union(step.after.keys).sorted()
            func change(_ fruit: String) -> String {
                "'\(fruit)' from \(step.before[fruit].map(String.init) ?? "nothing") to \(step.after[fruit].map(String.init) ?? "nothing")"
            }
            if order.refusal != nil {
                for fruit in fruits where step.before[fruit] != step.after[fruit] {
                    violations.append("line \(step.line): refused '\(order.menu)' changed \(change(fruit))")
                }
            } else {
                let need = needs[order.menu] ?? [:]
                for fruit in fruits where step.before[fruit].map({ $0 - (need[fruit] ?? 0) }) != step.after[fruit] {
                    violations.append("line \(step.line): served '\(order.menu)' changed \(change(fruit)), but it needs \(need[fruit] ?? 0)")
                }
            }
        }
        return violations
    }

    /// The engine's events and final stock against the model's: the first
    /// event that differs (with its position, so the rest need not be read),
    /// and every fruit whose final count differs.
    static func agreement(events: [ShopEvent], finalStock: [String: Int], expected: ModelRun) -> [String] {
        var violations: [String] = []
        if events != expected.events {
            let shared = min(events.count, expected.events.count)
            let index = (0..<shared).first { events[$0] != expected.events[$0] } ?? shared
            func show(_ list: [ShopEvent]) -> String { list.indices.contains(index) ? list[index].description : "nothing" }
            violations.append(
                "event #\(index + 1) of \(events.count) (the model has \(expected.events.count)): "
                    + "engine \(show(events)), model \(show(expected.events))"
            )
        }
        if finalStock != expected.finalStock {
            violations.append("final stock \(ShopEvent.describe(finalStock)), the model's \(ShopEvent.describe(expected.finalStock))")
        }
        return violations
    }
}

// MARK: - Running the engine

/// One command as the engine ran it, with the stock either side, by fruit id.
/// An `xN` line is N steps of one order each, so atomicity is checked per order.
struct Step {
    var line: Int
    var command: String
    var before: [String: Int]
    var after: [String: Int]
    /// What the reporter heard during the step.
    var events: [ShopEvent]

    var isRefusal: Bool { events.contains(where: \.isRefusedOrder) }
}

extension ShopEvent {
    var isServedOrder: Bool {
        if case .order(let record) = self { return record.refusal == nil }
        return false
    }

    var isRefusedOrder: Bool {
        if case .order(let record) = self { return record.refusal != nil }
        return false
    }
}

/// Records every event of a simulation as a `ShopEvent`, ids for indices.
struct EventRecorder: SimulationReporter {
    let book: RecipeBook
    private(set) var events: [ShopEvent] = []

    init(book: RecipeBook) {
        self.book = book
    }

    mutating func order(sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome) {
        events.append(.order(OrderRecord(line: line, menu: menu, outcome: outcome, book: book)))
    }

    mutating func restock(line: Int, fruit: Int, amount: Int, stock: Int) {
        events.append(.restock(line: line, fruit: book.fruits[fruit].id, amount: amount, stock: stock))
    }

    mutating func set(line: Int, fruit: Int, stock: Int) {
        events.append(.set(line: line, fruit: book.fruits[fruit].id, stock: stock))
    }

    mutating func stock(line: Int, counts: [Int]) {
        events.append(.stock(line: line, counts: stockByID(counts, book)))
    }

    mutating func problem(_ problem: ScriptProblem) {
        events.append(.skipped(line: problem.line))
    }

    mutating func finish(_ summary: SimulationSummary) {}
}

/// The ways the property tests drive the engine.
enum EngineRun {
    static let file = "day.orders"

    /// Line by line through `Simulation.run(line:number:)`, as text.
    static func byLine(_ book: RecipeBook, _ lines: [String]) -> (events: [ShopEvent], summary: SimulationSummary) {
        var simulation = Simulation(book: book, file: file, reporter: EventRecorder(book: book))
        for (index, line) in lines.enumerated() {
            simulation.run(line: line, number: index + 1)
        }
        let summary = simulation.finish()
        return (simulation.reporter.events, summary)
    }

    /// Line by line through `Simulation.run(bytes:number:file:)`, as `juice-run` reads a file.
    static func byBytes(_ book: RecipeBook, _ lines: [String]) -> (events: [ShopEvent], summary: SimulationSummary) {
        var simulation = Simulation(book: book, file: file, reporter: EventRecorder(book: book))
        for (index, line) in lines.enumerated() {
            Array(line.utf8).withUnsafeBufferPointer { simulation.run(bytes: $0, number: index + 1, file: file) }
        }
        let summary = simulation.finish()
        return (simulation.reporter.events, summary)
    }

    /// Command by command, each order of an `xN` line on its own, reading the
    /// store before and after each: the script parser makes the commands and
    /// `Simulation.run(_:line:file:)` runs them, as `run(line:)` would.
    static func stepped(_ book: RecipeBook, _ lines: [String]) -> (steps: [Step], events: [ShopEvent], summary: SimulationSummary) {
        let parser = ScriptParser(book: book, file: file)
        var simulation = Simulation(book: book, file: file, reporter: EventRecorder(book: book))
        var steps: [Step] = []
        for (index, line) in lines.enumerated() {
            let number = index + 1
            let command: ScriptCommand?
            do {
                command = try parser.parse(line, number: number)
            } catch {
                simulation.skip(error)
                continue
            }
            guard let command else { continue }
            var pieces = [command]
            if case .order(let menu, let count) = command {
                pieces = Array(repeating: .order(menu: menu, count: 1), count: count)
            }
            for piece in pieces {
                let before = stockByID(simulation.maker.store.counts, book)
                let heard = simulation.reporter.events.count
                simulation.run(piece, line: number, file: file)
                steps.append(Step(
                    line: number, command: describe(piece, book), before: before,
                    after: stockByID(simulation.maker.store.counts, book),
                    events: Array(simulation.reporter.events[heard...])
                ))
            }
        }
        let summary = simulation.finish()
        return (steps, simulation.reporter.events, summary)
    }

    /// A command as a script would say it, for failure messages.
    static func describe(_ command: ScriptCommand, _ book: RecipeBook) -> String {
        switch command {
        case .order(let menu, let count): return "'\(book.menu[menu].id)'" + (count == 1 ? "" : " x\(count)")
        case .restock(let fruit, let amount): return "'restock \(book.fruits[fruit].id) \(amount)'"
        case .set(let fruit, let amount): return "'set \(book.fruits[fruit].id) \(amount)'"
        case .restockRecipe(let recipe, let amount): return "'restock \(book.recipes[recipe].id) \(amount)'"
        case .setRecipe(let recipe, let amount): return "'set \(book.recipes[recipe].id) \(amount)'"
        case .stock: return "'stock'"
        }
    }

    /// The whole report `juice-run --format FORMAT` writes, line by line as bytes.
    static func render(_ book: RecipeBook, _ lines: [String], format: RunFormat, output: OutputBuffer, errors: OutputBuffer) {
        switch format {
        case .text:
            run(book, lines, TextSimulationReporter(book: book, output: output, errors: errors))
        case .json, .csv:
            run(book, lines, JSONLinesSimulationReporter(book: book, output: output, errors: errors))
        }
    }

    private static func run<Reporter: SimulationReporter>(_ book: RecipeBook, _ lines: [String], _ reporter: Reporter) {
        var simulation = Simulation(book: book, file: file, reporter: reporter)
        for (index, line) in lines.enumerated() {
            Array(line.utf8).withUnsafeBufferPointer { simulation.run(bytes: $0, number: index + 1, file: file) }
        }
        _ = simulation.finish()
    }
}

// MARK: - Files and bytes

/// A temporary directory for one property test: the book of the case at
/// hand, the lint configuration, and files that capture a report's bytes.
struct ScratchDirectory {
    let path: String
    var bookPath: String { path + "/book" }
    /// An empty configuration, named explicitly so a `.juice-lint.yaml` in the
    /// working directory cannot change what is checked.
    var configPath: String { path + "/lint-config.yaml" }

    /// In `/dev/shm` when there is one: on a disk mounted with `discard`, as
    /// this project's CI machine is, every truncate and unlink of the thousands
    /// of small files these tests write costs milliseconds, more than the work
    /// being tested; in memory it costs microseconds.
    init() throws {
        var isDirectory: ObjCBool = false
        let memory = FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory) && isDirectory.boolValue
            && access("/dev/shm", W_OK) == 0
        let root = memory ? "/dev/shm" : FileManager.default.temporaryDirectory.path
        var template = Array((root + "/juice-properties-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ $0.baseAddress.map { mkdtemp($0) != nil } ?? false }) else {
            throw PropertySetupFailure(description: "cannot make a temporary directory: \(String(cString: strerror(errno)))")
        }
        // mkdtemp replaced the X's in place.
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        try Data().write(to: URL(fileURLWithPath: configPath))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Replaces the book directory's contents with `files`; returns their paths, in order.
    func write(_ files: [GeneratedBook.File]) throws -> [String] {
        try? FileManager.default.removeItem(atPath: bookPath)
        return try files.map { file in
            let url = URL(fileURLWithPath: bookPath + "/" + file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.text.utf8).write(to: url)
            return url.path
        }
    }

    /// What `body` writes to the two buffers, as bytes.
    func capture(_ body: (OutputBuffer, OutputBuffer) -> Void) throws -> (output: [UInt8], errors: [UInt8]) {
        let outputPath = path + "/output", errorsPath = path + "/errors"
        let outputFile = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let errorsFile = open(errorsPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer {
            if outputFile >= 0 { close(outputFile) }
            if errorsFile >= 0 { close(errorsFile) }
        }
        guard outputFile >= 0, errorsFile >= 0 else {
            throw PropertySetupFailure(description: "cannot open a capture file: \(String(cString: strerror(errno)))")
        }
        do {
            let output = OutputBuffer(descriptor: outputFile)
            let errors = OutputBuffer(descriptor: errorsFile)
            body(output, errors)
            output.flush()
            errors.flush()
        }
        return (try RecipeSources.readFile(outputPath), try RecipeSources.readFile(errorsPath))
    }

    /// `juice-lint --format FORMAT --color never --config EMPTY PATHS...`, as the executable runs it.
    func lint(_ paths: [String], format: LintFormat) throws -> Linter.Report {
        var options = LintOptions()
        options.paths = paths
        options.format = format
        options.color = .never
        options.configPath = configPath
        return try Linter(options: options, environment: [:], outputIsTerminal: false).run()
    }
}

/// Where two reports differ, if they do: the first differing line of each,
/// cut to a window around the first differing character when the line is
/// long (a JSON report is one line).
func firstDifference(_ first: [UInt8], _ second: [UInt8]) -> String? {
    guard first != second else { return nil }
    let a = String(decoding: first, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
    let b = String(decoding: second, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
    let index = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
    let column = a.indices.contains(index) && b.indices.contains(index)
        ? (0..<min(a[index].count, b[index].count)).first { a[index][$0] != b[index][$0] } ?? min(a[index].count, b[index].count)
        : 0
    let window = 60
    func show(_ lines: [[Character]]) -> String {
        // A last empty piece is the final newline, not a line.
        guard lines.indices.contains(index), !(index == lines.count - 1 && lines[index].isEmpty) else { return "(end)" }
        let line = lines[index]
        guard line.count > 2 * window else { return "'\(String(line))'" }
        let start = max(0, column - window), end = min(line.count, column + window)
        return "'" + (start > 0 ? "…" : "") + String(line[start..<end]) + (end < line.count ? "…" : "") + "'"
    }
    let place = a.indices.contains(index) && b.indices.contains(index) && max(a[index].count, b[index].count) > 2 * window
        ? "line \(index + 1), column \(column + 1)" : "line \(index + 1)"
    return "\(place) differs: \(show(a)) then \(show(b))"
}

/// Differences between two lint reports: the report, the summary, the exit code.
func compare(_ first: Linter.Report, _ second: Linter.Report, _ what: String) -> [String] {
    var differences: [String] = []
    if let difference = firstDifference(Array(first.output.utf8), Array(second.output.utf8)) {
        differences.append("\(what): report \(difference)")
    }
    if let difference = firstDifference(Array(first.messages.utf8), Array(second.messages.utf8)) {
        differences.append("\(what): summary \(difference)")
    }
    if first.exitCode != second.exitCode {
        differences.append("\(what): exit code \(first.exitCode.rawValue) then \(second.exitCode.rawValue)")
    }
    return differences
}

/// The rule ids in a human-format report, from each diagnostic's headline
/// (`FILE:LINE:COLUMN: SEVERITY: MESSAGE [RULE]`).
func ruleIDs(inHumanReport report: String) -> Set<String> {
    var rules = Set<String>()
    for line in report.split(separator: "\n") where line.hasSuffix("]") {
        guard [": error: ", ": warning: ", ": info: "].contains(where: { line.contains($0) }),
              let open = line.lastIndex(of: "[") else { continue }
        rules.insert(String(line[line.index(after: open)..<line.index(before: line.endIndex)]))
    }
    return rules
}

// MARK: - Books

/// Every property case and its compiled book, and every lint case, made once
/// for all the tests that run on them (each would otherwise spend a second on it).
enum CompiledCase {
    static let all: [UInt64: (testCase: PropertyCase, book: Result<RecipeBook, PropertySetupFailure>)] = Dictionary(
        uniqueKeysWithValues: PropertyCase.seeds.map { seed in
            let testCase = PropertyCase(seed: seed)
            return (seed, (testCase, Result { () throws(PropertySetupFailure) in try compiledBook(testCase.book) }))
        }
    )

    /// Every lint case, made once for the four formats and the coverage test.
    static let lintCases: [UInt64: LintCase] = Dictionary(uniqueKeysWithValues: LintCase.seeds.map { ($0, LintCase(seed: $0)) })

    static func lintCase(_ seed: UInt64) throws -> LintCase {
        guard let lintCase = lintCases[seed] else { throw PropertySetupFailure(description: "no lint case for seed \(seed)") }
        return lintCase
    }

    /// The case for `seed` and its book; throws when the book does not compile.
    static func compiled(_ seed: UInt64) throws -> (testCase: PropertyCase, book: RecipeBook) {
        guard let entry = all[seed] else { throw PropertySetupFailure(description: "no property case for seed \(seed)") }
        return (entry.testCase, try entry.book.get())
    }
}

/// The engine's book for a generated one; a generated book must compile.
func compiledBook(_ generated: GeneratedBook) throws(PropertySetupFailure) -> RecipeBook {
    let compilation = RecipeCompiler.compile(generated.files.map { SourceFile(path: $0.path, bytes: Array($0.text.utf8)) })
    guard let book = compilation.book else {
        let errors = compilation.diagnostics.filter { $0.severity == .error }.map { "\($0.file):\($0.line):\($0.column): \($0.message)" }
        throw PropertySetupFailure(description: "the generated book does not compile: \(errors)")
    }
    return book
}

/// Counts by fruit index as counts by fruit id.
func stockByID(_ counts: [Int], _ book: RecipeBook) -> [String: Int] {
    Dictionary(zip(book.fruits.map(\.id), counts), uniquingKeysWith: { first, _ in first })
}

/// Each menu item's flattened need, by ids.
func needsByID(_ book: RecipeBook) -> [String: [String: Int]] {
    Dictionary(book.menu.map { item in
        (item.id, Dictionary(item.needs.map { (book.fruits[$0.fruit].id, $0.amount) }, uniquingKeysWith: +))
    }, uniquingKeysWith: { first, _ in first })
}
