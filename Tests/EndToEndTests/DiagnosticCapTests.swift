import Foundation
import Testing

/// `--max-diagnostics`: the formats people read stop at a cap and say how many
/// more there were; counts and exit codes always cover everything.
@Suite("diagnostic cap end to end")
struct DiagnosticCapTests {
    /// A book with 250 unknown-fruit errors, on lines 7, 9, ..., 505.
    static func manyErrors() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var yaml = "fruits:\n  mango:\nstock:\n  mango: 5\nmenu:\n"
        for index in 0..<250 { yaml += "  juice-\(index):\n    recipe: { mangoo: 1 }\n" }
        try yaml.write(to: directory.appendingPathComponent("book.yaml"), atomically: true, encoding: .utf8)
        return directory
    }

    @Test func textStopsAtTwoHundredByDefault() throws {
        let directory = try Self.manyErrors()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolRunner.lint("book.yaml", in: directory)
        #expect(result.exitCode == 1)
        #expect(result.stdout.components(separatedBy: "[unknown-fruit]").count - 1 == 200)
        #expect(result.stdout.contains("book.yaml:405:15: error: unknown fruit 'mangoo' [unknown-fruit]"))
        #expect(!result.stdout.contains("book.yaml:407:"))
        #expect(result.stdout.hasSuffix("\n\n… and 50 more diagnostics not shown (--max-diagnostics 0 shows all)\n"))
        #expect(result.stderr == "files: 1, errors: 250, warnings: 0, infos: 0\n")
        let all = try ToolRunner.lint("--max-diagnostics", "0", "book.yaml", in: directory)
        #expect(all.stdout.components(separatedBy: "[unknown-fruit]").count - 1 == 250)
        #expect(!all.stdout.contains("more diagnostic"))
    }

    @Test func theMostSevereAreKept() throws {
        let directory = try Self.manyErrors()
        defer { try? FileManager.default.removeItem(at: directory) }
        // kiwi has no stock: an info on line 3, before every error.
        let book = directory.appendingPathComponent("book.yaml")
        let text = try String(contentsOf: book, encoding: .utf8)
        try text.replacingOccurrences(of: "fruits:\n  mango:\n", with: "fruits:\n  mango:\n  kiwi:\n")
            .write(to: book, atomically: true, encoding: .utf8)
        let result = try ToolRunner.lint("--max-diagnostics", "1", "--format", "github", "book.yaml", in: directory)
        #expect(result.exitCode == 1)
        #expect(result.stdout == """
            ::error file=book.yaml,line=8,col=15,endLine=8,endColumn=20,title=unknown-fruit::unknown fruit 'mangoo'%0Ahelp: did you mean 'mango'?
            ::notice title=juice-lint::… and 250 more diagnostics not shown (--max-diagnostics 0 shows all)

            """)
    }

    @Test func machineFormatsAreCompleteUnlessCapped() throws {
        let directory = try Self.manyErrors()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = try ToolRunner.lint("--format", "json", "book.yaml", in: directory)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((document["diagnostics"] as? [Any])?.count == 250)
        #expect((document["summary"] as? [String: Any])?["omitted"] as? Int == 0)

        let capped = try ToolRunner.lint("--format", "json", "--max-diagnostics", "10", "book.yaml", in: directory)
        let cappedDocument = try #require(try JSONSerialization.jsonObject(with: Data(capped.stdout.utf8)) as? [String: Any])
        #expect((cappedDocument["diagnostics"] as? [Any])?.count == 10)
        let summary = try #require(cappedDocument["summary"] as? [String: Any])
        #expect(summary["errors"] as? Int == 250)
        #expect(summary["omitted"] as? Int == 240)

        let sarif = try ToolRunner.lint("--format", "sarif", "--max-diagnostics", "3", "book.yaml", in: directory)
        #expect(sarif.exitCode == 1)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        #expect((run["results"] as? [Any])?.count == 3)
        let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == true)
        let notice = try #require((invocation["toolExecutionNotifications"] as? [[String: Any]])?.first)
        #expect((notice["message"] as? [String: Any])?["text"] as? String
            == "… and 247 more diagnostics not shown (--max-diagnostics 0 shows all)")
        #expect(try SARIFValidation.validate(sarif.stdout) == "valid")
    }

    @Test func aNegativeCapIsAUsageError() throws {
        let lint = try ToolRunner.lint("--max-diagnostics=-1", "recipes")
        #expect(lint.exitCode == 2)
        #expect(lint.stderr.hasPrefix("Error: --max-diagnostics must be 0 (no cap) or more, not -1\n"))
        let run = try ToolRunner.juiceRun(["--max-diagnostics=-3", "--order", "banana-juice"])
        #expect(run.exitCode == 2)
        #expect(run.stderr.hasPrefix("Error: --max-diagnostics must be 0 (no cap) or more, not -3\n"))
    }

    @Test func juiceRunCapsSkippedLineReports() throws {
        let script = (1...300).map { "bogus-\($0)" }.joined(separator: "\n") + "\nbanana-juice\n"
        let result = try ToolRunner.juiceRun(["--quiet", "-"], stdin: script)
        #expect(result.exitCode == 1)
        let errors = result.stderr.split(separator: "\n")
        #expect(errors.count == 201)
        #expect(errors[199] == "<stdin>:200: error: unknown menu item 'bogus-200'")
        #expect(errors[200] == "… and 100 more diagnostics not shown (--max-diagnostics 0 shows all)")
        #expect(result.stdout.hasPrefix("orders: 1, served: 1, refused: 0, skipped lines: 300\n"))

        let two = try ToolRunner.juiceRun(["--quiet", "--format", "json", "--max-diagnostics", "2", "-"], stdin: script)
        #expect(two.stderr.split(separator: "\n").count == 3)
        #expect(two.stdout.contains(#""skipped":300"#))
        let all = try ToolRunner.juiceRun(["--quiet", "--max-diagnostics", "0", "-"], stdin: script)
        #expect(all.stderr.split(separator: "\n").count == 300)
    }
}
