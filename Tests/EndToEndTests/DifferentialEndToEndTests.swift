import DifferentialSupport
import Foundation
import Testing

/// The differential test through the built `juice-run`: a generated book and
/// script are written to a temporary directory, run with `--format json`, and
/// the JSON Lines, the errors on stderr and the exit code are checked against
/// the reference model. Two cases are enough here; the in-process suite
/// (JuiceKitTests/DifferentialTests.swift) covers twenty.
@Suite("differential: juice-run against a reference model")
struct DifferentialEndToEndTests {
    /// A script with invalid lines (exit code 1), and one without (exit code 0)
    /// in CRLF with no ending on its last line. Each is over 100 KB, so lines
    /// also straddle the blocks `LineReader` reads.
    static let cases: [(seed: UInt64, invalidLines: Bool, crlf: Bool)] = [(7, true, false), (12, false, true)]

    @Test(arguments: cases)
    func juiceRunAgreesWithTheReferenceModel(seed: UInt64, invalidLines: Bool, crlf: Bool) throws {
        let testCase = DifferentialCase(seed: seed, invalidLines: invalidLines)
        let expected = testCase.expected
        let context = "seed \(seed)"
        #expect(expected.skippedLines.isEmpty != invalidLines, "\(context): the script should \(invalidLines ? "" : "not ")have invalid lines")

        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("juice-differential-\(seed)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        for file in testCase.book.files {
            let url = directory.appendingPathComponent("recipes").appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.text.utf8).write(to: url)
        }
        let script = crlf ? testCase.script.text(lineEnding: "\r\n", finalLineEnding: false) : testCase.script.text()
        #expect(script.utf8.count > 1 << 16, "\(context): the script fits in one read block")
        try Data(script.utf8).write(to: directory.appendingPathComponent("day.orders"))

        let result = try ToolRunner.juiceRun(["--recipes", "recipes", "--format", "json", "--max-diagnostics", "0", "day.orders"], in: directory)
        #expect(result.exitedNormally, "\(context)")
        #expect(result.exitCode == (expected.skippedLines.isEmpty ? 0 : 1), "\(context): stderr starts \(result.stderr.prefix(500))")

        var orders: [OrderRecord] = []
        var restocks: [RestockRecord] = []
        var summaries: [[String: Any]] = []
        for text in result.stdout.split(separator: "\n") {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(context): not an object: \(text)"
            )
            switch object["type"] as? String {
            case "order":
                orders.append(try Self.order(object))
            case "restock":
                restocks.append(RestockRecord(
                    line: try #require(object["line"] as? Int),
                    fruit: try #require(object["fruit"] as? String),
                    stock: try #require(object["stock"] as? Int)
                ))
            case "summary":
                summaries.append(object)
            default:
                Issue.record("\(context): unexpected line \(text)")
            }
        }
        expectSame(orders, expected.orders, "order outcomes", testCase, line: \.line)
        expectSame(restocks, expected.restocks, "restocks", testCase, line: \.line)

        // Each skipped line is one `day.orders:LINE: error: ...` on stderr.
        let errorLines = result.stderr.split(separator: "\n").compactMap { line -> Int? in
            guard line.hasPrefix("day.orders:"), line.contains(": error: ") else { return nil }
            return Int(line.dropFirst("day.orders:".count).prefix { $0.isNumber })
        }
        expectSame(errorLines, expected.skippedLines, "lines reported as errors", testCase, line: { $0 })

        try #require(summaries.count == 1, "\(context): \(summaries.count) summary lines")
        let summary = summaries[0]
        #expect(summary["orders"] as? Int == expected.orders.count, "\(context)")
        #expect(summary["served"] as? Int == expected.served, "\(context)")
        #expect(summary["refused"] as? Int == expected.refused, "\(context)")
        #expect(summary["stock"] as? [String: Int] == expected.finalStock, "\(context): final stock")
        #expect(expected.served > 0 && expected.refused > 0, "\(context): served \(expected.served), refused \(expected.refused)")
    }

    /// `{"type":"order","line":L,"menu":ID,"status":"served"|"refused","short":[{"fruit","need","have"}]}`
    static func order(_ object: [String: Any]) throws -> OrderRecord {
        let status = try #require(object["status"] as? String)
        let short = try #require(object["short"] as? [[String: Any]])
        let shortfalls = try short.map { entry in
            Shortfall(
                fruit: try #require(entry["fruit"] as? String),
                need: try #require(entry["need"] as? Int),
                have: try #require(entry["have"] as? Int)
            )
        }
        #expect(status == "served" || status == "refused")
        #expect((status == "served") == shortfalls.isEmpty, "a served order lists no short fruit; a refused one lists some")
        return OrderRecord(
            line: try #require(object["line"] as? Int),
            menu: try #require(object["menu"] as? String),
            refusal: status == "served" ? nil : shortfalls
        )
    }
}

/// Records the first difference between two runs' sequences, if any.
private func expectSame<T: Equatable & CustomStringConvertible>(
    _ actual: [T], _ expected: [T], _ what: String, _ testCase: DifferentialCase, line: (T) -> Int,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    if let difference = testCase.difference(in: what, actual: actual, expected: expected, line: line) {
        Issue.record(Comment(rawValue: difference), sourceLocation: sourceLocation)
    }
}
