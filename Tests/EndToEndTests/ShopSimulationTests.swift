import Foundation
import JuiceSource
import JuiceBook
import JuiceSimulation
import Testing

/// juice-run's planner features: every script command, generated load,
/// stock files, summaries, capacity and safe saving.
@Suite("juice-run simulation end to end")
struct ShopSimulationTests {
    static let fixtures = ToolRunner.fixtures

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("juice-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    // MARK: Script commands, revenue and shortfall

    /// `priced/book.yaml`: apple-juice = apple 2 (3000); mix-juice = base + apple
    /// = apple 2, pear 1 (5000); stock apple 4, pear 1.
    ///
    /// Real stock: served apple-juice (apple 2), served mix-juice (apple 0, pear 0),
    /// refused mix-juice, set apple 1, refused apple-juice twice, restock pear 2.
    /// Revenue 3000 + 5000 = 8000. Virtual apple: 4 → 2 → 0 → −2 → set 1 → −1 → −3,
    /// so the shortfall is 3; virtual pear: 1 → 0 → −1 → +2 = 1, shortfall 1.
    @Test func everyCommandWithRevenueAndShortfallText() throws {
        let result = try ToolRunner.juiceRun(["--recipes", "priced", "priced/day.orders"], in: Self.fixtures)
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == """
            order 1 (priced/day.orders:1): apple-juice 사과쥬스 served
            order 2 (priced/day.orders:2): mix-juice served
            order 3 (priced/day.orders:3): mix-juice refused (apple: need 2, have 0; pear: need 1, have 0)
            set (priced/day.orders:4): apple = 1
            order 4 (priced/day.orders:5): apple-juice 사과쥬스 refused (apple: need 2, have 1)
            order 5 (priced/day.orders:5): apple-juice 사과쥬스 refused (apple: need 2, have 1)
            restock (priced/day.orders:6): pear +2, now 2
            stock (priced/day.orders:7):
              🍎 사과  apple  1
                       pear   2

            stock:
              🍎 사과  apple  1
                       pear   2

            orders: 5, served: 2, refused: 3
            refused by menu item:
              apple-juice 사과쥬스  2
              mix-juice             1
            revenue: 8000
            shortfall (more needed at the worst moment):
              apple  3
              pear   1

            """)
    }

