import Foundation
import Testing

/// `juice-lint --fix` and `--fix --diff` through the built binary, on books
/// in temporary folders: the fixed bytes, what is printed, the exit codes.
///
/// The book mixes what a fix must leave alone: comments after values and on
/// lines of their own, flow and block style, single and double quotes, an
/// anchor and its alias, Korean and emoji text, and one file with a
/// byte-order mark, CRLF line ends and no final line break.
@Suite struct FixEndToEndTests {
    static let fruits = """
        # Fruits and opening stock. Every comment stays.
        version: 1
        fruits:
          mango: { label: "🥭 Mango" }   # flow style, double quotes
          망고: { label: '망고 🍋' }
          kiwi:
            lable: Kiwi                  # misspelt key
            emoji: 🥝
        stock:
          mango: 007    # padded
          망고: +3
          kiwi: 1_000

        """

    static let menu = """
        recipes:
          base: &base { mangoo: 1, 망고0: 2 }   # an anchor, misspelt inside
        menu:
          mango-juice:
            label: "망고 주스 🥭"
            recipe: *base
          kiwi-cup:
            recipe:
              kiwii: 1      # block style
              base: 01
          # juice-lint disable-next-line unused-fruit
          kiwi-soda: { recipe: { 'kiwi': 2 } }

        """

    /// A byte-order mark, CRLF line ends, and no break after the last line.
    static let crlf: [UInt8] = [0xEF, 0xBB, 0xBF] + Array((
        "menu:\r\n"
            + "  lime-cup: { recipe: { \"mangoo\": 02 } }   # CRLF and a BOM\r\n"
            + "  # juice-lint disable-next-line unused-recipe\r\n"
            + "  melon-cup:\r\n"
            + "    recipe: { 'kiwii': 1 }"
    ).utf8)

    static let fixedFruits = """
        # Fruits and opening stock. Every comment stays.
        version: 1
        fruits:
          mango: { label: "🥭 Mango" }   # flow style, double quotes
          망고: { label: '망고 🍋' }
          kiwi:
            label: Kiwi                  # misspelt key
            emoji: 🥝
        stock:
          mango: 7    # padded
          망고: 3
          kiwi: 1000

        """

    static let fixedMenu = """
        recipes:
          base: &base { mango: 1, 망고: 2 }   # an anchor, misspelt inside
        menu:
          mango-juice:
            label: "망고 주스 🥭"
            recipe: *base
          kiwi-cup:
            recipe:
              kiwi: 1      # block style
              base: 1
          kiwi-soda: { recipe: { 'kiwi': 2 } }

        """

    static let fixedCRLF: [UInt8] = [0xEF, 0xBB, 0xBF] + Array((
        "menu:\r\n"
            + "  lime-cup: { recipe: { \"mango\": 2 } }   # CRLF and a BOM\r\n"
            + "  melon-cup:\r\n"
            + "    recipe: { 'kiwi': 1 }"
    ).utf8)

    /// What was fixed: file by file, each fix where it stood in the file as read.
    static let fixes = """
        recipes/crlf.yaml: 4 fixes
          2:26: replace 'mangoo' with 'mango' [unknown-fruit]
          2:35: write 2 [invalid-amount]
          3:1: remove the suppression comment [unused-suppression]
          5:16: replace 'kiwii' with 'kiwi' [unknown-fruit]
        recipes/fruits.yaml: 4 fixes
          7:5: replace 'lable' with 'label' [unknown-key]
          10:10: write 7 [invalid-amount]
          11:7: write 3 [invalid-amount]
          12:9: write 1000 [invalid-amount]
        recipes/menu.yaml: 5 fixes
          2:17: replace 'mangoo' with 'mango' [unknown-fruit]
          2:28: replace '망고0' with '망고' [unknown-fruit]
          9:7: replace 'kiwii' with 'kiwi' [unknown-fruit]
          10:13: write 1 [invalid-amount]
          11:1: remove the suppression comment [unused-suppression]

        """

