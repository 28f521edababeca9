import Foundation
import Testing

/// The shop counter, driven as an operator would: piped input with
/// `--interactive`, and a real pseudo-terminal for the default mode.
@Suite("juice-run counter end to end")
struct CounterEndToEndTests {
    @Test func orderRefuseEditOrderAgainAndSave() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("counter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = directory.appendingPathComponent("stock.yaml").path
        // Order 딸바쥬스 (served); order strawberry-juice (refused: 16 > 0);
        // answer y; try to take too much; add 16 strawberries; close; answer
        // "2" (not an answer: asked again), then y to make it now (served); quit.
        let input = """
            5
            strawberry-juice
            y
            kiwi -11
            strawberry +16

            2
            y
            quit

            """
        let result = try ToolRunner.juiceRun(["--interactive", "--save-stock", saved], stdin: input)
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        let stdout = result.stdout
        #expect(stdout.contains("> 딸바쥬스 is ready. Enjoy!\n"))
        #expect(stdout.contains("""
            > 딸기쥬스 needs more fruit:
              strawberry: need 16, have 0
            Not enough fruit. Edit the stock? [y/N] Edit the stock:
            """))
        #expect(stdout.contains("stock> Refused: taking 11 would leave kiwi below 0; it stays at 10.\n"))
        #expect(stdout.contains("stock> strawberry: 0 -> 16\n"))
        #expect(stdout.hasSuffix("""
            Make strawberry-juice now? [Y/n] Answer y or n. Make strawberry-juice now? [Y/n] 딸기쥬스 is ready. Enjoy!
            stock:
              🍓  딸기      strawberry   0
              🍌  바나나    banana       9
              🍍  파인애플  pineapple   10
              🥝  키위      kiwi        10
              🥭  망고      mango       10
            > Day's summary: 2 orders, 2 served, 0 refused.
            Stock saved to '\(saved)'.

            """))
        #expect(try String(contentsOfFile: saved, encoding: .utf8).hasSuffix("""
            stock:
              strawberry: 0
              banana: 9
              pineapple: 10
              kiwi: 10
              mango: 10

            """))
    }

    @Test func settingBelowZeroIsRefused() throws {
        let result = try ToolRunner.juiceRun(["--interactive"], stdin: "edit\nmango =-1\nmango -11\n\nquit\n")
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("stock> Refused: stock can never go below 0; mango stays at 10.\n"))
        #expect(result.stdout.contains("stock> Refused: taking 11 would leave mango below 0; it stays at 10.\n"))
    }

    @Test func endOfInputQuitsCleanly() throws {
        let result = try ToolRunner.juiceRun(["--interactive"], stdin: "banana-juice\n")
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        // Ctrl-D ends the prompt's line, then the day's summary.
        #expect(result.stdout.hasSuffix("> \nDay's summary: 1 order, 1 served, 0 refused.\n"))
    }

    /// A partial or misspelt order names the menu items it may mean, by id and label.
    @Test func partialAndMisspeltOrdersGetTheNearestItems() throws {
        let result = try ToolRunner.juiceRun(["--interactive"], stdin: "strawbery\nmango\nquit\n")
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains(
            "> Unknown order 'strawbery': did you mean 'strawberry-juice' (딸기쥬스) or 'strawberry-banana-juice' (딸바쥬스)?"
        ))
        #expect(lines.contains(
            "> 'mango' is a fruit, not a menu item: did you mean 'mango-juice' (망고쥬스) or 'mango-kiwi-juice' (망고키위쥬스)? Type 'edit' to change the stock."
        ))
        #expect(result.stdout.hasSuffix("> Day's summary: 0 orders, 0 served, 0 refused.\n"))
    }

    /// A destination that cannot take the stock is refused before the counter
    /// opens, not after a day of orders.
    @Test func aBadSaveDestinationIsRefusedBeforeTheCounterOpens() throws {
        let result = try ToolRunner.juiceRun(["--interactive", "--save-stock", "/nonexistent-dir/stock.yaml"], stdin: "2\nquit\n")
        #expect(result.exitCode == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "juice-run: error: cannot save the stock to '/nonexistent-dir/stock.yaml': its folder '/nonexistent-dir' does not exist\n")
    }

    @Test func interactiveRejectsJSONAndScripts() throws {
        let json = try ToolRunner.juiceRun(["--interactive", "--format", "json"], stdin: "")
        #expect(json.exitCode == 2)
        #expect(json.stderr == """
            Error: the interactive counter has no --format json; pipe a script instead
            Usage: juice-run replay [<options>] [<SCRIPT> ...]
              See 'juice-run replay --help' for more information.

            """)
        let script = try ToolRunner.juiceRun(["--interactive", "docs/examples/first-morning.orders"])
        #expect(script.exitCode == 2)
    }

    /// With no script and a terminal on standard input, the counter is the default.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux 'script' is not installed"))
    func counterIsTheDefaultOnATerminal() throws {
        let binary = ToolRunner.productsDirectory.appendingPathComponent("juice-run").path
        let result = try ToolRunner.run(
            "/usr/bin/script", ["-qec", "'\(binary)' --recipes recipes", "/dev/null"],
            stdin: "2\nquit\n"
        )
        let text = result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(text.contains("Type a menu number, id or label to order, or 'help'."))
        #expect(text.contains("바나나쥬스 is ready. Enjoy!"))
    }
}

/// The progress bar: only on a terminal, only for runs over about a second,
/// never with --quiet or JSON.
@Suite("juice-run progress end to end")
struct ProgressEndToEndTests {
    static let hasScript = FileManager.default.isExecutableFile(atPath: "/usr/bin/script")

    private func onTerminal(_ arguments: String) throws -> (screen: String, seconds: Double) {
        let binary = ToolRunner.productsDirectory.appendingPathComponent("juice-run").path
        let result = try ToolRunner.run("/usr/bin/script", ["-qec", "'\(binary)' \(arguments) > /dev/null", "/dev/null"])
        return (result.stdout, result.seconds)
    }

    @Test(.enabled(if: hasScript, "util-linux 'script' is not installed"))
    func longRunShowsProgressOnATerminal() throws {
        let (screen, _) = try onTerminal("--random 1500000 --seed 3")
        #expect(screen.contains(" orders  "), "\(screen.prefix(200))")
        #expect(screen.contains("/s  ["))
        #expect(screen.contains("ETA "))
    }

    @Test(.enabled(if: hasScript, "util-linux 'script' is not installed"))
    func quietAndShortRunsShowNoProgress() throws {
        let quiet = try onTerminal("--random 5000000 --seed 3 --quiet")
        // The run must outlast the one-second threshold for this to mean anything.
        #expect(quiet.seconds > 1.5)
        #expect(!quiet.screen.contains(" orders  "))
        #expect(!(try onTerminal("--random 100 --seed 3")).screen.contains(" orders  "))
    }
}
