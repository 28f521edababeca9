import Foundation
import Testing

/// Issue 11, section 4, through the real `juice-lint`: warnings and help that
/// tell the truth, with the exact text a user sees.
@Suite struct TruthfulHintsEndToEndTests {
    /// A fresh folder holding `files` (relative path to text).
    private static func folder(_ files: [String: String]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hints-\(UUID().uuidString)")
        for (path, text) in files {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return directory
    }

    private static let fruits = """
        version: 1
        fruits:
          mango:
          kiwi:
          durian: # juice-lint disable-line unused-fruit
        stock:
          mango: 5
          kiwi: 5
          durian: 1

        """

    @Test func aSuppressionIsNotCalledStaleWhileAnUnrelatedErrorHidesItsRule() throws {
        let directory = try Self.folder([
            "book/fruits.yaml": Self.fruits,
            "book/menu.yaml": "menu:\n  juice: { recipe: { mango: 1, kiwi: 1, kiwii: 1 } }\n",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolRunner.lint("book", in: directory)
        #expect(result.exitCode == 1)
        #expect(result.stdout == """
            book/menu.yaml:2:41: error: unknown fruit 'kiwii' [unknown-fruit]
              |
            2 |   juice: { recipe: { mango: 1, kiwi: 1, kiwii: 1 } }
              |                                         ^~~~~
              = help: did you mean 'kiwi'?

            """)
        #expect(result.stderr == "files: 2, errors: 1, warnings: 0, infos: 0\n")

        // Fixed, the suppression is what keeps the book clean under --strict.
        try Data("menu:\n  juice: { recipe: { mango: 1, kiwi: 1 } }\n".utf8)
            .write(to: directory.appendingPathComponent("book/menu.yaml"))
        let fixed = try ToolRunner.lint("--strict", "book", in: directory)
        #expect(fixed.exitCode == 0)
        #expect(fixed.stdout == "")
        #expect(fixed.stderr == "files: 2, errors: 0, warnings: 0, infos: 0\n")

        // And once durian is used, the suppression is stale, and said so.
        try Data("menu:\n  juice: { recipe: { mango: 1, kiwi: 1, durian: 1 } }\n".utf8)
            .write(to: directory.appendingPathComponent("book/menu.yaml"))
        let stale = try ToolRunner.lint("--format", "github", "book", in: directory)
        #expect(stale.exitCode == 0)
        #expect(stale.stdout == """
            ::warning file=book/fruits.yaml,line=5,col=37,endLine=5,endColumn=48,title=unused-suppression::\
            suppression of 'unused-fruit' suppressed nothing%0Ahelp: remove it; nothing here reports 'unused-fruit' any more

            """)
    }

    @Test func aFruitTheStockFileLacksIsReportedInTheStockFile() throws {
        let directory = try Self.folder([
            "book/fruits.yaml": Self.fruits,
            "book/menu.yaml": "menu:\n  juice: { recipe: { mango: 1, kiwi: 1 } }\n",
            "day.yaml": "version: 1\nstock:\n  mango: 3\n  durian: 2\n",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolRunner.lint("--stock", "day.yaml", "book", in: directory)
        #expect(result.exitCode == 0)
        #expect(result.stdout == """
            book/menu.yaml:2:3: info: menu item 'juice' needs 1 'kiwi' (stock 0), more than the opening stock holds [never-makeable]
              |
            2 |   juice: { recipe: { mango: 1, kiwi: 1 } }
              |   ^~~~~
            day.yaml:2:1: note: 'day.yaml' has no entry for 'kiwi'
              |
            2 | stock:
              | ^~~~~
              = help: it can be served only after a restock; raise the stock in 'day.yaml' or lower the recipe if that is not intended

            day.yaml:2:1: info: stock file 'day.yaml' has no entry for fruit 'kiwi', so it starts at 0 [missing-stock]
              |
            2 | stock:
              | ^~~~~
            book/fruits.yaml:4:3: note: 'kiwi' is declared here
              |
            4 |   kiwi:
              |   ^~~~
              = help: add 'kiwi: 0' under 'stock:' in 'day.yaml' to say so explicitly

            """)
        #expect(result.stderr == "files: 3, errors: 0, warnings: 0, infos: 2\n")
    }

    @Test func amountAndIDHelpNeverSuggestsSomethingInvalid() throws {
        let directory = try Self.folder([
            "book.yaml": """
                fruits:
                  mango:
                  "":
                stock: { mango: 00 }
                menu:
                  juice: { recipe: { mango: 00 } }

                """,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolRunner.lint("book.yaml", in: directory)
        #expect(result.exitCode == 1)
        #expect(result.stdout == """
            book.yaml:3:3: error: an id cannot be empty [invalid-name]
              |
            3 |   "":
              |   ^~
              = help: an id needs at least one character: give it a name such as 'mango', or remove it

            book.yaml:4:17: error: stock of 'mango' is '00', with a leading zero that YAML 1.1 reads as octal [invalid-amount]
              |
            4 | stock: { mango: 00 }
              |                 ^~
              = help: write 0

            book.yaml:6:29: error: amount of 'mango' in menu item 'juice' is '00', which is 0 [zero-amount]
              |
            6 |   juice: { recipe: { mango: 00 } }
              |                             ^~
              = help: use at least 1, or remove the ingredient

            """)
    }

    @Test func aBadLevelInTheConfigIsPointedAtTheValue() throws {
        let directory = try Self.folder([
            ".juice-lint.yaml": "rules:\n  unused-fruit: warn\n",
            "book/fruits.yaml": Self.fruits,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolRunner.lint("book", in: directory)
        #expect(result.exitCode == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == """
            juice-lint: error: .juice-lint.yaml:2:17: unknown level 'warn' for rule 'unused-fruit'
              help: did you mean 'warning'? the levels are 'off', 'info', 'warning', 'error'

            """)
    }
}