    /// The diff `--fix --diff` prints for the book: CRLF lines keep their `\r`.
    static let diff = """
        --- a/recipes/crlf.yaml
        +++ b/recipes/crlf.yaml
        @@ -1,5 +1,4 @@
         \u{FEFF}menu:\r
        -  lime-cup: { recipe: { "mangoo": 02 } }   # CRLF and a BOM\r
        -  # juice-lint disable-next-line unused-recipe\r
        +  lime-cup: { recipe: { "mango": 2 } }   # CRLF and a BOM\r
           melon-cup:\r
        -    recipe: { 'kiwii': 1 }
        \\ No newline at end of file
        +    recipe: { 'kiwi': 1 }
        \\ No newline at end of file
        --- a/recipes/fruits.yaml
        +++ b/recipes/fruits.yaml
        @@ -4,9 +4,9 @@
           mango: { label: "🥭 Mango" }   # flow style, double quotes
           망고: { label: '망고 🍋' }
           kiwi:
        -    lable: Kiwi                  # misspelt key
        +    label: Kiwi                  # misspelt key
             emoji: 🥝
         stock:
        -  mango: 007    # padded
        -  망고: +3
        -  kiwi: 1_000
        +  mango: 7    # padded
        +  망고: 3
        +  kiwi: 1000
        --- a/recipes/menu.yaml
        +++ b/recipes/menu.yaml
        @@ -1,12 +1,11 @@
         recipes:
        -  base: &base { mangoo: 1, 망고0: 2 }   # an anchor, misspelt inside
        +  base: &base { mango: 1, 망고: 2 }   # an anchor, misspelt inside
         menu:
           mango-juice:
             label: "망고 주스 🥭"
             recipe: *base
           kiwi-cup:
             recipe:
        -      kiwii: 1      # block style
        -      base: 01
        -  # juice-lint disable-next-line unused-fruit
        +      kiwi: 1      # block style
        +      base: 1
           kiwi-soda: { recipe: { 'kiwi': 2 } }

        """

    static func book() throws -> TemporaryBook {
        try TemporaryBook([
            "recipes/fruits.yaml": Array(fruits.utf8), "recipes/menu.yaml": Array(menu.utf8), "recipes/crlf.yaml": crlf,
        ])
    }

