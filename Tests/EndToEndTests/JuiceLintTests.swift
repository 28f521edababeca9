import Foundation
import JuiceSource
import JuiceDiagnostics
import JuiceBook
import JuiceLint
import Testing

@Suite("juice-lint end to end")
struct JuiceLintTests {
    static let configured = ToolRunner.fixtures.appendingPathComponent("configured")
    static let suppressions = ToolRunner.fixtures.appendingPathComponent("suppressions")

    // MARK: The canonical book

    @Test func canonicalBookPassesStrictWithOnlyAnInfo() throws {
        let result = try ToolRunner.lint("--strict", "recipes", "--color", "never")
        #expect(result.exitCode == 0)
        #expect(result.stdout == """
            recipes/menu.yaml:6:3: info: menu item 'strawberry-juice' needs 16 'strawberry' (stock 10), more than the opening stock holds [never-makeable]
              |
            6 |   strawberry-juice:
              |   ^~~~~~~~~~~~~~~~
              = help: it can be served only after a restock; raise the stock or lower the recipe if that is not intended

            """)
        #expect(result.stderr == "files: 2, errors: 0, warnings: 0, infos: 1\n")
    }

    @Test func explicitPathsAreShownRelativeWithoutDotSlash() throws {
        let result = try ToolRunner.lint(
            "./recipes/", ToolRunner.packageRoot.appendingPathComponent("recipes/menu.yaml").path, "--format", "json"
        )
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains(#""file":"recipes/menu.yaml""#))
        #expect(result.stderr == "files: 2, errors: 0, warnings: 0, infos: 1\n")
    }

    // MARK: A multi-error book in every format

    @Test func brokenBookText() throws {
        let result = try ToolRunner.lint("broken-book", "--color", "never", in: ToolRunner.fixtures)
        #expect(result.exitCode == 1)
        #expect(result.stdout == """
            broken-book/fruits.yaml:4:3: info: fruit 'banana' has no stock entry, so it starts at 0 [missing-stock]
              |
            4 |   banana: { lable: 바나나 }
              |   ^~~~~~
              = help: add 'banana: 0' under 'stock:' to say so explicitly

            broken-book/fruits.yaml:4:13: error: unknown key 'lable' in fruit 'banana' [unknown-key]
              |
            4 |   banana: { lable: 바나나 }
              |             ^~~~~
              = help: did you mean 'label'?

            broken-book/menu.yaml:3:15: error: unknown fruit 'mangoo' [unknown-fruit]
              |
            3 |     recipe: { mangoo: 2 }
              |               ^~~~~~
              = help: did you mean 'mango'?

            broken-book/menu.yaml:4:3: error: 'kiwi' is already defined as a fruit [duplicate-definition]
              |
            4 |   kiwi:
              |   ^~~~
            broken-book/fruits.yaml:3:3: note: 'kiwi' is first defined here
              |
            3 |   kiwi:
              |   ^~~~
              = help: fruits, recipes and menu items share one namespace; rename one of them

            broken-book/menu.yaml:5:21: error: amount of 'kiwi' in menu item 'kiwi' is 0 [zero-amount]
              |
            5 |     recipe: { kiwi: 0 }
              |                     ^
            broken-book/menu.yaml:4:3: note: 'kiwi' here duplicates the definition at broken-book/fruits.yaml:3:3; it is checked, but left out of the book
              |
            4 |   kiwi:
              |   ^~~~
              = help: use at least 1, or remove the ingredient

            broken-book/menu.yaml:8:13: error: recipe cycle: base-a -> base-b -> base-a [recipe-cycle]
              |
            8 |   base-b: { base-a: 2 }
              |             ^~~~~~
            broken-book/menu.yaml:7:13: note: 'base-a' uses 'base-b' here
              |
            7 |   base-a: { base-b: 1 }
              |             ^~~~~~
              = help: a recipe cannot contain itself, directly or through other recipes

            """)
        #expect(result.stderr == "files: 2, errors: 5, warnings: 0, infos: 1\n")
        #expect(!result.stdout.contains("\u{1B}"))
    }

    /// `--format github` from the fixtures folder: paths are relative to the
    /// git work tree the tests run in (this repository; CI lints a clone),
    /// as GitHub resolves them against the repository's root, and
    /// `endColumn` is inclusive (`CIFormatTests`).
    static let brokenBookGitHub = """
        ::notice file=Tests/EndToEndTests/Fixtures/broken-book/fruits.yaml,line=4,col=3,endLine=4,endColumn=8,title=missing-stock::fruit 'banana' has no stock entry, so it starts at 0%0Ahelp: add 'banana: 0' under 'stock:' to say so explicitly
        ::error file=Tests/EndToEndTests/Fixtures/broken-book/fruits.yaml,line=4,col=13,endLine=4,endColumn=17,title=unknown-key::unknown key 'lable' in fruit 'banana'%0Ahelp: did you mean 'label'?
        ::error file=Tests/EndToEndTests/Fixtures/broken-book/menu.yaml,line=3,col=15,endLine=3,endColumn=20,title=unknown-fruit::unknown fruit 'mangoo'%0Ahelp: did you mean 'mango'?
        ::error file=Tests/EndToEndTests/Fixtures/broken-book/menu.yaml,line=4,col=3,endLine=4,endColumn=6,title=duplicate-definition::'kiwi' is already defined as a fruit%0Anote: Tests/EndToEndTests/Fixtures/broken-book/fruits.yaml:3:3: 'kiwi' is first defined here%0Ahelp: fruits, recipes and menu items share one namespace; rename one of them
        ::error file=Tests/EndToEndTests/Fixtures/broken-book/menu.yaml,line=5,col=21,endLine=5,endColumn=21,title=zero-amount::amount of 'kiwi' in menu item 'kiwi' is 0%0Anote: Tests/EndToEndTests/Fixtures/broken-book/menu.yaml:4:3: 'kiwi' here duplicates the definition at broken-book/fruits.yaml:3:3; it is checked, but left out of the book%0Ahelp: use at least 1, or remove the ingredient
        ::error file=Tests/EndToEndTests/Fixtures/broken-book/menu.yaml,line=8,col=13,endLine=8,endColumn=18,title=recipe-cycle::recipe cycle: base-a -> base-b -> base-a%0Anote: Tests/EndToEndTests/Fixtures/broken-book/menu.yaml:7:13: 'base-a' uses 'base-b' here%0Ahelp: a recipe cannot contain itself, directly or through other recipes

        """

    @Test func brokenBookGitHub() throws {
        try ToolRunner.requireGitWorkTree()
        let result = try ToolRunner.lint("broken-book", "--format", "github", in: ToolRunner.fixtures)
        #expect(result.exitCode == 1)
        #expect(result.stdout == Self.brokenBookGitHub)
        #expect(result.stderr == "files: 2, errors: 5, warnings: 0, infos: 1\n")
    }

    @Test func autoFormatIsGitHubUnderGitHubActionsAndTextElsewhere() throws {
        try ToolRunner.requireGitWorkTree()
        let actions = try ToolRunner.run("juice-lint", ["broken-book"], in: ToolRunner.fixtures, environment: ["GITHUB_ACTIONS": "true"])
        #expect(actions.stdout == Self.brokenBookGitHub)
        let local = try ToolRunner.run("juice-lint", ["broken-book"], in: ToolRunner.fixtures, environment: ["GITHUB_ACTIONS": "false"])
        #expect(local.stdout.hasPrefix("broken-book/fruits.yaml:4:3: info: fruit 'banana' has no stock entry"))
    }

    @Test func brokenBookJSON() throws {
        let result = try ToolRunner.lint("--format", "json", "broken-book", in: ToolRunner.fixtures)
        #expect(result.exitCode == 1)
        #expect(result.stderr == "files: 2, errors: 5, warnings: 0, infos: 1\n")
        let expected = """
            {"version":1,"diagnostics":[\
            {"file":"broken-book/fruits.yaml","line":4,"column":3,"endLine":4,"endColumn":9,"severity":"info",\
            "rule":"missing-stock","message":"fruit 'banana' has no stock entry, so it starts at 0","notes":[],\
            "help":"add 'banana: 0' under 'stock:' to say so explicitly"},\
            {"file":"broken-book/fruits.yaml","line":4,"column":13,"endLine":4,"endColumn":18,"severity":"error",\
            "rule":"unknown-key","message":"unknown key 'lable' in fruit 'banana'","notes":[],"help":"did you mean 'label'?"},\
            {"file":"broken-book/menu.yaml","line":3,"column":15,"endLine":3,"endColumn":21,"severity":"error",\
            "rule":"unknown-fruit","message":"unknown fruit 'mangoo'","notes":[],"help":"did you mean 'mango'?"},\
            {"file":"broken-book/menu.yaml","line":4,"column":3,"endLine":4,"endColumn":7,"severity":"error",\
            "rule":"duplicate-definition","message":"'kiwi' is already defined as a fruit",\
            "notes":[{"file":"broken-book/fruits.yaml","line":3,"column":3,"message":"'kiwi' is first defined here"}],\
            "help":"fruits, recipes and menu items share one namespace; rename one of them"},\
            {"file":"broken-book/menu.yaml","line":5,"column":21,"endLine":5,"endColumn":22,"severity":"error",\
            "rule":"zero-amount","message":"amount of 'kiwi' in menu item 'kiwi' is 0",\
            "notes":[{"file":"broken-book/menu.yaml","line":4,"column":3,\
            "message":"'kiwi' here duplicates the definition at broken-book/fruits.yaml:3:3; it is checked, but left out of the book"}],\
            "help":"use at least 1, or remove the ingredient"},\
            {"file":"broken-book/menu.yaml","line":8,"column":13,"endLine":8,"endColumn":19,"severity":"error",\
            "rule":"recipe-cycle","message":"recipe cycle: base-a -> base-b -> base-a",\
            "notes":[{"file":"broken-book/menu.yaml","line":7,"column":13,"message":"'base-a' uses 'base-b' here"}],\
            "help":"a recipe cannot contain itself, directly or through other recipes"}\
            ],"summary":{"files":2,"errors":5,"warnings":0,"infos":1,"omitted":0}}

            """
        #expect(result.stdout == expected)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let diagnostics = try #require(object?["diagnostics"] as? [[String: Any]])
        #expect(Set(diagnostics[0].keys) == [
            "file", "line", "column", "endLine", "endColumn", "severity", "rule", "message", "notes", "help",
        ])
    }

    /// The SARIF report is long (every rule's documentation travels in
    /// `rules[]`), so the expected bytes live in a file beside the test; the
    /// comparison is still exact.
    ///
    /// The base is this repository's work tree, whose absolute path differs
    /// from machine to machine: it is checked on its own, then stands as
    /// `file:///REPOSITORY/` in the comparison.
    @Test func brokenBookSARIF() throws {
        try ToolRunner.requireGitWorkTree()
        let result = try ToolRunner.lint("--format", "sarif", "broken-book", in: ToolRunner.fixtures)
        #expect(result.exitCode == 1)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let run = try #require((object?["runs"] as? [[String: Any]])?.first)
        let base = try #require(((run["originalUriBaseIds"] as? [String: Any])?["%SRCROOT%"] as? [String: Any])?["uri"] as? String)
        #expect(URL(string: base)?.path == ToolRunner.packageRoot.resolvingSymlinksInPath().path)
        #expect(base.hasPrefix("file:///") && base.hasSuffix("/"))
        let expected = try String(
            contentsOf: ToolRunner.fixtures.appendingPathComponent("expected/broken-book.sarif"), encoding: .utf8
        )
        #expect(result.stdout.replacingOccurrences(of: "\"uri\": \"\(base)\"", with: "\"uri\": \"file:///REPOSITORY/\"") == expected)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.compactMap { $0["ruleId"] as? String } == [
            "missing-stock", "unknown-key", "unknown-fruit", "duplicate-definition", "zero-amount", "recipe-cycle",
        ])
        #expect(results.compactMap { $0["level"] as? String } == ["note", "error", "error", "error", "error", "error"])
    }

    @Test func brokenBookSARIFPassesTheSARIFSchema() throws {
        let result = try ToolRunner.lint("--format", "sarif", "broken-book", in: ToolRunner.fixtures)
        let verdict = try SARIFValidation.validate(result.stdout)
        #expect(verdict == "valid")
    }

    // MARK: Exit codes

    @Test func exitCode0WithWarningsUnlessStrict() throws {
        let relaxed = try ToolRunner.lint("book.yaml", in: Self.configured)
        #expect(relaxed.exitCode == 0)
        #expect(relaxed.stderr == "files: 1, errors: 0, warnings: 2, infos: 0\n")
        let strict = try ToolRunner.lint("book.yaml", "--strict", in: Self.configured)
        #expect(strict.exitCode == 1)
    }

    @Test func exitCode1ForErrors() throws {
        #expect(try ToolRunner.lint("broken-book", in: ToolRunner.fixtures).exitCode == 1)
    }

    @Test func exitCode2ForAMissingPath() throws {
        let result = try ToolRunner.lint("no-such-dir")
        #expect(result.exitCode == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "juice-lint: error: no such file or directory: 'no-such-dir'\n")
    }

    @Test func exitCode2ForAnUnreadableFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("juice-lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("gone.yaml").path, withDestinationPath: "nowhere.yaml"
        )
        let result = try ToolRunner.lint(".", in: directory)
        #expect(result.exitCode == 2)
        #expect(result.stderr == "juice-lint: error: cannot read 'gone.yaml': broken symbolic link\n")
    }

    @Test func exitCode2WhenThereIsNothingToLint() throws {
        let result = try ToolRunner.lint("hidden-only", in: ToolRunner.fixtures)
        #expect(result.exitCode == 2)
        #expect(result.stderr == "juice-lint: error: no *.yaml or *.yml files under 'hidden-only'\n")
    }

    @Test func exitCode2ForBadUsage() throws {
        let option = try ToolRunner.lint("--bogus")
        #expect(option.exitCode == 2)
        #expect(option.stderr.hasPrefix("Error: Unknown option '--bogus'"))
        let format = try ToolRunner.lint("--format", "xml")
        #expect(format.exitCode == 2)
        #expect(format.stderr.contains("'xml'"))
    }

    @Test func exitCode2ForABadConfig() throws {
        let result = try ToolRunner.lint("book.yaml", "--config", "levels/broken.yaml", in: Self.configured)
        #expect(result.exitCode == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == """
            juice-lint: error: levels/broken.yaml:2:3: unknown rule 'unused-friut'
              help: did you mean 'unused-fruit'?

            """)
        let missing = try ToolRunner.lint("book.yaml", "--config", "nope.yaml", in: Self.configured)
        #expect(missing.exitCode == 2)
        #expect(missing.stderr == "juice-lint: error: configuration: cannot read 'nope.yaml': No such file or directory\n")
        let rule = try ToolRunner.lint("book.yaml", "--rule", "unused-fruit=loud", in: Self.configured)
        #expect(rule.exitCode == 2)
        #expect(rule.stderr == """
            juice-lint: error: --rule: unknown level 'loud' for rule 'unused-fruit'
              help: use one of 'off', 'info', 'warning', 'error'

            """)
    }

    @Test func exitCode3WhenTheReportCannotBeWritten() throws {
        let result = try ToolRunner.lint("recipes", "--output", "/dev/full")
        #expect(result.exitCode == 3)
        #expect(result.stderr == "juice-lint: error: cannot write '/dev/full': No space left on device\nfiles: 2, errors: 0, warnings: 0, infos: 1\n")
    }

    @Test func helpDocumentsTheExitCodes() throws {
        let result = try ToolRunner.lint("help", "lint")
        #expect(result.exitCode == 0)
        for line in [
            "0  no errors; warnings allowed unless --strict",
            "1  errors, or warnings under --strict",
            "2  bad usage, a bad config, a missing or unreadable path",
            "3  internal failure, such as a report that cannot be written",
        ] {
            #expect(result.stdout.contains(line), "\(line)")
        }
        let root = try ToolRunner.lint("--help")
        #expect(root.exitCode == 0)
        #expect(root.stdout.contains("3  internal failure"))
    }

    // MARK: Configuration, --rule, --strict

    @Test func configFileInTheWorkingDirectorySetsLevels() throws {
        // .juice-lint.yaml raises missing-stock to a warning and turns never-makeable off.
        let result = try ToolRunner.lint("book.yaml", "--format", "json", in: Self.configured)
        #expect(result.stdout == """
            {"version":1,"diagnostics":[\
            {"file":"book.yaml","line":3,"column":3,"endLine":3,"endColumn":7,"severity":"warning","rule":"missing-stock",\
            "message":"fruit 'kiwi' has no stock entry, so it starts at 0","notes":[],"help":"add 'kiwi: 0' under 'stock:' to say so explicitly"},\
            {"file":"book.yaml","line":3,"column":3,"endLine":3,"endColumn":7,"severity":"warning","rule":"unused-fruit",\
            "message":"fruit 'kiwi' is not used by any menu item","notes":[],"help":"use it in a recipe, or remove it from 'fruits'"}\
            ],"summary":{"files":1,"errors":0,"warnings":2,"infos":0,"omitted":0}}

            """)
    }

    @Test func configOptionReplacesTheDefaultFile() throws {
        try ToolRunner.requireGitWorkTree()
        // levels/errors.yaml makes unused-fruit an error; the default file is not read,
        // so missing-stock and never-makeable are back to infos.
        let result = try ToolRunner.lint("book.yaml", "--config", "levels/errors.yaml", "--format", "github", in: Self.configured)
        #expect(result.exitCode == 1)
        #expect(result.stderr == "files: 1, errors: 1, warnings: 0, infos: 2\n")
        #expect(result.stdout.contains("::error file=Tests/EndToEndTests/Fixtures/configured/book.yaml,line=3,col=3,endLine=3,endColumn=6,title=unused-fruit::"))
    }

    @Test func ruleOptionOverridesTheConfigFile() throws {
        let result = try ToolRunner.lint(
            "book.yaml", "--rule", "missing-stock=off", "--rule", "unused-fruit=info", "--strict", in: Self.configured
        )
        #expect(result.exitCode == 0)
        #expect(result.stderr == "files: 1, errors: 0, warnings: 0, infos: 1\n")
    }

    // MARK: Suppression comments

    @Test func suppressionCommentsInAllThreeForms() throws {
        // disable-file silences missing-stock for kiwi, lime and plum; disable-line
        // silences kiwi's unused-fruit; disable-next-line silences lime's. Plum's
        // comment names a rule that never fires there, so it is reported.
        let result = try ToolRunner.lint("book.yaml", "--color", "never", in: Self.suppressions)
        #expect(result.exitCode == 0)
        #expect(result.stdout == """
            book.yaml:7:3: warning: fruit 'plum' is not used by any menu item [unused-fruit]
              |
            7 |   plum:     # juice-lint disable-line never-makeable
              |   ^~~~
              = help: use it in a recipe, or remove it from 'fruits'

            book.yaml:7:39: warning: suppression of 'never-makeable' suppressed nothing [unused-suppression]
              |
            7 |   plum:     # juice-lint disable-line never-makeable
              |                                       ^~~~~~~~~~~~~~
              = help: remove it; nothing here reports 'never-makeable' any more

            """)
        #expect(result.stderr == "files: 1, errors: 0, warnings: 2, infos: 0\n")
        #expect(try ToolRunner.lint("book.yaml", "--strict", in: Self.suppressions).exitCode == 1)
    }

    /// Error rules make a book unusable: no setting or comment may hide them,
    /// or `juice-lint --strict` would pass a book `juice-run` refuses.
    @Test func errorRulesCannotBeConfiguredOrSuppressed() throws {
        let config = try ToolRunner.lint("broken-book", "--rule", "unknown-fruit=off", in: ToolRunner.fixtures)
        #expect(config.exitCode == 2)
        #expect(config.stderr.hasPrefix("juice-lint: error: --rule: rule 'unknown-fruit' is an error and its level cannot be changed\n"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("juice-lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
            fruits: { mango: }
            stock: { mango: 5 }
            menu:
              juice: { recipe: { mangoo: 1 } }  # juice-lint disable-line unknown-fruit
            """.write(to: directory.appendingPathComponent("book.yaml"), atomically: true, encoding: .utf8)
        let result = try ToolRunner.lint("book.yaml", "--format", "github", "--strict", in: directory)
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("::error file=book.yaml,line=4,col=22,endLine=4,endColumn=27,title=unknown-fruit::unknown fruit 'mangoo'"))
        #expect(result.stdout.contains("title=unused-suppression::'unknown-fruit' is an error and cannot be suppressed"))
    }

    // MARK: Colour and --output

    @Test func colourFollowsTheFlagAndTheEnvironment() throws {
        let always = try ToolRunner.lint("broken-book", "--color", "always", in: ToolRunner.fixtures)
        #expect(always.stdout.hasPrefix("\u{1B}[1mbroken-book/fruits.yaml:4:3:\u{1B}[0m \u{1B}[1;36minfo:\u{1B}[0m"))
        let forced = try ToolRunner.run("juice-lint", ["broken-book"], in: ToolRunner.fixtures, environment: ["FORCE_COLOR": "1"])
        #expect(forced.stdout.contains("\u{1B}[1;31merror:\u{1B}[0m"))
        let never = try ToolRunner.run("juice-lint", ["broken-book", "--color", "never"], in: ToolRunner.fixtures, environment: ["FORCE_COLOR": "1"])
        #expect(!never.stdout.contains("\u{1B}"))
        let noColor = try ToolRunner.run("juice-lint", ["broken-book"], in: ToolRunner.fixtures, environment: ["NO_COLOR": "1", "FORCE_COLOR": "1"])
        #expect(!noColor.stdout.contains("\u{1B}"))
        // Not a terminal and nothing forced: plain.
        #expect(!(try ToolRunner.lint("broken-book", in: ToolRunner.fixtures)).stdout.contains("\u{1B}"))
    }

    @Test func outputOptionWritesTheReportToAFile() throws {
        try ToolRunner.requireGitWorkTree()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("juice-lint-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: path) }
        let result = try ToolRunner.run("juice-lint", ["broken-book", "--format", "github", "--output", path.path], in: ToolRunner.fixtures)
        #expect(result.exitCode == 1)
        #expect(result.stdout == "")
        #expect(try String(contentsOf: path, encoding: .utf8) == Self.brokenBookGitHub)
    }

    // MARK: rules, explain, graph

    @Test func rulesListsEveryRule() throws {
        let result = try ToolRunner.lint("rules")
        #expect(result.exitCode == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == Rule.allCases.count)
        // The id column is as wide as the longest id, 'substitute-not-a-fruit', and two spaces.
        #expect(lines[8] == "unknown-fruit           error    an ingredient, stock entry or substitute that names nothing declared")
        #expect(lines[15] == "unused-fruit            warning  a declared fruit that no menu item uses, directly or through recipes")
        #expect(lines[17] == "never-makeable          info     a menu item that needs more of some fruit than the opening stock holds")
        #expect(lines[22] == "below-above-up-to       error    a restock whose 'below' is above its 'up-to'")
        #expect(lines[23] == "up-to-below-pack        warning  a restock 'up-to' smaller than one pack")
        #expect(lines[24] == "substitute-is-itself    error    a fruit that lists itself among its substitutes")
        #expect(lines[25] == "substitute-not-a-fruit  error    a substitute that names a recipe or a menu item, not a fruit")
        for (line, rule) in zip(lines, Rule.allCases) {
            #expect(line.hasPrefix(rule.id + " "))
        }
    }

    @Test func explainPrintsTheCatalogueText() throws {
        let result = try ToolRunner.lint("explain", "zero-amount")
        #expect(result.exitCode == 0)
        #expect(result.stdout == Rule.zeroAmount.explanation + "\n")
        #expect(result.stdout.hasPrefix("zero-amount (error)\n"))
        #expect(result.stdout.contains("Wrong:"))
        #expect(result.stdout.contains("Fixed:"))
        let unknown = try ToolRunner.lint("explain", "zero-amout")
        #expect(unknown.exitCode == 2)
        #expect(unknown.stderr == "juice-lint: error: unknown rule 'zero-amout'\n  help: did you mean 'zero-amount'?\n")
    }

    @Test func graphAsMermaid() throws {
        let result = try ToolRunner.lint("graph")
        #expect(result.exitCode == 0)
        #expect(result.stdout == """
            flowchart LR
                classDef menu fill:#fde2b3,stroke:#b36b00
                classDef recipe fill:#dde8f8,stroke:#3f6aa6
                classDef fruit fill:#dff3dc,stroke:#3a8a33
                m0(["딸기쥬스 (strawberry-juice)"]):::menu
                m1(["바나나쥬스 (banana-juice)"]):::menu
                m2(["키위쥬스 (kiwi-juice)"]):::menu
                m3(["파인애플쥬스 (pineapple-juice)"]):::menu
                m4(["딸바쥬스 (strawberry-banana-juice)"]):::menu
                m5(["망고쥬스 (mango-juice)"]):::menu
                m6(["망고키위쥬스 (mango-kiwi-juice)"]):::menu
                f0(("🍓 딸기 (strawberry)")):::fruit
                f1(("🍌 바나나 (banana)")):::fruit
                f2(("🍍 파인애플 (pineapple)")):::fruit
                f3(("🥝 키위 (kiwi)")):::fruit
                f4(("🥭 망고 (mango)")):::fruit
                m0 -->|16| f0
                m1 -->|2| f1
                m2 -->|3| f3
                m3 -->|2| f2
                m4 -->|10| f0
                m4 -->|1| f1
                m5 -->|3| f4
                m6 -->|2| f4
                m6 -->|1| f3

            """)
    }

    @Test func graphAsDot() throws {
        let result = try ToolRunner.lint("graph", "recipes", "--format", "dot")
        #expect(result.exitCode == 0)
        let files = try RecipeSources.load(paths: [ToolRunner.packageRoot.appendingPathComponent("recipes").path])
        let book = try #require(RecipeCompiler.compile(files).book)
        #expect(result.stdout == RecipeGraph.render(book, format: .dot))
        #expect(result.stdout.hasPrefix("digraph recipes {\n"))
        #expect(result.stdout.contains("    m4 -> f0 [label=\"10\"];\n"))
    }

    @Test func graphOfAnInvalidBookFails() throws {
        let result = try ToolRunner.lint("graph", "broken-book", in: ToolRunner.fixtures)
        #expect(result.exitCode == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("broken-book/fruits.yaml:4:13: error: unknown key 'lable' in fruit 'banana' [unknown-key]\n"))
        #expect(result.stderr.hasSuffix("juice-lint: error: the recipe book is invalid, so it has no graph\n"))
    }

    // MARK: Files and hostile input

    @Test func hiddenEntriesAndOtherExtensionsAreSkipped() throws {
        let result = try ToolRunner.lint("skipping", in: ToolRunner.fixtures)
        #expect(result.exitCode == 0)
        #expect(result.stderr == "files: 2, errors: 0, warnings: 0, infos: 0\n")
    }

    /// The exact headline of a few hostile files in text format; the corpus
    /// test checks rule and line for all of them.
    @Test(arguments: [
        ("empty/empty.yaml", 0, ""),
        ("encoding/binary.yaml", 1, "hostile/encoding/binary.yaml:1:1: error: control characters are not allowed (U+0000) [yaml-syntax]\n"),
        ("encoding/invalid-utf8.yaml", 1, "hostile/encoding/invalid-utf8.yaml:2:20: error: invalid leading UTF-8 octet (byte 0xFF) [yaml-syntax]\n"),
        ("encoding/tabs.yaml", 1, "hostile/encoding/tabs.yaml:2:1: error: found character that cannot start any token [yaml-syntax]\n"),
        ("aliases/billion-laughs.yaml", 1, "hostile/aliases/billion-laughs.yaml:6:45: error: aliases in this file expand to more than 1000000 nodes [resource-limit]\n"),
        ("size/scalar-1mb.yaml", 1, "hostile/size/scalar-1mb.yaml:2:19: error: a scalar of 1000000 bytes is longer than the 65536-byte limit [resource-limit]\n"),
    ])
    func hostileFile(name: String, exitCode: Int32, headline: String) throws {
        let result = try ToolRunner.lint("hostile/" + name, in: ToolRunner.sharedFixtures)
        #expect(result.exitedNormally)
        #expect(result.exitCode == exitCode)
        #expect(result.stdout.hasPrefix(headline))
    }

    @Test func tabsGetAHint() throws {
        let result = try ToolRunner.lint("hostile/encoding/tabs.yaml", in: ToolRunner.sharedFixtures)
        #expect(result.stdout.hasSuffix("  = help: YAML indents with spaces; replace the tab with spaces\n"))
    }
}

/// Validates SARIF with python's `jsonschema` against the SARIF 2.1.0 schema
/// committed under Tests/JuiceKitTests/Schemas. The python is found as
/// JuiceKitTests' `TestPython` finds it (another test target): `JUICE_PYTHON`,
/// else `.build/venv/bin/python`, else `python3`.
enum SARIFValidation {
    static let schema = ToolRunner.packageRoot.appendingPathComponent("Tests/JuiceKitTests/Schemas/sarif-schema-2.1.0.json")

    static let command: (executable: URL, prefix: [String]) = {
        if let chosen = ProcessInfo.processInfo.environment["JUICE_PYTHON"], !chosen.isEmpty {
            return (URL(fileURLWithPath: chosen), [])
        }
        let venv = ToolRunner.packageRoot.appendingPathComponent(".build/venv/bin/python")
        if FileManager.default.isExecutableFile(atPath: venv.path) { return (venv, []) }
        return (URL(fileURLWithPath: "/usr/bin/env"), ["python3"])
    }()

    /// Why the validator cannot run (the test then fails, not skips), or nil.
    static let problem: String? = {
        let name = command.prefix.last ?? command.executable.path
        guard (try? python(["-c", "import jsonschema"], stdin: ""))?.status == 0 else {
            return "\(name) cannot import jsonschema; `make test` pins it into .build/venv and points JUICE_PYTHON at it"
        }
        return nil
    }()

    /// "valid", or the validator's first complaint, or why there is no
    /// validator (so the caller's `== "valid"` fails, saying so).
    static func validate(_ document: String) throws -> String {
        if let problem { return problem }
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            errors = list(jsonschema.Draft4Validator(schema).iter_errors(json.load(sys.stdin)))
            print("valid" if not errors else errors[0].message)
            """
        let result = try python(["-c", script, schema.path], stdin: document)
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func python(_ arguments: [String], stdin: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = command.executable
        process.arguments = command.prefix + arguments
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

@Suite("README stays true")
struct ReadmeTests {
    /// The README's graph is the tool's output, not a drawing: `make graph` writes it.
    @Test func readmeGraphIsWhatTheToolPrints() throws {
        let readme = try String(contentsOf: ToolRunner.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let graph = try ToolRunner.lint("graph", "recipes")
        #expect(graph.exitCode == 0)
        let block = "<!-- juice-lint graph: begin -->\n```mermaid\n" + graph.stdout + "```\n<!-- juice-lint graph: end -->"
        #expect(readme.contains(block), "README.md's graph is stale: run `make graph`")
    }

    /// The two commands a newcomer runs come first.
    @Test func readmeStartsWithTheTwoCommands() throws {
        let readme = try String(contentsOf: ToolRunner.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let firstBlock = try #require(readme.components(separatedBy: "```").dropFirst().first)
        #expect(firstBlock.contains("make run"))
        #expect(firstBlock.contains("make test"))
    }
}
