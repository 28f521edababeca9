import Foundation
import Testing

/// Options that cannot go together are found in argument validation and
/// read like swift-argument-parser's own usage errors, with exit code 2;
/// problems that need the file system or the book stay `juice-run: error:`
/// lines, printed by the one renderer in JuiceCommandLine.
@Suite("usage errors end to end")
struct UsageErrorTests {
    /// What swift-argument-parser prints for a usage error in juice-run.
    static func usage(_ message: String) -> String {
        """
        Error: \(message)
        Usage: juice-run replay [<options>] [<SCRIPT> ...]
          See 'juice-run replay --help' for more information.

        """
    }

    @Test(arguments: [
        (["--capacity", "--order", "banana-juice"],
         "--capacity shows the stock's capacity and runs no orders; leave out scripts, --order, --random and --interactive"),
        (["--capacity", "--interactive"],
         "--capacity shows the stock's capacity and runs no orders; leave out scripts, --order, --random and --interactive"),
        (["--capacity", "--save-stock", "stock.yaml"],
         "--capacity changes no stock, so there is nothing to save; leave out --save-stock"),
        (["--interactive", "--random", "3"],
         "--interactive reads the counter's input from standard input; leave out scripts, --order and --random"),
        (["--seed", "7", "--order", "banana-juice"], "--seed and --mix apply to --random N"),
        (["--random=-1"], "--random takes 0 to 1000000000 orders"),
        (["--random", "1000000001"], "--random takes 0 to 1000000000 orders"),
        (["--interactive", "--format", "json"], "the interactive counter has no --format json; pipe a script instead"),
    ])
    func conflictingOptionsAreUsageErrors(arguments: [String], message: String) throws {
        let result = try ToolRunner.juiceRun(arguments, stdin: "")
        #expect(result.exitCode == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == Self.usage(message))
    }

    /// Validation comes before anything is read: the same conflict is reported
    /// the same way where there is no book at all.
    @Test func validationComesBeforeTheBookIsRead() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("usage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let result = try ToolRunner.juiceRun(["--seed", "1"], in: empty, stdin: "")
        #expect(result.exitCode == 2)
        #expect(result.stderr == Self.usage("--seed and --mix apply to --random N"))
    }

    /// The README's example is what the tool prints.
    @Test func readmeQuotesTheUsageErrorAsPrinted() throws {
        let readme = try String(contentsOf: ToolRunner.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let result = try ToolRunner.juiceRun(["--seed", "7", "--order", "banana-juice"])
        #expect(result.exitCode == 2)
        #expect(readme.contains("$ juice-run --seed 7 --order banana-juice\n" + result.stderr + "```"))
    }

    /// ArgumentParser's own parse errors come out in the same shape and code.
    @Test func parseErrorsAndValidationErrorsLookAlike() throws {
        let parse = try ToolRunner.juiceRun(["--bogus"])
        #expect(parse.exitCode == 2)
        #expect(parse.stderr == Self.usage("Unknown option '--bogus'"))
    }

    /// Errors that need the book stay the tool's own, with their exit codes.
    @Test func bookDependentErrorsStayRuntimeErrors() throws {
        let noMenu = try ToolRunner.juiceRun(["--recipes", "recipes/fruits.yaml", "--random", "2"])
        #expect(noMenu.exitCode == 2)
        #expect(noMenu.stderr == "juice-run: error: --random needs a book with at least one menu item\n")
        let mix = try ToolRunner.juiceRun(["--random", "2", "--mix", "banana-juice"])
        #expect(mix.exitCode == 2)
        #expect(mix.stderr == "juice-run: error: --mix entry 'banana-juice' is not ID=WEIGHT\n")
    }

    /// Without --interactive, only a terminal on standard input opens the
    /// counter, so JSON there is found at run time: a `juice-run: error:`
    /// line, not a usage error, with the same words and exit code 2.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux 'script' is not installed"))
    func jsonForTheImpliedCounterIsARuntimeError() throws {
        let binary = ToolRunner.productsDirectory.appendingPathComponent("juice-run").path
        let result = try ToolRunner.run(
            "/usr/bin/script", ["-qec", "'\(binary)' --format json 2>&1; echo \"exit $?\"", "/dev/null"], stdin: ""
        )
        let screen = result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(screen == "juice-run: error: the interactive counter has no --format json; pipe a script instead\nexit 2\n")
    }

    /// juice-lint's own errors: an unknown rule for `explain` and a book with
    /// no graph go through the same renderer, with exit codes 2 and 1.
    @Test func lintErrorsKeepTheirTextAndCodes() throws {
        let explain = try ToolRunner.lint("explain", "unused-friut")
        #expect(explain.exitCode == 2)
        #expect(explain.stdout == "")
        #expect(explain.stderr == "juice-lint: error: unknown rule 'unused-friut'\n  help: did you mean 'unused-fruit'?\n")
        let graph = try ToolRunner.lint("graph", "no-such-book")
        #expect(graph.exitCode == 2)
        #expect(graph.stderr == "juice-lint: error: no such file or directory: 'no-such-book'\n")
    }
}
