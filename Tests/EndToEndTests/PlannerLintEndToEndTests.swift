import Foundation
import JuiceDiagnostics
import Testing

/// The planner's keys (issue 29) through the built `juice-lint`: every
/// problem of Tests/Fixtures/version2/planner-errors.yaml with its rule,
/// line and column, the clean planner.yaml, a rendered warning, and the
/// explain pages of the two new rules.
@Suite struct PlannerLintEndToEndTests {
    static let errors = "Tests/Fixtures/version2/planner-errors.yaml"
    static let clean = "Tests/Fixtures/version2/planner.yaml"

    @Test func everyProblemOfThePlannersKeysWithWhereItIs() throws {
        let result = try ToolRunner.lint("--format", "json", Self.errors)
        #expect(result.exitCode == 1)
        #expect(result.stderr == "files: 1, errors: 12, warnings: 1, infos: 0\n")
        #expect(try CrossFileTests.diagnostics(result.stdout) == [
            "up-to-below-pack planner-errors.yaml:3:39 restock of 'mango' buys up to 4, less than one pack of 6",
            "below-above-up-to planner-errors.yaml:4:29 restock of 'kiwi' orders below 40, above its up-to of 10",
            "invalid-type planner-errors.yaml:5:20 restock of 'lime' must be a mapping, found a scalar",
            "zero-amount planner-errors.yaml:5:31 keeps of 'lime' is 0",
            "invalid-type planner-errors.yaml:6:11 restock of 'pear' has no 'up-to'",
            "unknown-key planner-errors.yaml:6:32 unknown key 'leed' in restock of 'pear'",
            "invalid-amount planner-errors.yaml:7:28 up-to of 'fig' is 'x', not a whole number",
            "negative-amount planner-errors.yaml:7:38 below of 'fig' is negative: '-1'",
            "invalid-amount planner-errors.yaml:7:51 keeps of 'fig' is '1.5', not a whole number",
            "zero-amount planner-errors.yaml:9:41 keeps of 'syrup' is 0",
            "unknown-key planner-errors.yaml:11:8 unknown key 'keeps' in menu item 'm'",
            // The second document says `version: 1`.
            "unknown-key planner-errors.yaml:16:11 unknown key 'keeps' in fruit 'plum'",
            "unknown-key planner-errors.yaml:16:21 unknown key 'restock' in fruit 'plum'",
        ])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let list = try #require(object?["diagnostics"] as? [[String: Any]])
        #expect(list.compactMap { $0["help"] as? String }.filter { $0.contains("lead") || $0.contains("version 2") || $0.contains("never kept") } == [
            "write 'restock: { up-to: 30 }', or 'restock: { below: 10, up-to: 40, lead: 2 }'",
            "did you mean 'lead'?",
            "a menu item is made to order and never kept; put 'keeps' on the fruits and recipes it uses",
            "'keeps' is a version 2 key; this file says 'version: 1': write 'version: 2' to use it",
            "'restock' is a version 2 key; this file says 'version: 1': write 'version: 2' to use it",
        ])
    }

    @Test func thePlannerSeedIsClean() throws {
        let result = try ToolRunner.lint("--strict", Self.clean)
        #expect(result.exitCode == 0)
        #expect(result.stdout == "")
        #expect(result.stderr == "files: 1, errors: 0, warnings: 0, infos: 0\n")
    }

    /// A warning alone passes, and fails under `--strict`; the text report
    /// shows it where it is.
    @Test func upToBelowPackIsAWarning() throws {
        let book = try TemporaryBook(text: [
            "book.yaml": "fruits:\n  mango: { restock: { up-to: 4 }, pack: 6 }\nmenu:\n  j: { recipe: { mango: 1 } }\nstock: { mango: 1 }\n",
        ])
        defer { book.remove() }
        let result = try book.lint("book.yaml")
        #expect(result.exitCode == 0)
        #expect(result.stdout == """
            book.yaml:2:30: warning: restock of 'mango' buys up to 4, less than one pack of 6 [up-to-below-pack]
              |
            2 |   mango: { restock: { up-to: 4 }, pack: 6 }
              |                              ^
              = help: write 'up-to' in units, at least 6

            """)
        #expect(result.stderr == "files: 1, errors: 0, warnings: 1, infos: 0\n")
        #expect(try book.lint("--strict", "book.yaml").exitCode == 1)
    }

    @Test(arguments: [Rule.belowAboveUpTo, Rule.upToBelowPack])
    func explainPrintsTheNewRules(_ rule: Rule) throws {
        let result = try ToolRunner.lint("explain", rule.id)
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == rule.explanation + "\n")
        let severity = rule == .belowAboveUpTo ? "error" : "warning"
        #expect(result.stdout.hasPrefix("\(rule.id) (\(severity))\n\n"))
        #expect(result.stdout.contains("Wrong:\n") && result.stdout.contains("Fixed:\n"))
        #expect(result.stdout.contains("restock: {"))
    }
}
