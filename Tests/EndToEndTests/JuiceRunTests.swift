import Foundation
import Testing

@Suite("juice-run end to end")
struct JuiceRunTests {
    static let sample = "docs/examples/first-morning.orders"

    static let sampleText = """
        order 1 (docs/examples/first-morning.orders:2): mango-kiwi-juice 망고키위쥬스 served
        order 2 (docs/examples/first-morning.orders:3): strawberry-juice 딸기쥬스 refused (strawberry: need 16, have 10)
        order 3 (docs/examples/first-morning.orders:4): strawberry-banana-juice 딸바쥬스 served
        order 4 (docs/examples/first-morning.orders:5): banana-juice 바나나쥬스 served
        order 5 (docs/examples/first-morning.orders:5): banana-juice 바나나쥬스 served
        restock (docs/examples/first-morning.orders:6): strawberry +20, now 20
        order 6 (docs/examples/first-morning.orders:7): strawberry-juice 딸기쥬스 served
        order 7 (docs/examples/first-morning.orders:8): kiwi-juice 키위쥬스 served

        stock:
          🍓 딸기      strawberry   4
          🍌 바나나    banana       5
          🍍 파인애플  pineapple   10
          🥝 키위      kiwi         6
          🥭 망고      mango        8

        orders: 7, served: 6, refused: 1
        refused by menu item:
          strawberry-juice 딸기쥬스  1
        shortfall (more needed at the worst moment):
          strawberry  16

        """

