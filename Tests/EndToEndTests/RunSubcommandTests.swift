import Foundation
import Testing

/// `replay` (the default), `menu`, `buy` and `plan` are subcommands of
/// juice-run: each `--help` lists its own options and not the others', and
/// what ran before the split runs as it did.
@Suite("juice-run subcommands end to end")
struct RunSubcommandTests {
    static let replayOnly = ["--order", "--random", "--quiet", "--capacity", "--interactive", "--save-stock", "<SCRIPT>"]
    static let planOnly = ["--days", "--runs", "--orders-per-day", "--demand", "--target-service", "--report"]
    static let everywhere = ["--recipes", "--stock", "--max-diagnostics", "--format"]

    /// Each subcommand's `--help`: the options it lists, and the ones it must not.
    static let helps: [(arguments: [String], lists: [String], omits: [String])] = [
        (["replay", "--help"], everywhere + replayOnly + ["--seed", "--mix"], planOnly),
        (["help", "replay"], everywhere + replayOnly, planOnly),
        (["menu", "--help"], everywhere, replayOnly + planOnly + ["--seed", "--mix"]),
        (["buy", "--help"], everywhere + ["--order", "--random", "--seed", "--mix", "<SCRIPT>"],
         ["--quiet", "--capacity", "--interactive", "--save-stock"] + planOnly),
        (["plan", "--help"], everywhere + planOnly + ["--seed", "--mix"], replayOnly),
    ]

    @Test(arguments: helps)
    func eachHelpListsItsOwnOptions(arguments: [String], lists: [String], omits: [String]) throws {
        let result = try ToolRunner.juiceRun(arguments)
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        // The first word of each line of the ARGUMENTS and OPTIONS sections, after the usage line.
        let sections = try #require(result.stdout.range(of: "\nUSAGE:")).upperBound
        let listed = Set(result.stdout[sections...].split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), let word = line.split(separator: " ").first,
                  word.hasPrefix("--") || word.hasPrefix("<") else { return nil }
            return String(word)
        })
        for option in lists { #expect(listed.contains(option), "\(arguments) lists \(option)") }
        for option in omits { #expect(!listed.contains(option), "\(arguments) omits \(option)") }
    }

    /// The replay declares its options itself (start-up, JuiceRun.swift):
    /// each one it shares with `buy` reads the same in both helps.
    @Test func theReplaysOwnOptionsReadAsTheSharedGroups() throws {
        func entries(_ help: String) -> [String: String] {
            var entries: [String: String] = [:], current: String?
            for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
                let text = String(line)
                if text.hasPrefix("  --") || text.hasPrefix("  <") {
                    current = text.split(separator: " ").first.map(String.init)
                    entries[current ?? ""] = text
                } else if let key = current, text.hasPrefix("     ") {
                    entries[key, default: ""] += "\n" + text
                } else {
                    current = nil
                }
            }
            return entries
        }
        let replay = entries(try ToolRunner.juiceRun(["replay", "--help"]).stdout)
        let buy = entries(try ToolRunner.juiceRun(["buy", "--help"]).stdout)
        for option in ["--recipes", "--stock", "--max-diagnostics", "--order", "--random", "--seed", "--mix", "<SCRIPT>"] {
            #expect(replay[option] != nil && replay[option] == buy[option], "\(option)")
        }
    }

    /// The root's help names the subcommands and keeps the script language and exit codes.
    @Test func rootHelpListsTheSubcommands() throws {
        let result = try ToolRunner.juiceRun(["--help"])
        #expect(result.exitCode == 0)
        for line in ["replay (default)", "menu", "buy", "plan", "restock FRUIT N", "129, 130, 143"] {
            #expect(result.stdout.contains(line), "\(line)")
        }
        #expect(!result.stdout.contains("--days"))
    }

    /// The replay is the default: `juice-run replay ARGS` is `juice-run ARGS`.
    @Test(arguments: [
        ["docs/examples/first-morning.orders"],
        ["--recipes", "recipes", "docs/examples/first-morning.orders", "--format", "json"],
        ["--order", "banana-juicex2", "--order", "kiwi-juice", "--quiet"],
        ["--random", "5", "--seed", "3", "--mix", "banana-juice=2,kiwi-juice=1"],
        ["--capacity"],
        ["--capacity", "--format", "json"],
    ])
    func theDefaultIsTheReplay(arguments: [String]) throws {
        let plain = try ToolRunner.juiceRun(arguments, stdin: "")
        let named = try ToolRunner.juiceRun(["replay"] + arguments, stdin: "")
        #expect(plain.exitCode == 0)
        #expect(plain.stderr == "")
        #expect(!plain.stdout.isEmpty)
        #expect(named.exitCode == plain.exitCode)
        #expect(named.stdout == plain.stdout)
        #expect(named.stderr == plain.stderr)
    }

    /// `menu`, `buy` and `plan` run as they did when they were modes.
    @Test func theOtherSubcommandsStillRun() throws {
        let menu = try ToolRunner.juiceRun(["menu", "--format", "csv"])
        #expect(menu.exitCode == 0)
        #expect(menu.stdout.hasPrefix("id,label,price,cost,margin,marginPercent,capacity,limitedBy\n"))
        let buy = try ToolRunner.juiceRun(["buy", "--recipes", "recipes", "docs/examples/first-morning.orders", "--format", "json"])
        #expect(buy.exitCode == 0)
        #expect(buy.stderr == "")
        let plan = try ToolRunner.juiceRun(["plan", "--runs", "2", "--days", "2", "--seed", "1", "--format", "json"])
        #expect(plan.exitCode == 0)
        #expect(plan.stdout.hasPrefix("{"))
    }

    /// An option of another subcommand keeps the words it was refused with.
    @Test(arguments: [
        (["plan", "--quiet"], "Error: 'juice-run plan' takes no --quiet\n"),
        (["menu", "--capacity"], "Error: 'juice-run menu' takes no --capacity\n"),
        (["buy", "--save-stock", "x.yaml"], "Error: 'juice-run buy' takes no --save-stock\n"),
        (["menu", "docs/examples/first-morning.orders"],
         "Error: 'juice-run menu' shows the menu card from the opening stock and runs no orders; leave out scripts, --order and --random\n"),
        (["--days", "3", "--random", "5"], "Error: --days is for 'juice-run plan'\n"),
        (["menu", "--seed", "3"], "Error: --seed and --mix apply to --random N\n"),
        (["--format", "csv"], "Error: --format csv is for 'juice-run menu' and 'juice-run buy'; a run of orders writes text or json\n"),
    ])
    func anotherSubcommandsOptionIsRefusedAsBefore(arguments: [String], message: String) throws {
        let result = try ToolRunner.juiceRun(arguments, stdin: "")
        #expect(result.exitCode == 2)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix(message))
    }

    /// A subcommand's name after the options was a mode before the split; now it says where it goes.
    @Test func aSubcommandAfterTheOptionsSaysWhereItGoes() throws {
        let result = try ToolRunner.juiceRun(["--recipes", "recipes", "menu"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("Error: 'menu' is a subcommand and comes first, as in 'juice-run menu --recipes DIR'; write a script named 'menu' as './menu'\n"))
    }
}