    @Test func fixEditsInPlaceAndKeepsEveryOtherByte() throws {
        let book = try Self.book()
        defer { book.remove() }
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: book.url("recipes/fruits.yaml").path)
        let result = try book.lint("--fix")
        #expect(result.exitCode == 0)
        #expect(result.stdout == "")
        #expect(result.stderr == Self.fixes + "made 13 fixes in 3 files\nfiles: 3, errors: 0, warnings: 0, infos: 0\n")
        #expect(try book.text("recipes/fruits.yaml") == Self.fixedFruits)
        #expect(try book.text("recipes/menu.yaml") == Self.fixedMenu)
        #expect(try book.bytes("recipes/crlf.yaml") == Self.fixedCRLF)
        // Written through a temporary file and a rename, with the file's own permissions.
        #expect(try book.identity("recipes/fruits.yaml").permissions == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: book.url("recipes").path).sorted() == ["crlf.yaml", "fruits.yaml", "menu.yaml"])
    }

    @Test func aSecondFixChangesNothing() throws {
        let book = try Self.book()
        defer { book.remove() }
        #expect(try book.lint("--fix").exitCode == 0)
        let before = try ["crlf.yaml", "fruits.yaml", "menu.yaml"].map { try book.identity("recipes/" + $0) }
        let again = try book.lint("--fix")
        #expect(again.exitCode == 0)
        #expect(again.stdout == "")
        #expect(again.stderr == "no fixes to make\nfiles: 3, errors: 0, warnings: 0, infos: 0\n")
        let after = try ["crlf.yaml", "fruits.yaml", "menu.yaml"].map { try book.identity("recipes/" + $0) }
        #expect(before.map(\.inode) == after.map(\.inode))
        #expect(before.map(\.modified) == after.map(\.modified))
        #expect(try book.bytes("recipes/crlf.yaml") == Self.fixedCRLF)
    }

    /// The diff changes nothing, and `patch -p1` or `git apply` turns the
    /// book into what `--fix` writes.
    @Test func diffChangesNothingAndAppliesToTheSameBytes() throws {
        let book = try Self.book()
        defer { book.remove() }
        let result = try book.lint("--fix", "--diff")
        #expect(result.exitCode == 0)
        #expect(result.stdout == Self.diff)
        #expect(result.stderr == Self.fixes
            + "the diff makes 13 fixes in 3 files; no file was changed\nfiles: 3, errors: 0, warnings: 0, infos: 0\n")
        #expect(try book.text("recipes/fruits.yaml") == Self.fruits)
        #expect(try book.text("recipes/menu.yaml") == Self.menu)
        #expect(try book.bytes("recipes/crlf.yaml") == Self.crlf)
        let patchFile = book.root.appendingPathComponent("fix.patch")
        try Data(result.stdout.utf8).write(to: patchFile)
        for applier in [["/usr/bin/patch", "-p1", "-i", patchFile.path], ["/usr/bin/git", "apply", patchFile.path]]
        where FileManager.default.isExecutableFile(atPath: applier[0]) {
            let copy = try book.copy()
            defer { copy.remove() }
            let applied = try ToolRunner.run(applier[0], Array(applier.dropFirst()), in: copy.root)
            #expect(applied.exitCode == 0, "\(applier[0]): \(applied.stderr)")
            #expect(try copy.text("recipes/fruits.yaml") == Self.fixedFruits, "\(applier[0])")
            #expect(try copy.text("recipes/menu.yaml") == Self.fixedMenu, "\(applier[0])")
            #expect(try copy.bytes("recipes/crlf.yaml") == Self.fixedCRLF, "\(applier[0])")
        }
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/patch"), "GNU patch checks the diff")
    }

    /// A file libyaml cannot read is not touched at all: not its bytes, not
    /// its inode, not its modification time. The rest of the book is fixed,
    /// and the syntax error is what is left, exit 1.
    @Test func aFileWithASyntaxErrorIsNeverEdited() throws {
        let broken = "fruits:\n  lime: { label: 01\nstock:\n  lime: 007\n"
        let book = try TemporaryBook(text: [
            "recipes/broken.yaml": broken,
            "recipes/good.yaml": "fruits:\n  mango:\nstock:\n  mango: 007\nmenu:\n  juice: { recipe: { mangoo: 1 } }\n",
        ])
        defer { book.remove() }
        let past = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: book.url("recipes/broken.yaml").path)
        let before = try book.identity("recipes/broken.yaml")
        let diff = try book.lint("--fix", "--diff")
        #expect(diff.stdout == """
            --- a/recipes/good.yaml
            +++ b/recipes/good.yaml
            @@ -1,6 +1,6 @@
             fruits:
               mango:
             stock:
            -  mango: 007
            +  mango: 7
             menu:
            -  juice: { recipe: { mangoo: 1 } }
            +  juice: { recipe: { mango: 1 } }

            """)
        let result = try book.lint("--fix")
        #expect(result.exitCode == 1)
        #expect(result.stderr == """
            recipes/broken.yaml: not edited: it has a YAML syntax error
            recipes/good.yaml: 2 fixes
              4:10: write 7 [invalid-amount]
              6:22: replace 'mangoo' with 'mango' [unknown-fruit]
            made 2 fixes in 1 file
            files: 2, errors: 1, warnings: 0, infos: 0

            """)
        #expect(result.stdout == """
            recipes/broken.yaml:3:6: error: did not find expected ',' or '}' [yaml-syntax]
              |
            3 | stock:
              |      ^
            recipes/broken.yaml:2:9: note: while parsing a flow mapping
              |
            2 |   lime: { label: 01
              |         ^

            """)
        #expect(try book.text("recipes/broken.yaml") == broken)
        let after = try book.identity("recipes/broken.yaml")
        #expect(after.inode == before.inode)
        #expect(after.modified == past)
        #expect(try book.text("recipes/good.yaml") == "fruits:\n  mango:\nstock:\n  mango: 7\nmenu:\n  juice: { recipe: { mango: 1 } }\n")
    }

    /// What no fix resolves is reported as usual after the fixes, in the
    /// format asked for: standard output stays one JSON document.
    @Test func whatIsLeftIsReportedWithTheUsualExitCode() throws {
        let book = try TemporaryBook(text: [
            "recipes/book.yaml": "fruits:\n  mango:\nstock:\n  mango: 010\nmenu:\n  juice: { recipe: { durian: 1, mango: 1 } }\n",
        ])
        defer { book.remove() }
        let result = try book.lint("--fix", "--format", "json")
        #expect(result.exitCode == 1)
        #expect(result.stdout == """
            {"version":1,"diagnostics":[{"file":"recipes/book.yaml","line":6,"column":22,"endLine":6,"endColumn":28,\
            "severity":"error","rule":"unknown-fruit","message":"unknown fruit 'durian'","notes":[],\
            "help":"declare it under 'fruits:' or 'recipes:', or fix the name"}],\
            "summary":{"files":1,"errors":1,"warnings":0,"infos":0,"omitted":0}}

            """)
        #expect(result.stderr == """
            recipes/book.yaml: 1 fix
              4:10: write 10 [invalid-amount]
            made 1 fix in 1 file
            files: 1, errors: 1, warnings: 0, infos: 0

            """)
        #expect(try book.text("recipes/book.yaml") == "fruits:\n  mango:\nstock:\n  mango: 10\nmenu:\n  juice: { recipe: { durian: 1, mango: 1 } }\n")
        // --diff exits as --fix would: the fixed book still has the error.
        #expect(try book.lint("--fix", "--diff").exitCode == 1)
    }

    /// The README's "Fixing" and "Standard input" examples are what the
    /// tool prints, on the book they were run on.
    @Test func readmeQuotesWhatTheToolPrints() throws {
        let readme = try String(contentsOf: ToolRunner.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        func book() throws -> TemporaryBook {
            try TemporaryBook(text: [
                "recipes/fruits.yaml": "fruits:\n  mango: { label: 망고 }\n  kiwi:  { label: 키위 }   # from New Zealand\nstock:\n  mango: 010\n  kiwi: 1_000\n",
                "recipes/menu.yaml": "menu:\n  mango-juice: { recipe: { mangoo: 2 } }\n  kiwi-juice:\n    recipe:\n      kiwi: 3\n      lime: 1\n",
            ])
        }
        let fixed = try book()
        defer { fixed.remove() }
        let first = try fixed.lint("--fix")
        #expect(first.exitCode == 1)
        #expect(readme.contains("$ juice-lint --fix\n" + first.stdout + first.stderr + "$ juice-lint --fix >/dev/null"))
        let second = try fixed.lint("--fix")
        #expect(readme.contains("$ juice-lint --fix >/dev/null; echo \"exit: $?\"\n" + second.stderr + "exit: \(second.exitCode)\n```"))
        let diffed = try book()
        defer { diffed.remove() }
        let diff = try diffed.lint("--fix", "--diff")
        #expect(readme.contains("$ juice-lint --fix --diff 2>/dev/null\n" + diff.stdout + "$ juice-lint --fix --diff 2>/dev/null | patch -p1\n"))
        let piped = try fixed.lint("--stdin-filename", "recipes/menu.yaml", "-", stdin: "menu:\n  juice: { recipe: { kiwii: 1 } }\n")
        #expect(readme.contains(
            "$ printf 'menu:\\n  juice: { recipe: { kiwii: 1 } }\\n' | juice-lint --stdin-filename recipes/menu.yaml -\n"
                + piped.stdout + piped.stderr + "```"
        ))
    }

    @Test func helpNamesTheOptions() throws {
        let help = try ToolRunner.lint("help", "lint")
        #expect(help.exitCode == 0)
        for line in [
            "  --fix                   Make every fix the linter is sure of, in place, then",
            "  --diff                  With --fix: print the fixes as a unified diff, for",
            "  --stdin-filename <PATH> Lint standard input as the book file PATH, in place",
        ] {
            #expect(help.stdout.contains(line + "\n"), "\(line)")
        }
    }

    @Test(arguments: [
        (["--diff"], "--diff shows what --fix would change; add --fix"),
        (["--fix", "--stdin-filename", "recipes/a.yaml", "-"],
         "--fix edits files in place, and standard input is no file; leave out '-' and --stdin-filename"),
        (["--fix", "-"], "--fix edits files in place, and standard input is no file; leave out '-' and --stdin-filename"),
    ])
    func fixUsageErrors(arguments: [String], message: String) throws {
        let result = try ToolRunner.run("juice-lint", arguments)
        #expect(result.exitCode == 2)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("Error: \(message)\nUsage: juice-lint lint "))
    }

    /// A CRLF file whose last line is fixed: the diff's last line keeps its
    /// `\r`, so `git apply` takes the diff as it is and both appliers give
    /// the bytes `--fix` writes.
    @Test func aDiffEndingInACRLFLineApplies() throws {
        let menu = Array("menu:\r\n  juice:\r\n    recipe:\r\n      mangoo: 1\r\n".utf8)
        let book = try TemporaryBook(["recipes/fruits.yaml": Array("fruits:\r\n  mango:\r\nstock:\r\n  mango: 1\r\n".utf8), "recipes/menu.yaml": menu])
        defer { book.remove() }
        let result = try book.lint("--fix", "--diff")
        #expect(result.stdout.hasSuffix("-      mangoo: 1\r\n+      mango: 1\r\n"))
        try checkDiffApplies(result.stdout, in: book, file: "recipes/menu.yaml", equals: Array("menu:\r\n  juice:\r\n    recipe:\r\n      mango: 1\r\n".utf8))
    }

    /// Linted from a subfolder of a work tree as `../recipes`, the diff still
    /// names the file from the work tree's root, where `patch -p1` and
    /// `git apply` run; `..` would be refused by both.
    @Test func diffNamesFilesFromTheBaseNotTheWorkingDirectory() throws {
        let book = try TemporaryBook(text: [
            "recipes/fruits.yaml": "fruits:\n  mango:\nstock:\n  mango: 1\n", "recipes/menu.yaml": "menu:\n  juice: { recipe: { mangoo: 1 } }\n",
            "docs/readme.txt": "",
        ])
        defer { book.remove() }
        try FileManager.default.createDirectory(at: book.url(".git"), withIntermediateDirectories: true)
        let result = try ToolRunner.run("juice-lint", ["--fix", "--diff", "../recipes"], in: book.url("docs"))
        #expect(result.stdout == """
            --- a/recipes/menu.yaml
            +++ b/recipes/menu.yaml
            @@ -1,2 +1,2 @@
             menu:
            -  juice: { recipe: { mangoo: 1 } }
            +  juice: { recipe: { mango: 1 } }

            """)
        try checkDiffApplies(result.stdout, in: book, file: "recipes/menu.yaml", equals: Array("menu:\n  juice: { recipe: { mango: 1 } }\n".utf8))
        // --base-path names another base.
        let based = try ToolRunner.run("juice-lint", ["--fix", "--diff", "--base-path", "../recipes", "../recipes"], in: book.url("docs"))
        #expect(based.stdout.hasPrefix("--- a/menu.yaml\n+++ b/menu.yaml\n"))
    }

    /// A name with a space ends with a tab in the header, as git writes it.
    @Test func aDiffHeaderWithASpaceEndsWithATab() throws {
        let book = try TemporaryBook(text: ["recipes/my menu.yaml": "fruits:\n  mango:\nstock:\n  mango: 1\nmenu:\n  juice: { recipe: { mangoo: 1 } }\n"])
        defer { book.remove() }
        let result = try book.lint("--fix", "--diff")
        #expect(result.stdout.hasPrefix("--- a/recipes/my menu.yaml\t\n+++ b/recipes/my menu.yaml\t\n"))
        try checkDiffApplies(result.stdout, in: book, file: "recipes/my menu.yaml",
                             equals: Array("fruits:\n  mango:\nstock:\n  mango: 1\nmenu:\n  juice: { recipe: { mango: 1 } }\n".utf8))
    }

    /// Applies `diff` (printed without its last newline, as the report is)
    /// to a copy of `book` with `patch -p1` and with `git apply`, and checks
    /// that `file` then holds `expected`.
    func checkDiffApplies(_ diff: String, in book: TemporaryBook, file: String, equals expected: [UInt8]) throws {
        let patchFile = FileManager.default.temporaryDirectory.appendingPathComponent("fix-\(UUID().uuidString).patch")
        defer { try? FileManager.default.removeItem(at: patchFile) }
        try Data((diff + "\n").utf8).write(to: patchFile)
        for applier in [["/usr/bin/patch", "-p1", "-i", patchFile.path], ["/usr/bin/git", "apply", patchFile.path]] {
            #expect(FileManager.default.isExecutableFile(atPath: applier[0]), "\(applier[0]) checks the diff")
            guard FileManager.default.isExecutableFile(atPath: applier[0]) else { continue }
            let copy = try book.copy()
            defer { copy.remove() }
            let applied = try ToolRunner.run(applier[0], Array(applier.dropFirst()), in: copy.root)
            #expect(applied.exitCode == 0, "\(applier[0]): \(applied.stderr)")
            #expect(try copy.bytes(file) == expected, "\(applier[0])")
        }
    }
}