    @Test func everyCommandWithRevenueAndShortfallJSON() throws {
        let result = try ToolRunner.juiceRun(["--recipes", "priced", "--format", "json", "priced/day.orders"], in: Self.fixtures)
        #expect(result.exitCode == 0)
        #expect(result.stdout == """
            {"type":"order","seq":1,"line":1,"source":"priced/day.orders","menu":"apple-juice","status":"served","short":[]}
            {"type":"order","seq":2,"line":2,"source":"priced/day.orders","menu":"mix-juice","status":"served","short":[]}
            {"type":"order","seq":3,"line":3,"source":"priced/day.orders","menu":"mix-juice","status":"refused","short":[{"fruit":"apple","need":2,"have":0},{"fruit":"pear","need":1,"have":0}]}
            {"type":"set","line":4,"source":"priced/day.orders","fruit":"apple","stock":1}
            {"type":"order","seq":4,"line":5,"source":"priced/day.orders","menu":"apple-juice","status":"refused","short":[{"fruit":"apple","need":2,"have":1}]}
            {"type":"order","seq":5,"line":5,"source":"priced/day.orders","menu":"apple-juice","status":"refused","short":[{"fruit":"apple","need":2,"have":1}]}
            {"type":"restock","line":6,"source":"priced/day.orders","fruit":"pear","amount":2,"stock":2}
            {"type":"stock","line":7,"source":"priced/day.orders","stock":{"apple":1,"pear":2}}
            {"type":"summary","orders":5,"served":2,"refused":3,"skipped":0,"stock":{"apple":1,"pear":2},"revenue":8000,"refusedByMenu":{"apple-juice":2,"mix-juice":1},"shortfall":{"apple":3,"pear":1}}

            """)
    }

    /// Prices at `Int.max`: the revenue is exact past 64 bits, in text and
    /// JSON, never a saturated or wrapped number.
    @Test func revenuePastSixtyFourBitsIsExact() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
            fruits: { kiwi: }
            stock: { kiwi: 9 }
            menu:
              gold-juice: { price: 9223372036854775807, recipe: { kiwi: 1 } }
            """.write(to: directory.appendingPathComponent("book.yaml"), atomically: true, encoding: .utf8)
        let text = try ToolRunner.juiceRun(["--recipes", directory.path, "--order", "gold-juicex3", "--quiet"])
        #expect(text.exitCode == 0)
        // 3 × 9223372036854775807 = 27670116110564327421.
        #expect(text.stdout == """
            orders: 3, served: 3, refused: 0
            revenue: 27670116110564327421
            shortfall: none

            """)
        let json = try ToolRunner.juiceRun(["--recipes", directory.path, "--order", "gold-juicex3", "--quiet", "--format", "json"])
        #expect(json.stdout == #"{"type":"summary","orders":3,"served":3,"refused":0,"skipped":0,"stock":{"kiwi":6},"revenue":27670116110564327421,"refusedByMenu":{"gold-juice":0},"shortfall":{"kiwi":0}}"# + "\n")
    }

    @Test func setRefusesNegativeStock() throws {
        let result = try ToolRunner.juiceRun(["--format", "json", "-"], stdin: "set mango -1\nset mango 0\nmango-juice\n")
        #expect(result.exitCode == 1)
        #expect(result.stderr == "<stdin>:1: error: stock cannot go below 0: '-1'\n  help: use 'set mango 0' to empty it\n")
        #expect(result.stdout.hasPrefix("""
            {"type":"set","line":2,"source":"<stdin>","fruit":"mango","stock":0}
            {"type":"order","seq":1,"line":3,"source":"<stdin>","menu":"mango-juice","status":"refused","short":[{"fruit":"mango","need":3,"have":0}]}

            """))
    }

    @Test func quietPrintsOnlyTheSummary() throws {
        let text = try ToolRunner.juiceRun(["--recipes", "priced", "--quiet", "priced/day.orders"], in: Self.fixtures)
        #expect(text.stdout == """
            orders: 5, served: 2, refused: 3
            refused by menu item:
              apple-juice 사과쥬스  2
              mix-juice             1
            revenue: 8000
            shortfall (more needed at the worst moment):
              apple  3
              pear   1

            """)
        let json = try ToolRunner.juiceRun(["--recipes", "priced", "--quiet", "--format", "json", "priced/day.orders"], in: Self.fixtures)
        #expect(json.stdout.split(separator: "\n").count == 1)
        #expect(json.stdout.hasPrefix(#"{"type":"summary","orders":5,"served":2,"refused":3,"#))
    }

    /// Labels come from YAML and are shown on terminals: escape sequences in
    /// them must be shown, never obeyed.
    @Test func terminalEscapesInLabelsAreShownNotObeyed() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try #"""
            fruits:
              mango: { label: "\e]0;pwned\a", emoji: "\u202e" }
            stock: { mango: 5 }
            menu:
              juice: { label: "\e[31mRED\nfake line", recipe: { mango: 1 } }
            """#.write(to: directory.appendingPathComponent("book.yaml"), atomically: true, encoding: .utf8)
        let result = try ToolRunner.juiceRun(["--recipes", directory.path, "--order", "juice"])
        #expect(result.exitCode == 0)
        #expect(!result.stdout.contains("\u{1B}"))
        #expect(!result.stdout.contains("\u{202E}"))
        #expect(result.stdout.hasPrefix(#"order 1 (--order 1): juice \u{1b}[31mRED\u{a}fake line served"#))
        #expect(result.stdout.contains(#"\u{202e} \u{1b}]0;pwned\u{7}  mango"#))
    }

    // MARK: --order, --random, --mix

    @Test func quickOrdersFromTheCommandLine() throws {
        let result = try ToolRunner.juiceRun(["--order", "banana-juicex3", "--order", "kiwi-juice x2", "--order", "kiwi-juise", "--quiet"])
        #expect(result.exitCode == 1)
        #expect(result.stdout.hasPrefix("orders: 5, served: 5, refused: 0, skipped lines: 1\n"))
        #expect(result.stderr == "--order:3: error: unknown menu item 'kiwi-juise'\n  help: did you mean 'kiwi-juice'?\n")
    }

    @Test func sameSeedGivesByteIdenticalOutput() throws {
        let first = try ToolRunner.juiceRun(["--random", "2000", "--seed", "42", "--format", "json"])
        let second = try ToolRunner.juiceRun(["--random", "2000", "--seed", "42", "--format", "json"])
        #expect(first.exitCode == 0)
        #expect(first.stdout == second.stdout)
        #expect(first.stdout.split(separator: "\n").count == 2001)
        #expect(first.stderr == "")
        let text = try ToolRunner.juiceRun(["--random", "300", "--seed", "42"])
        #expect(text.stdout == (try ToolRunner.juiceRun(["--random", "300", "--seed", "42"])).stdout)
        let other = try ToolRunner.juiceRun(["--random", "2000", "--seed", "43", "--format", "json"])
        #expect(other.stdout != first.stdout)
    }

    /// The generator is specified (SplitMix64), so a seed means the same orders everywhere.
    @Test func seedFortyTwoIsPinned() throws {
        let result = try ToolRunner.juiceRun(["--random", "5", "--seed", "42", "--format", "json"])
        let menus = result.stdout.split(separator: "\n").dropLast().map { line -> String in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["menu"] as? String ?? "?"
        }
        let generator = (0..<5).reduce(into: (OrderGenerator(seed: 42, menuCount: 7), [Int]())) { state, _ in
            state.1.append(state.0.next())
        }.1
        let book = try #require(RecipeCompiler.compile(try RecipeSources.load(paths: [ToolRunner.packageRoot.appendingPathComponent("recipes").path])).book)
        #expect(menus == generator.map { book.menu[$0].id })
    }

    @Test func withoutASeedTheSeedIsPrintedAndReplays() throws {
        let result = try ToolRunner.juiceRun(["--random", "500", "--format", "json"])
        #expect(result.exitCode == 0)
        let prefix = "juice-run: --random used seed "
        #expect(result.stderr.hasPrefix(prefix))
        let seed = try #require(result.stderr.dropFirst(prefix.count).split(separator: ";").first)
        let replay = try ToolRunner.juiceRun(["--random", "500", "--seed", String(seed), "--format", "json"])
        #expect(replay.stdout == result.stdout)
    }

    @Test func mixWeightsTheOrders() throws {
        let only = try ToolRunner.juiceRun(["--random", "200", "--seed", "1", "--mix", "banana-juice=1", "--format", "json", "--quiet"])
        #expect(only.stdout.contains(#""orders":200,"served":5,"refused":195,"#))
        #expect(only.stdout.contains(#""refusedByMenu":{"strawberry-juice":0,"banana-juice":195,"#))
        let two = try ToolRunner.juiceRun(["--random", "1000", "--seed", "1", "--mix", "kiwi-juice=3, mango-juice=1", "--format", "json"])
        var counts: [String: Int] = [:]
        for line in two.stdout.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if let menu = object?["menu"] as? String { counts[menu, default: 0] += 1 }
        }
        #expect(Set(counts.keys) == ["kiwi-juice", "mango-juice"])
        // 3:1 over 1000 draws: kiwi near 750.
        #expect((700...800).contains(counts["kiwi-juice"] ?? 0), "\(counts)")
    }

    @Test func badMixIsAUsageError() throws {
        let unknown = try ToolRunner.juiceRun(["--random", "10", "--mix", "banana-juise=1"])
        #expect(unknown.exitCode == 2)
        #expect(unknown.stderr == "juice-run: error: --mix names unknown menu item 'banana-juise'\n  help: did you mean 'banana-juice'?\n")
        let zero = try ToolRunner.juiceRun(["--random", "10", "--mix", "banana-juice=0"])
        #expect(zero.exitCode == 2)
        #expect(zero.stderr == "juice-run: error: --mix weights add up to 0\n")
        let alone = try ToolRunner.juiceRun(["--mix", "banana-juice=1", "-"], stdin: "")
        #expect(alone.exitCode == 2)
        // Options that cannot go together are swift-argument-parser usage errors.
        #expect(alone.stderr == """
            Error: --seed and --mix apply to --random N
            Usage: juice-run replay [<options>] [<SCRIPT> ...]
              See 'juice-run replay --help' for more information.

            """)
    }

    // MARK: --stock, --capacity, --save-stock

    @Test func stockFileReplacesTheOpeningStock() throws {
        let result = try ToolRunner.juiceRun(
            ["--recipes", "priced", "--stock", "stock-files/priced.yaml", "--order", "mix-juicex3", "--format", "json", "--quiet"],
            in: Self.fixtures
        )
        #expect(result.exitCode == 0)
        // Stock apple 10, pear 3: three mix-juices take apple 6, pear 3.
        #expect(result.stdout.hasPrefix(#"{"type":"summary","orders":3,"served":3,"refused":0,"skipped":0,"stock":{"apple":4,"pear":0},"#))
    }

    @Test func badStockFileGetsBookDiagnostics() throws {
        let result = try ToolRunner.juiceRun(["--recipes", "priced", "--stock", "stock-files/bad.yaml", "--order", "mix-juice"], in: Self.fixtures)
        #expect(result.exitCode == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("stock-files/bad.yaml:3:3: error: unknown fruit 'peer' [unknown-fruit]\n"))
        #expect(result.stderr.contains("stock-files/bad.yaml:4:1: error: unknown key 'menu' in a stock file [unknown-key]\n"))
        #expect(result.stderr.hasSuffix("juice-run: error: the recipe book or the stock file is invalid\n"))
    }

    @Test func capacityOfTheCanonicalBook() throws {
        let result = try ToolRunner.juiceRun(["--capacity"])
        #expect(result.exitCode == 0)
        #expect(result.stdout == """
            capacity (each menu item on its own, from the opening stock):
              strawberry-juice 딸기쥬스         0  limited by strawberry
              banana-juice 바나나쥬스           5  limited by banana
              kiwi-juice 키위쥬스               3  limited by kiwi
              pineapple-juice 파인애플쥬스      5  limited by pineapple
              strawberry-banana-juice 딸바쥬스  1  limited by strawberry
              mango-juice 망고쥬스              3  limited by mango
              mango-kiwi-juice 망고키위쥬스     5  limited by mango

            """)
        let json = try ToolRunner.juiceRun(["--capacity", "--format", "json"])
        #expect(json.stdout.hasPrefix(#"{"type":"capacity","menu":"strawberry-juice","count":0,"limitedBy":"strawberry"}"#))
        let mixed = try ToolRunner.juiceRun(["--capacity", "--order", "banana-juice"])
        #expect(mixed.exitCode == 2)
    }

    @Test func savedStockRoundTripsAndLintsClean() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = directory.appendingPathComponent("stock.yaml").path
        let first = try ToolRunner.juiceRun(["--order", "strawberry-banana-juice", "--order", "mango-juicex2", "--quiet", "--save-stock", saved])
        #expect(first.exitCode == 0)
        #expect(try String(contentsOfFile: saved, encoding: .utf8) == """
            # Stock saved by juice-run. Replay from it with `juice-run --stock FILE`;
            # check it with `juice-lint --stock FILE`.
            version: 1
            stock:
              strawberry: 0
              banana: 9
              pineapple: 10
              kiwi: 10
              mango: 4

            """)
        let lint = try ToolRunner.lint("--stock", saved, "--strict", "recipes")
        #expect(lint.exitCode == 0)
        #expect(lint.stderr == "files: 3, errors: 0, warnings: 0, infos: 2\n")
        // Replaying from the saved stock continues where the first run stopped.
        let second = try ToolRunner.juiceRun(["--stock", saved, "--order", "mango-juicex2", "--format", "json", "--quiet", "--save-stock", saved])
        #expect(second.stdout.contains(#""served":1,"refused":1"#))
        #expect(try String(contentsOfFile: saved, encoding: .utf8).contains("  mango: 1\n"))
    }

    /// A destination that cannot take the stock is found at start-up, before
    /// any order runs, rather than after a whole day of them.
    @Test func unsavableStockDestinationIsAUsageErrorBeforeAnyOrder() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("plain.txt").path
        try "not a folder".write(toFile: file, atomically: true, encoding: .utf8)
        let cases: [(path: String, reason: String)] = [
            ("/nonexistent-dir/stock.yaml", "its folder '/nonexistent-dir' does not exist"),
            ("\(file)/stock.yaml", "'\(file)' is not a folder"),
            (directory.path, "it is a directory"),
            ("/dev/null", "it is not a regular file"),
        ]
        for (path, reason) in cases {
            let result = try ToolRunner.juiceRun(["--order", "banana-juice", "--save-stock", path])
            #expect(result.exitCode == 2, "\(path)")
            #expect(result.stdout == "", "no order ran for \(path)")
            #expect(result.stderr == "juice-run: error: cannot save the stock to '\(path)': \(reason)\n")
        }
        // A bare file name saves beside the working directory, which is checked too.
        let bare = try ToolRunner.juiceRun(["--recipes", ToolRunner.packageRoot.appendingPathComponent("recipes").path, "--order", "banana-juice", "--quiet", "--save-stock", "stock.yaml"], in: directory)
        #expect(bare.exitCode == 0)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("stock.yaml").path))
    }

    /// SIGKILL at random moments while juice-run saves a large stock again and
    /// again: the file is always the old or the new content, never torn.
    @Test func killedSavesNeverLeaveATornFile() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // 4,000 fruits make each save big enough to be interrupted mid-write.
        var book = "fruits:\n"
        for index in 0..<4000 { book += "  fruit-\(index):\n" }
        book += "stock:\n"
        for index in 0..<4000 { book += "  fruit-\(index): \(index)\n" }
        book += "menu:\n  juice: { recipe: { fruit-1: 1 } }\n"
        let books = directory.appendingPathComponent("book")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        try book.write(to: books.appendingPathComponent("book.yaml"), atomically: true, encoding: .utf8)
        let saved = directory.appendingPathComponent("stock.yaml").path
        let bookFiles = try RecipeSources.load(paths: [books.path])
        var kills = 0, completed = 0
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<40 {
            let process = Process()
            process.executableURL = ToolRunner.productsDirectory.appendingPathComponent("juice-run")
            process.arguments = ["--recipes", books.path, "--order", "juice", "--quiet", "--save-stock", saved]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32.random(in: 0...60_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { kills += 1 } else { completed += 1 }
            guard FileManager.default.fileExists(atPath: saved) else { continue }
            let stock = SourceFile(path: "stock.yaml", bytes: try RecipeSources.readFile(saved))
            let compilation = RecipeCompiler.compile(bookFiles, stock: stock)
            #expect(compilation.book != nil, "a killed save left a file that does not parse: \(compilation.diagnostics.prefix(3))")
        }
        #expect(kills > 0)
    }
}