    @Test func sampleScriptText() throws {
        let result = try ToolRunner.juiceRun([Self.sample])
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == Self.sampleText)
    }

    @Test func sampleScriptFromStandardInput() throws {
        let script = try String(contentsOf: ToolRunner.packageRoot.appendingPathComponent(Self.sample), encoding: .utf8)
        // The same run, its lines named after standard input.
        let fromStandardInput = Self.sampleText.replacingOccurrences(of: "(\(Self.sample):", with: "(<stdin>:")
        #expect(fromStandardInput.hasPrefix("order 1 (<stdin>:2): "))
        let dash = try ToolRunner.juiceRun(["-"], stdin: script)
        #expect(dash.exitCode == 0)
        #expect(dash.stdout == fromStandardInput)
        let implicit = try ToolRunner.juiceRun(["--recipes", "recipes"], stdin: script)
        #expect(implicit.exitCode == 0)
        #expect(implicit.stdout == fromStandardInput)
    }

    @Test func sampleScriptJSONLines() throws {
        let result = try ToolRunner.juiceRun(["--format", "json", Self.sample])
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == """
            {"type":"order","seq":1,"line":2,"source":"docs/examples/first-morning.orders","menu":"mango-kiwi-juice","status":"served","short":[]}
            {"type":"order","seq":2,"line":3,"source":"docs/examples/first-morning.orders","menu":"strawberry-juice","status":"refused","short":[{"fruit":"strawberry","need":16,"have":10}]}
            {"type":"order","seq":3,"line":4,"source":"docs/examples/first-morning.orders","menu":"strawberry-banana-juice","status":"served","short":[]}
            {"type":"order","seq":4,"line":5,"source":"docs/examples/first-morning.orders","menu":"banana-juice","status":"served","short":[]}
            {"type":"order","seq":5,"line":5,"source":"docs/examples/first-morning.orders","menu":"banana-juice","status":"served","short":[]}
            {"type":"restock","line":6,"source":"docs/examples/first-morning.orders","fruit":"strawberry","amount":20,"stock":20}
            {"type":"order","seq":6,"line":7,"source":"docs/examples/first-morning.orders","menu":"strawberry-juice","status":"served","short":[]}
            {"type":"order","seq":7,"line":8,"source":"docs/examples/first-morning.orders","menu":"kiwi-juice","status":"served","short":[]}
            {"type":"summary","orders":7,"served":6,"refused":1,"skipped":0,"stock":{"strawberry":4,"banana":5,"pineapple":10,"kiwi":6,"mango":8},"revenue":null,"refusedByMenu":{"strawberry-juice":1,"banana-juice":0,"kiwi-juice":0,"pineapple-juice":0,"strawberry-banana-juice":0,"mango-juice":0,"mango-kiwi-juice":0},"shortfall":{"strawberry":16,"banana":0,"pineapple":0,"kiwi":0,"mango":0}}

            """)
        for line in result.stdout.split(separator: "\n") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any])
        }
    }

    @Test func refusalListsEveryShortFruit() throws {
        let result = try ToolRunner.juiceRun(["--format", "json", "-"], stdin: "strawberry-juice\nmango-kiwi-juice x6\n")
        #expect(result.exitCode == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines[0] == #"{"type":"order","seq":1,"line":1,"source":"<stdin>","menu":"strawberry-juice","status":"refused","short":[{"fruit":"strawberry","need":16,"have":10}]}"#)
        // Five served (mango 10 -> 0 in steps of 2), the sixth refused for mango alone.
        #expect(lines[6] == #"{"type":"order","seq":7,"line":2,"source":"<stdin>","menu":"mango-kiwi-juice","status":"refused","short":[{"fruit":"mango","need":2,"have":0}]}"#)
        #expect(lines[7] == #"{"type":"summary","orders":7,"served":5,"refused":2,"skipped":0,"stock":{"strawberry":10,"banana":10,"pineapple":10,"kiwi":5,"mango":0},"revenue":null,"refusedByMenu":{"strawberry-juice":1,"banana-juice":0,"kiwi-juice":0,"pineapple-juice":0,"strawberry-banana-juice":0,"mango-juice":0,"mango-kiwi-juice":1},"shortfall":{"strawberry":6,"banana":0,"pineapple":0,"kiwi":0,"mango":2}}"#)
    }

    @Test func badLinesAreReportedSkippedAndFailTheRun() throws {
        let result = try ToolRunner.juiceRun(["--recipes", "../../../recipes", "scripts/mistakes.orders"], in: ToolRunner.fixtures)
        #expect(result.exitCode == 1)
        #expect(result.stderr == """
            scripts/mistakes.orders:2: error: unknown menu item 'mango-jiuce'
              help: did you mean 'mango-juice'?
            scripts/mistakes.orders:3: error: 'mango' is a fruit, not a menu item
              help: order a menu item, or 'restock mango N'
            scripts/mistakes.orders:4: error: 'x0' is not a repeat count
              help: write 'x' and a whole number of at least 1, such as 'x3'
            scripts/mistakes.orders:5: error: expected 'restock FRUIT AMOUNT'
              help: for example 'restock mango 5'
            scripts/mistakes.orders:6: error: unknown fruit 'mangoo'
              help: did you mean 'mango'?
            scripts/mistakes.orders:7: error: expected 'MENU-ID' or 'MENU-ID xN', found 3 words

            """)
        // The good lines around the bad ones still ran.
        #expect(result.stdout.hasPrefix("""
            order 1 (scripts/mistakes.orders:1): banana-juice 바나나쥬스 served
            order 2 (scripts/mistakes.orders:8): kiwi-juice 키위쥬스 served
            order 3 (scripts/mistakes.orders:8): kiwi-juice 키위쥬스 served

            """))
        #expect(result.stdout.contains("\norders: 3, served: 3, refused: 0, skipped lines: 6\n"))
    }

    @Test func restockThatWouldOverflowIsRefusedAndStockKept() throws {
        let result = try ToolRunner.juiceRun(["--format", "json", "--recipes", "../../../recipes", "scripts/overflow.orders"], in: ToolRunner.fixtures)
        #expect(result.exitedNormally)
        #expect(result.exitCode == 1)
        #expect(result.stderr == "scripts/overflow.orders:2: error: restocking 100 'kiwi' would overflow its stock of 9223372036854775800\n")
        // 10 + 9223372036854775790 = 9223372036854775800; the overflowing restock changes nothing; kiwi-juice takes 3.
        #expect(result.stdout.contains(#"{"type":"restock","line":1,"source":"scripts/overflow.orders","fruit":"kiwi","amount":9223372036854775790,"stock":9223372036854775800}"#))
        #expect(result.stdout.contains(#""kiwi":9223372036854775797"#))
    }

    @Test func invalidBookPrintsDiagnosticsAndExits1() throws {
        let result = try ToolRunner.juiceRun(["--recipes", "broken-book", "-"], in: ToolRunner.fixtures, stdin: "mango-juice\n")
        #expect(result.exitCode == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("broken-book/fruits.yaml:4:13: error: unknown key 'lable' in fruit 'banana' [unknown-key]\n"))
        #expect(result.stderr.hasSuffix("juice-run: error: the recipe book is invalid\n"))
    }

    @Test func missingScriptIsAUsageError() throws {
        let result = try ToolRunner.juiceRun(["no-such.orders"])
        #expect(result.exitCode == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "juice-run: error: no such file or directory: 'no-such.orders'\n")
    }

    @Test func missingRecipesIsAUsageError() throws {
        let result = try ToolRunner.juiceRun(["--recipes", "no-such-dir", "-"], stdin: "")
        #expect(result.exitCode == 2)
        #expect(result.stderr == "juice-run: error: no such file or directory: 'no-such-dir'\n")
    }

    @Test func unknownOptionIsAUsageError() throws {
        let result = try ToolRunner.juiceRun(["--bogus"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("Error: Unknown option '--bogus'"))
    }

    @Test func helpDocumentsScriptAndExitCodes() throws {
        let result = try ToolRunner.juiceRun(["--help"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("restock FRUIT N"))
        #expect(result.stdout.contains("1  the book or stock file is invalid, or a script line was skipped"))
        #expect(result.stdout.contains("set FRUIT N"))
        #expect(result.stdout.contains("3  the stock could not be saved"))
    }

    /// The exit codes issue 11 added or changed are in --help.
    @Test func helpDocumentsSignalsAndTheSaveDestination() throws {
        let result = try ToolRunner.juiceRun(["--help"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("129, 130, 143  stopped by SIGHUP, SIGINT or SIGTERM, in a replay or at\n"))
        #expect(result.stdout.contains("--save-stock destination that cannot take the stock"))
        #expect(result.stdout.contains("standard error in stock-file format instead"))
    }

    @Test func aByteOrderMarkOpeningTheScriptIsSkipped() throws {
        let result = try ToolRunner.juiceRun(["--format", "json", "--quiet", "-"], stdin: "\u{FEFF}banana-juice\n")
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        #expect(result.stdout.hasPrefix(#"{"type":"summary","orders":1,"served":1,"#))
    }

    // MARK: Every order says where it came from

    /// Two scripts, two `--order`s and `--random 2`: each event names its
    /// script and line, its `--order`'s position, or its `--random` number.
    static func tracedRun(format: String) throws -> ToolResult {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "banana-juice\nrestock kiwi 1\n".write(to: directory.appendingPathComponent("a.orders"), atomically: true, encoding: .utf8)
        try "# b\nkiwi-juice\nset mango 3\nstock\n".write(to: directory.appendingPathComponent("b.orders"), atomically: true, encoding: .utf8)
        return try ToolRunner.juiceRun([
            "--recipes", ToolRunner.packageRoot.appendingPathComponent("recipes").path, "--format", format,
            "a.orders", "b.orders", "--order", "mango-juice", "--order", "banana-juicex2", "--random", "2", "--seed", "1",
        ], in: directory)
    }

    @Test func everyOrderNamesItsSourceInText() throws {
        let result = try Self.tracedRun(format: "text")
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        #expect(result.stdout.hasPrefix("""
            order 1 (a.orders:1): banana-juice 바나나쥬스 served
            restock (a.orders:2): kiwi +1, now 11
            order 2 (b.orders:2): kiwi-juice 키위쥬스 served
            set (b.orders:3): mango = 3
            stock (b.orders:4):
              🍓 딸기      strawberry  10
              🍌 바나나    banana       8
              🍍 파인애플  pineapple   10
              🥝 키위      kiwi         8
              🥭 망고      mango        3
            order 3 (--order 1): mango-juice 망고쥬스 served
            order 4 (--order 2): banana-juice 바나나쥬스 served
            order 5 (--order 2): banana-juice 바나나쥬스 served
            order 6 (--random 1): pineapple-juice 파인애플쥬스 served
            order 7 (--random 2): mango-juice 망고쥬스 refused (mango: need 3, have 0)

            """))
    }

    @Test func everyOrderNamesItsSourceInJSON() throws {
        let result = try Self.tracedRun(format: "json")
        #expect(result.exitCode == 0)
        let lines = result.stdout.split(separator: "\n").dropLast().joined(separator: "\n")
        #expect(lines == """
            {"type":"order","seq":1,"line":1,"source":"a.orders","menu":"banana-juice","status":"served","short":[]}
            {"type":"restock","line":2,"source":"a.orders","fruit":"kiwi","amount":1,"stock":11}
            {"type":"order","seq":2,"line":2,"source":"b.orders","menu":"kiwi-juice","status":"served","short":[]}
            {"type":"set","line":3,"source":"b.orders","fruit":"mango","stock":3}
            {"type":"stock","line":4,"source":"b.orders","stock":{"strawberry":10,"banana":8,"pineapple":10,"kiwi":8,"mango":3}}
            {"type":"order","seq":3,"line":1,"source":"--order","menu":"mango-juice","status":"served","short":[]}
            {"type":"order","seq":4,"line":2,"source":"--order","menu":"banana-juice","status":"served","short":[]}
            {"type":"order","seq":5,"line":2,"source":"--order","menu":"banana-juice","status":"served","short":[]}
            {"type":"order","seq":6,"line":1,"source":"--random","menu":"pineapple-juice","status":"served","short":[]}
            {"type":"order","seq":7,"line":2,"source":"--random","menu":"mango-juice","status":"refused","short":[{"fruit":"mango","need":3,"have":0}]}
            """)
    }

    // MARK: Usage problems, found before any order runs

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("juice-run-usage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// `--capacity` changes no stock, so `--save-stock` beside it would save nothing.
    @Test func capacityWithSaveStockIsAUsageError() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = directory.appendingPathComponent("stock.yaml").path
        let result = try ToolRunner.juiceRun(["--capacity", "--save-stock", saved])
        #expect(result.exitCode == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == """
            Error: --capacity changes no stock, so there is nothing to save; leave out --save-stock
            Usage: juice-run replay [<options>] [<SCRIPT> ...]
              See 'juice-run replay --help' for more information.

            """)
        #expect(!FileManager.default.fileExists(atPath: saved))
    }

    /// A folder given as the script is most likely the recipe book.
    @Test func scriptThatIsADirectorySuggestsRecipes() throws {
        let result = try ToolRunner.juiceRun(["recipes"])
        #expect(result.exitCode == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "juice-run: error: cannot read 'recipes': it is a directory\n  help: did you mean '--recipes recipes'?\n")
    }

    /// Run outside the project, the default book is missing: say what to do.
    @Test func missingDefaultRecipesSaysWhatToDo() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolRunner.juiceRun(["--order", "banana-juice"], in: directory)
        #expect(result.exitCode == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == """
            juice-run: error: no such file or directory: 'recipes', the default recipe book
              help: run juice-run from the project root, where 'recipes' is, or pass --recipes DIR

            """)
    }

    /// The diagnostics were all printed, so no line sends the user to juice-lint for them.
    @Test func invalidBookPrintedInFullNeedsNoJuiceLintHint() throws {
        let result = try ToolRunner.juiceRun(["--recipes", "broken-book", "-"], in: ToolRunner.fixtures, stdin: "mango-juice\n")
        #expect(result.exitCode == 1)
        #expect(result.stderr.hasSuffix("  = help: a recipe cannot contain itself, directly or through other recipes\njuice-run: error: the recipe book is invalid\n"))
        #expect(!result.stderr.contains("juice-lint"))
        // When the cap hid some, the omission notice already says how to see them all.
        let capped = try ToolRunner.juiceRun(["--recipes", "broken-book", "--max-diagnostics", "1", "-"], in: ToolRunner.fixtures, stdin: "")
        #expect(capped.exitCode == 1)
        #expect(capped.stderr.hasSuffix(" more diagnostics not shown (--max-diagnostics 0 shows all)\njuice-run: error: the recipe book is invalid\n"))
        #expect(!capped.stderr.contains("juice-lint"))
    }

    /// `--mix` given twice merges: both sets of weights count, as one `--mix` with both would.
    @Test func mixGivenTwiceMerges() throws {
        let twice = try ToolRunner.juiceRun(["--random", "40", "--seed", "5", "--mix", "banana-juice=1", "--mix", "kiwi-juice=1", "--format", "json"])
        let once = try ToolRunner.juiceRun(["--random", "40", "--seed", "5", "--mix", "banana-juice=1,kiwi-juice=1", "--format", "json"])
        #expect(twice.exitCode == 0)
        #expect(twice.stdout == once.stdout)
        #expect(twice.stdout.contains(#""menu":"banana-juice""#))
        #expect(twice.stdout.contains(#""menu":"kiwi-juice""#))
    }

    @Test(arguments: [["--mix", "banana-juice=1,kiwi-juice=2,banana-juice=3"], ["--mix", "banana-juice=1", "--mix", "banana-juice=3"]])
    func mixNamingAnItemTwiceIsAUsageError(_ mix: [String]) throws {
        let result = try ToolRunner.juiceRun(["--random", "5", "--seed", "1"] + mix)
        #expect(result.exitCode == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "juice-run: error: --mix names 'banana-juice' twice\n  help: give each menu item one weight\n")
    }

    @Test func crlfScriptsAndMissingFinalNewlineWork() throws {
        let result = try ToolRunner.juiceRun(["--format", "json", "-"], stdin: "banana-juice\r\n# note\r\nkiwi-juice")
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains(#"{"type":"order","seq":1,"line":1,"source":"<stdin>","menu":"banana-juice","status":"served","short":[]}"#))
        #expect(result.stdout.contains(#"{"type":"order","seq":2,"line":3,"source":"<stdin>","menu":"kiwi-juice","status":"served","short":[]}"#))
    }
}
