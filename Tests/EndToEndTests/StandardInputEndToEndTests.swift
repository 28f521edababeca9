import Foundation
import Testing

/// `juice-lint --stdin-filename PATH -`: standard input linted as the book
/// file PATH, with the rest of the book read from disk, as an editor plugin
/// or a pipeline runs it from the project's root.
@Suite struct StandardInputEndToEndTests {
    static let fruits = "fruits:\n  mango: { label: 망고 }\n  kiwi:\nstock:\n  mango: 3\n  kiwi: 2\n"
    static let menu = "menu:\n  juice: { recipe: { mango: 1 } }\n  cup: { recipe: { kiwi: 1 } }\n"

    static func book() throws -> TemporaryBook {
        try TemporaryBook(text: ["recipes/fruits.yaml": fruits, "recipes/menu.yaml": menu])
    }

    /// A typo only the buffer has is reported under the name given, at its
    /// line and column in the buffer (after Korean text, columns count
    /// characters and the caret allows for their width), and the file on
    /// disk does not stand in for it.
    @Test func aTypoOnlyInStandardInputIsReportedUnderTheGivenName() throws {
        let book = try Self.book()
        defer { book.remove() }
        let buffer = "menu:\n  juice: { label: 망고주스, recipe: { mangoo: 1 } }\n  cup: { recipe: { kiwi: 1 } }\n"
        let result = try book.lint("--stdin-filename", "recipes/menu.yaml", "-", stdin: buffer)
        #expect(result.exitCode == 1)
        #expect(result.stdout == """
            recipes/menu.yaml:2:35: error: unknown fruit 'mangoo' [unknown-fruit]
              |
            2 |   juice: { label: 망고주스, recipe: { mangoo: 1 } }
              |                                       ^~~~~~
              = help: did you mean 'mango'?

            """)
        #expect(result.stderr == "files: 2, errors: 1, warnings: 0, infos: 0\n")
        // The same book from disk alone is clean.
        #expect(try book.lint().exitCode == 0)
    }

    /// Names in the buffer are checked against the files on disk: a fruit
    /// the disk file declares is known, one it does not is not, and a menu
    /// item the disk already has is a duplicate, with a note there.
    @Test func crossFileProblemsAreFoundAgainstTheDisk() throws {
        let book = try Self.book()
        defer { book.remove() }
        let buffer = "menu:\n  juice: { recipe: { mango: 1, lime: 1 } }\n  kiwi: { recipe: { kiwi: 1 } }\n"
        let result = try book.lint("--format", "json", "--stdin-filename", "recipes/menu.yaml", "-", stdin: buffer)
        #expect(result.exitCode == 1)
        #expect(result.stdout == """
            {"version":1,"diagnostics":[\
            {"file":"recipes/menu.yaml","line":2,"column":32,"endLine":2,"endColumn":36,"severity":"error","rule":"unknown-fruit",\
            "message":"unknown fruit 'lime'","notes":[],"help":"declare it under 'fruits:' or 'recipes:', or fix the name"},\
            {"file":"recipes/menu.yaml","line":3,"column":3,"endLine":3,"endColumn":7,"severity":"error","rule":"duplicate-definition",\
            "message":"'kiwi' is already defined as a fruit","notes":[{"file":"recipes/fruits.yaml","line":3,"column":3,\
            "message":"'kiwi' is first defined here"}],"help":"fruits, recipes and menu items share one namespace; rename one of them"}\
            ],"summary":{"files":2,"errors":2,"warnings":0,"infos":0,"omitted":0}}

            """)
    }

    /// The file standard input stands for is not read: here it is bigger
    /// than any recipe file may be, so reading it would fail.
    @Test func theFileOnDiskIsNotRead() throws {
        let book = try Self.book()
        defer { book.remove() }
        let handle = try FileHandle(forWritingTo: book.url("recipes/menu.yaml"))
        try handle.truncate(atOffset: 100 << 20)
        try handle.close()
        let fromDisk = try book.lint()
        #expect(fromDisk.exitCode == 2)
        #expect(fromDisk.stderr == "juice-lint: error: cannot read 'recipes/menu.yaml': larger than 64 MiB, the most a recipe file may be\n")
        let piped = try book.lint("--stdin-filename", "recipes/menu.yaml", "-", stdin: Self.menu)
        #expect(piped.exitCode == 0)
        #expect(piped.stdout == "")
        #expect(piped.stderr == "files: 2, errors: 0, warnings: 0, infos: 0\n")
    }

    /// However the path names the file, it is the book's file, shown as the
    /// book shows it: two files, not three.
    @Test(arguments: ["./recipes/menu.yaml", "recipes//menu.yaml", "recipes/../recipes/menu.yaml", "ABSOLUTE", "link.yaml"])
    func everySpellingOfThePathReplacesTheSameFile(_ given: String) throws {
        let book = try Self.book()
        defer { book.remove() }
        try FileManager.default.createSymbolicLink(atPath: book.url("link.yaml").path, withDestinationPath: "recipes/menu.yaml")
        let path = given == "ABSOLUTE" ? book.url("recipes/menu.yaml").path : given
        let result = try book.lint("--stdin-filename", path, "-", stdin: "menu:\n  juice: { recipe: { kiwii: 1 } }\n")
        #expect(result.exitCode == 1)
        #expect(result.stdout.hasPrefix("recipes/menu.yaml:2:22: error: unknown fruit 'kiwii' [unknown-fruit]\n"), "\(result.stdout)")
        // Two files: the buffer took the disk file's place rather than pieceJoin it.
        #expect(result.stderr == "files: 2, errors: 1, warnings: 0, infos: 0\n")
    }

    /// A file not on disk yet joins the book; the book is the paths given
    /// besides `-`.
    @Test func aNewFileJoinsTheBookNamedByThePaths() throws {
        let book = try TemporaryBook(text: ["shop/fruits.yaml": Self.fruits, "shop/menu.yaml": Self.menu])
        defer { book.remove() }
        let result = try book.lint("--stdin-filename", "shop/more.yaml", "-", "shop", stdin: "menu:\n  smoothie: { recipe: { mango: 1, kiwi: x } }\n")
        #expect(result.exitCode == 1)
        #expect(result.stdout == """
            shop/more.yaml:2:41: error: amount of 'kiwi' in menu item 'smoothie' is 'x', not a whole number [invalid-amount]
              |
            2 |   smoothie: { recipe: { mango: 1, kiwi: x } }
              |                                         ^
              = help: write a whole decimal number of at least 1, with no sign, '_', '.' or exponent

            """)
        #expect(result.stderr == "files: 3, errors: 1, warnings: 0, infos: 0\n")
        #expect(!FileManager.default.fileExists(atPath: book.url("shop/more.yaml").path))
    }

    @Test(arguments: [
        (["-"], "'-' reads a book file from standard input; name it with --stdin-filename PATH"),
        (["--stdin-filename", "recipes/menu.yaml"], "--stdin-filename names the file read from standard input; add '-' to the paths"),
        (["--stdin-filename", "recipes/menu.yaml", "-", "-"], "'-' may be given once: standard input is one file"),
        (["--stdin-filename", "", "-"], "--stdin-filename needs the path of the file standard input stands for"),
        (["--stdin-filename", "/tmp", "-"], "--stdin-filename '/tmp' is a directory; name the file standard input stands for"),
    ])
    func standardInputUsageErrors(arguments: [String], message: String) throws {
        let result = try ToolRunner.run("juice-lint", arguments)
        #expect(result.exitCode == 2)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("Error: \(message)\nUsage: juice-lint lint "))
    }

    /// Standard input named as the `--stock` file stands for the stock file:
    /// checked as the stock, not added to the book as a file that repeats
    /// it, and the file on disk is not read.
    @Test func standardInputNamedAsTheStockFileIsTheStock() throws {
        let book = try TemporaryBook(text: [
            "recipes/fruits.yaml": "fruits:\n  mango: { label: 망고 }\n  kiwi:\n",
            "recipes/menu.yaml": Self.menu,
            "saved.yaml": "stock:\n  mango: 1\n  kiwi: 1\n",
        ])
        defer { book.remove() }
        let result = try book.lint("--stock", "saved.yaml", "--stdin-filename", "./saved.yaml", "-", stdin: "stock:\n  mango: 2\n  kiwii: 1\n")
        #expect(result.exitCode == 1)
        let reported = result.stdout.split(separator: "\n").filter { $0.contains(": error: ") || $0.contains(": info: ") || $0.contains(": warning: ") }
        #expect(reported == [
            "recipes/menu.yaml:3:3: info: menu item 'cup' needs 1 'kiwi' (stock 0), more than the opening stock holds [never-makeable]",
            "saved.yaml:1:1: info: stock file 'saved.yaml' has no entry for fruit 'kiwi', so it starts at 0 [missing-stock]",
            "saved.yaml:3:3: error: unknown fruit 'kiwii' [unknown-fruit]",
        ])
        // Two book files and the stock file; before, the buffer also joined the book and repeated the stock.
        #expect(result.stderr == "files: 3, errors: 1, warnings: 0, infos: 2\n")
    }
}
