import Foundation
import Testing
@_spi(Internals) @testable import JuiceSupport
@testable import JuiceEngine
@testable import JuiceSimulation
@testable import JuiceShop

/// Records what a simulation reports, one line per event.
struct RecordingReporter: SimulationReporter {
    var events: [String] = []

    mutating func order(sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome) {
        let text: String
        switch outcome {
        case .served:
            text = "served"
        case .refused(let short):
            text = "refused " + short.map { "fruit \($0.fruit) need \($0.need) have \($0.have)" }.joined(separator: ", ")
        }
        events.append("order \(sequence) line \(line) menu \(menu) \(text)")
    }

    mutating func restock(line: Int, fruit: Int, amount: Int, stock: Int) {
        events.append("restock line \(line) fruit \(fruit) +\(amount) = \(stock)")
    }

    mutating func set(line: Int, fruit: Int, stock: Int) {
        events.append("set line \(line) fruit \(fruit) = \(stock)")
    }

    mutating func stock(line: Int, counts: [Int]) {
        events.append("stock line \(line) \(counts)")
    }

    mutating func problem(_ problem: ScriptProblem) {
        events.append("problem \(problem.file):\(problem.line): \(problem.message)")
    }

    mutating func finish(_ summary: SimulationSummary) {
        events.append("finish")
    }
}

@Suite struct SimulationTests {
    @Test func aScriptRunsLineByLine() throws {
        var simulation = Simulation(book: try shopBook(), file: "day.orders", reporter: RecordingReporter())
        let script = ["smoothie", "restock lime 5", "smoothie x2  # two more", "", "bogus"]
        for (index, line) in script.enumerated() {
            simulation.run(line: line, number: index + 1)
        }
        let summary = simulation.finish()
        // [5, 2, 1]: smoothie refused (lime 1 < 3); lime +5 = 6; two smoothies
        // served: [5-2-2, 2-1-1, 6-3-3] = [1, 0, 0]; 'bogus' skipped.
        #expect(summary.orders == 3)
        #expect(summary.served == 2)
        #expect(summary.refused == 1)
        #expect(summary.skippedLines == 1)
        #expect(summary.stock == [1, 0, 0])
        #expect(simulation.reporter.events == [
            "order 1 line 1 menu 0 refused fruit 2 need 3 have 1",
            "restock line 2 fruit 2 +5 = 6",
            "order 2 line 3 menu 0 served",
            "order 3 line 3 menu 0 served",
            "problem day.orders:5: unknown menu item 'bogus'",
            "finish",
        ])
    }

    @Test func restockOverflowIsReportedAndSkipped() throws {
        let book = try shopBook()
        var simulation = Simulation(
            book: book, file: "day.orders", reporter: RecordingReporter(),
            store: FruitStore(counts: [Int.max, 0, 0])
        )
        simulation.run(line: "restock mango 1", number: 1)
        let summary = simulation.finish()
        #expect(summary.skippedLines == 1)
        #expect(summary.stock == [Int.max, 0, 0])
        #expect(simulation.reporter.events == [
            "problem day.orders:1: restocking 1 'mango' would overflow its stock of 9223372036854775807",
            "finish",
        ])
    }

    /// The source is escaped once per source; the order and restock fast
    /// paths must still write exactly what `JSONWriter` writes.
    @Test func namedSourcesMatchTheJSONWriter() throws {
        let book = try shopBook()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("source-\(UUID().uuidString)").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { unlink(path) }
        var reporter = JSONLinesSimulationReporter(book: book, output: OutputBuffer(descriptor: descriptor), errors: OutputBuffer(descriptor: descriptor))
        let name = "day \"1\"\t.orders"
        reporter.begin(source: .script(name))
        reporter.order(sequence: 4, line: 9, menu: 0, outcome: .served)
        reporter.restock(line: 10, fruit: 1, amount: 2, stock: 3)
        reporter.begin(source: .random)
        reporter.order(sequence: 5, line: 1, menu: 0, outcome: .refused([Shortage(fruit: 2, need: 3, have: 1)]))
        reporter.output.flush()
        close(descriptor)
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == [
            JSONLinesSimulationReporter.orderEventText(book: book, sequence: 4, line: 9, source: name, menu: 0, outcome: .served),
            JSONLinesSimulationReporter.restockEventText(book: book, line: 10, source: name, fruit: 1, amount: 2, stock: 3),
            JSONLinesSimulationReporter.orderEventText(book: book, sequence: 5, line: 1, source: "--random", menu: 0, outcome: .refused([Shortage(fruit: 2, need: 3, have: 1)])),
        ].joined(separator: "\n") + "\n")
        #expect(written.hasPrefix(#"{"type":"order","seq":4,"line":9,"source":"day \"1\"\t.orders","menu":"#))
    }

    @Test func textNamesScriptLinesAndOptions() {
        #expect(OrderSource.script("k.orders").textPrefix == "k.orders:")
        #expect(OrderSource.script("<stdin>").name == "<stdin>")
        #expect(OrderSource.order.textPrefix == "--order ")
        #expect(OrderSource.random.textPrefix == "--random ")
    }

    /// Revenue is a 128-bit sum, printed exactly in decimal.
    @Test func revenueIsExactPastSixtyFourBits() {
        var revenue = Revenue()
        #expect(revenue.description == "0")
        revenue.add(Int.max)
        #expect(revenue.description == "9223372036854775807")
        revenue.add(Int.max)
        revenue.add(2)
        #expect(revenue.description == "18446744073709551616", "2^64, across the carry")
        revenue.add(Int.max)
        revenue.add(Int.max)
        revenue.add(Int.max)
        revenue.add(Int.max)
        // 2^64 + 4 × (2^63 − 1) = 3 × 2^64 − 4
        #expect(revenue.description == "55340232221128654844")
        var tens = Revenue()
        for _ in 0..<10 { tens.add(1_000_000_000_000_000_000) }
        tens.add(5)
        #expect(tens.description == "10000000000000000005", "the low 19 digits keep their zeros")
        var many = Revenue()
        for _ in 0..<1000 { many.add(Int.max) }
        #expect(many.description == "9223372036854775807000")
    }
}
