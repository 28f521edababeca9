import Foundation
import Testing

@Suite("juice-lint end to end")
struct JuiceLintTests {
    @Test func canonicalBookIsClean() throws {
        let result = try ToolRunner.lint()
        #expect(result.exitCode == 0)
        #expect(result.stdout == "")
        #expect(result.stderr == "files: 2, errors: 0, warnings: 0\n")
    }

    @Test func explicitPathsAreShownRelativeWithoutDotSlash() throws {
        let result = try ToolRunner.lint("./recipes/", ToolRunner.packageRoot.appendingPathComponent("recipes/menu.yaml").path)
        #expect(result.exitCode == 0)
        #expect(result.stderr == "files: 2, errors: 0, warnings: 0\n")
    }

    @Test func brokenBookTextReportsEveryProblemSorted() throws {
        let result = try ToolRunner.lint("broken-book", in: ToolRunner.fixtures)
        #expect(result.exitCode == 1)
        #expect(result.stdout == """
            broken-book/fruits.yaml:4:13: error: unknown key 'lable' in fruit 'banana' [unknown-key]
              help: did you mean 'label'?
            broken-book/menu.yaml:3:15: error: unknown fruit 'mangoo' [unknown-fruit]
              help: did you mean 'mango'?
            broken-book/menu.yaml:4:3: error: 'kiwi' is already defined as a fruit [duplicate-definition]
            broken-book/fruits.yaml:3:3: note: 'kiwi' is first defined here
              help: fruits, recipes and menu items share one namespace; rename one of them
            broken-book/menu.yaml:5:21: error: amount of 'kiwi' in menu item 'kiwi' is 0 [zero-amount]
              help: use at least 1, or remove the ingredient
            broken-book/menu.yaml:8:13: error: recipe cycle: base-a -> base-b -> base-a [recipe-cycle]
            broken-book/menu.yaml:7:13: note: 'base-a' uses 'base-b' here
              help: a recipe cannot contain itself, directly or through other recipes

            """)
        #expect(result.stderr == "files: 2, errors: 5, warnings: 0\n")
    }

    @Test func brokenBookJSONHasTheVersionedShape() throws {
        let result = try ToolRunner.lint("--format", "json", "broken-book", in: ToolRunner.fixtures)
        #expect(result.exitCode == 1)
        #expect(result.stderr == "files: 2, errors: 5, warnings: 0\n")
        let expected = """
            {"version":1,"diagnostics":[\
            {"file":"broken-book/fruits.yaml","line":4,"column":13,"endLine":4,"endColumn":18,"severity":"error",\
            "rule":"unknown-key","message":"unknown key 'lable' in fruit 'banana'","notes":[],"help":"did you mean 'label'?"},\
            {"file":"broken-book/menu.yaml","line":3,"column":15,"endLine":3,"endColumn":21,"severity":"error",\
            "rule":"unknown-fruit","message":"unknown fruit 'mangoo'","notes":[],"help":"did you mean 'mango'?"},\
            {"file":"broken-book/menu.yaml","line":4,"column":3,"endLine":4,"endColumn":7,"severity":"error",\
            "rule":"duplicate-definition","message":"'kiwi' is already defined as a fruit",\
            "notes":[{"file":"broken-book/fruits.yaml","line":3,"column":3,"message":"'kiwi' is first defined here"}],\
            "help":"fruits, recipes and menu items share one namespace; rename one of them"},\
            {"file":"broken-book/menu.yaml","line":5,"column":21,"endLine":5,"endColumn":22,"severity":"error",\
            "rule":"zero-amount","message":"amount of 'kiwi' in menu item 'kiwi' is 0","notes":[],\
            "help":"use at least 1, or remove the ingredient"},\
            {"file":"broken-book/menu.yaml","line":8,"column":13,"endLine":8,"endColumn":19,"severity":"error",\
            "rule":"recipe-cycle","message":"recipe cycle: base-a -> base-b -> base-a",\
            "notes":[{"file":"broken-book/menu.yaml","line":7,"column":13,"message":"'base-a' uses 'base-b' here"}],\
            "help":"a recipe cannot contain itself, directly or through other recipes"}\
            ],"summary":{"files":2,"errors":5,"warnings":0}}

            """
        #expect(result.stdout == expected)
        // And it is real JSON that a CI tool can load.
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let diagnostics = try #require(object?["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 5)
        #expect(Set(diagnostics[0].keys) == [
            "file", "line", "column", "endLine", "endColumn", "severity", "rule", "message", "notes", "help",
        ])
    }

    @Test func cleanBookJSONHasNullFreeEmptyDiagnostics() throws {
        let result = try ToolRunner.lint("--format", "json")
        #expect(result.exitCode == 0)
        #expect(result.stdout == #"{"version":1,"diagnostics":[],"summary":{"files":2,"errors":0,"warnings":0}}"# + "\n")
    }

    @Test func missingPathIsAUsageError() throws {
        let result = try ToolRunner.lint("no-such-dir")
        #expect(result.exitCode == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "juice-lint: error: no such file or directory: 'no-such-dir'\n")
    }

    @Test func unreadableFileIsAUsageError() throws {
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

    @Test func unknownOptionIsAUsageError() throws {
        let result = try ToolRunner.lint("--bogus")
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("Error: Unknown option '--bogus'"))
    }

    @Test func badFormatIsAUsageError() throws {
        let result = try ToolRunner.lint("--format", "xml")
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("'xml'"))
    }

    @Test func helpDocumentsTheExitCodes() throws {
        let result = try ToolRunner.lint("--help")
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("0  no errors"))
        #expect(result.stdout.contains("1  errors were found"))
        #expect(result.stdout.contains("2  bad usage, or a path that does not exist or cannot be read"))
    }

    @Test func hiddenEntriesAndOtherExtensionsAreSkipped() throws {
        let result = try ToolRunner.lint("skipping", in: ToolRunner.fixtures)
        #expect(result.exitCode == 0)
        #expect(result.stderr == "files: 2, errors: 0, warnings: 0\n")
    }

    /// Hostile files must end quickly in a diagnostic or a clean result, never a trap.
    @Test(arguments: [
        ("empty.yaml", 0, ""),
        ("binary.yaml", 1, "hostile/binary.yaml:1:1: error: control characters are not allowed (U+0000) [yaml-syntax]\n"),
        ("invalid-utf8.yaml", 1, "hostile/invalid-utf8.yaml:2:20: error: invalid leading UTF-8 octet (byte 0xFF) [yaml-syntax]\n"),
        ("tabs.yaml", 1, "hostile/tabs.yaml:2:1: error: found character that cannot start any token [yaml-syntax]\n  help: YAML indents with spaces; replace the tab with spaces\n"),
        ("alias-bomb.yaml", 1, "hostile/alias-bomb.yaml:"),
    ])
    func hostileFile(name: String, exitCode: Int32, prefix: String) throws {
        let result = try ToolRunner.lint("hostile/" + name, in: ToolRunner.fixtures)
        #expect(result.exitedNormally)
        #expect(result.exitCode == exitCode)
        #expect(result.stdout.hasPrefix(prefix))
        #expect(result.seconds < 1.0)
    }

    @Test func aliasBombIsStoppedByTheExpansionBound() throws {
        let result = try ToolRunner.lint("hostile/alias-bomb.yaml", in: ToolRunner.fixtures)
        #expect(result.stdout.contains("[resource-limit]"))
        #expect(result.stdout.contains("aliases in this document expand to more than 1000000 nodes"))
    }
}
