import Foundation
import JuiceSource
import JuiceBook
import Testing

/// Failures and signals never lose or tear what the user had.
@Suite("no data loss end to end")
struct NoDataLossTests {
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("no-loss-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A long replay stopped by SIGINT or SIGTERM prints the summary of what it
    /// processed, saves the stock atomically, and exits 128 + the signal.
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalStopsTheRunCleanly(signal: Int32, status: Int32) throws {
        try stopARun(with: signal, expecting: status, after: 200_000)
    }

    /// The same, with the signal at many moments of the replay: a signal that
    /// lands while the run loop is checking for one must still stop it
    /// cleanly. A Swift global for the flag once made that an exclusivity
    /// violation, which aborted the program; the window is a few instructions
    /// per line, so this raises the odds of hitting it (a CI run did) rather
    /// than promising to. The fix holds by construction: see `StopSignal`.
    @Test func aSignalAtAnyMomentStopsTheRunCleanly() throws {
        for step in 0..<16 {
            try stopARun(with: step % 2 == 0 ? SIGTERM : SIGINT, expecting: step % 2 == 0 ? 143 : 130, after: UInt32(step * 13_000))
        }
    }

    private func stopARun(with signal: Int32, expecting status: Int32, after pause: UInt32) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = directory.appendingPathComponent("stock.yaml").path
        let process = Process()
        process.executableURL = ToolRunner.productsDirectory.appendingPathComponent("juice-run")
        process.arguments = ["--random", "50000000", "--seed", "1", "--format", "json", "--quiet", "--save-stock", saved]
        process.currentDirectoryURL = ToolRunner.packageRoot
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        Self.waitUntilCatching(signal, pid: process.processIdentifier, thenWait: pause)
        kill(process.processIdentifier, signal)
        // A watchdog, so a signal that is not honoured fails the test rather than hanging it.
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 15) { kill(pid, SIGKILL) }
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "\(signal) after \(pause) µs: \(String(decoding: errData.prefix(300), as: UTF8.self))")
        #expect(process.terminationStatus == status)
        let summary = String(decoding: outData, as: UTF8.self)
        #expect(summary.hasPrefix(#"{"type":"summary","orders":"#))
        #expect(String(decoding: errData, as: UTF8.self).contains("juice-run: stopped by a signal after "))
        // The saved stock is whole and belongs with the book.
        let book = try RecipeSources.load(paths: [ToolRunner.packageRoot.appendingPathComponent("recipes").path])
        let stock = SourceFile(path: "stock.yaml", bytes: try RecipeSources.readFile(saved))
        #expect(RecipeCompiler.compile(book, stock: stock).book != nil)
    }

    /// SIGHUP (a closed terminal) stops a replay like the others, exit 129.
    @Test func aHangupStopsTheRunCleanly() throws {
        try stopARun(with: SIGHUP, expecting: 129, after: 200_000)
    }

    /// A replay waiting on an idle pipe stops at once on a signal, with its
    /// summary, instead of waiting for input that may never come.
    @Test func aSignalStopsAReplayWaitingForInput() throws {
        let session = try CounterProcess(["-", "--format", "json"])
        session.send("banana-juice\n")
        Self.waitUntilCatching(SIGTERM, pid: session.pid, thenWait: 300_000)
        let result = session.stop(with: SIGTERM)
        #expect(result.exitedNormally)
        #expect(result.exitCode == 143)
        #expect(result.stdout.hasPrefix(#"{"type":"order","seq":1,"line":1,"source":"<stdin>","menu":"banana-juice","status":"served""#))
        #expect(result.stdout.contains("\n" + #"{"type":"summary","orders":1,"served":1,"#))
        #expect(result.stderr == "juice-run: stopped by a signal after 1 order; the summary covers it\n")
    }

    /// Ctrl-C, SIGTERM or a closed terminal at the counter ends the session as
    /// `quit` does: the day's summary, the stock saved whole, then 128 + the signal.
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
    func aSignalAtTheCounterKeepsTheSession(signal: Int32, status: Int32) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = directory.appendingPathComponent("stock.yaml").path
        let session = try CounterProcess(["--interactive", "--save-stock", saved])
        session.send("2\n1\n")
        // Served banana-juice; strawberry-juice refused and its question waiting.
        session.waitFor("Not enough fruit. Edit the stock? [y/N] ")
        Self.waitUntilCatching(signal, pid: session.pid, thenWait: 0)
        let result = session.stop(with: signal)
        #expect(result.exitedNormally)
        #expect(result.exitCode == status)
        #expect(result.stdout.hasSuffix("""
            Not enough fruit. Edit the stock? [y/N]\u{20}
            Day's summary: 2 orders, 1 served, 1 refused.
            Stock saved to '\(saved)'.

            """))
        #expect(result.stderr == "juice-run: stopped by a signal after 2 orders; the summary covers those\n")
        #expect(try String(contentsOfFile: saved, encoding: .utf8).hasSuffix("""
            stock:
              strawberry: 10
              banana: 8
              pineapple: 10
              kiwi: 10
              mango: 10

            """))
        let book = try RecipeSources.load(paths: [ToolRunner.packageRoot.appendingPathComponent("recipes").path])
        #expect(RecipeCompiler.compile(book, stock: SourceFile(path: "stock.yaml", bytes: try RecipeSources.readFile(saved))).book != nil)
    }

    /// The destination was fine at start-up but is gone when the counter
    /// closes: the stock is printed to stderr in stock-file format, exit 3.
    @Test func aCounterSaveThatFailsAtTheEndPrintsTheStock() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("day")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let saved = folder.appendingPathComponent("stock.yaml").path
        let session = try CounterProcess(["--interactive", "--save-stock", saved])
        session.send("2\n")
        session.waitFor("바나나쥬스 is ready. Enjoy!\n")
        try FileManager.default.removeItem(at: folder)
        session.send("quit\n")
        let result = session.finish()
        #expect(result.exitCode == 3)
        // A pipe does not echo "quit", so the summary follows the prompt.
        #expect(result.stdout.hasSuffix("> Day's summary: 1 order, 1 served, 0 refused.\n"))
        #expect(!result.stdout.contains("Stock saved"))
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix("juice-run: error: the stock was not saved: cannot write '\(saved)': ") == true, "\(result.stderr)")
        #expect(lines.dropFirst().first == "  help: the final stock follows in stock-file format; save it by hand")
        #expect(result.stderr.hasSuffix("""
            version: 1
            stock:
              strawberry: 10
              banana: 8
              pineapple: 10
              kiwi: 10
              mango: 10

            """))
    }

    /// Waits until the process has its handler for `signal` in place, so the
    /// signal tests what the handler does rather than how fast the process
    /// starts (a loaded machine can take longer than any fixed pause). On
    /// Linux `/proc/PID/status` says so (`SigCgt`); elsewhere a pause stands in.
    static func waitUntilCatching(_ signal: Int32, pid: Int32, thenWait pause: UInt32) {
        let bit = UInt64(1) << UInt64(signal - 1)
        for _ in 0..<200 {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
                usleep(700_000 + pause)
                return
            }
            if let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
               let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16),
               mask & bit != 0 {
                usleep(pause)
                return
            }
            usleep(50_000)
        }
    }

    @Test func savingToAFullDeviceFailsAndLeavesItAlone() throws {
        // Found at start-up (issue 11), before any order: a usage error, not a failed save.
        let result = try ToolRunner.juiceRun(["--order", "banana-juice", "--quiet", "--save-stock", "/dev/full"])
        #expect(result.exitCode == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "juice-run: error: cannot save the stock to '/dev/full': it is not a regular file\n")
        var info = stat()
        #expect(stat("/dev/full", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test func aFailedSaveLeavesTheOldFileUntouched() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A directory where the stock file should be: the save must fail, and
        // what was there must still be there.
        let blocked = directory.appendingPathComponent("stock.yaml")
        try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: true)
        try "keep".write(to: blocked.appendingPathComponent("inside"), atomically: true, encoding: .utf8)
        let result = try ToolRunner.juiceRun(["--order", "banana-juice", "--quiet", "--save-stock", blocked.path])
        // Found at start-up (issue 11): a usage error before any order runs.
        #expect(result.exitCode == 2)
        #expect(result.stderr == "juice-run: error: cannot save the stock to '\(blocked.path)': it is a directory\n")
        #expect(try String(contentsOf: blocked.appendingPathComponent("inside"), encoding: .utf8) == "keep")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["stock.yaml"])
    }

    @Test func savingThroughASymlinkReplacesTheFileItNames() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let real = directory.appendingPathComponent("real.yaml")
        try "old".write(to: real, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("link.yaml").path, withDestinationPath: "real.yaml")
        let result = try ToolRunner.juiceRun(["--order", "banana-juice", "--quiet", "--save-stock", directory.appendingPathComponent("link.yaml").path])
        #expect(result.exitCode == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory.appendingPathComponent("link.yaml").path) == "real.yaml")
        #expect(try String(contentsOf: real, encoding: .utf8).contains("  banana: 8\n"))
    }

    @Test func anUnwritableLintReportLeavesNoPartialFile() throws {
        let missing = try ToolRunner.lint("recipes", "--output", "/nonexistent-dir/report.txt")
        #expect(missing.exitCode == 3)
        #expect(missing.stderr.hasPrefix("juice-lint: error: cannot write '/nonexistent-dir/report.txt': cannot create a temporary file beside it: No such file or directory\n"))
        let full = try ToolRunner.lint("recipes", "--output", "/dev/full")
        #expect(full.exitCode == 3)
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("report.json")
        let written = try ToolRunner.lint("recipes", "--format", "json", "--output", report.path)
        #expect(written.exitCode == 0)
        #expect(try String(contentsOf: report, encoding: .utf8).hasPrefix(#"{"version":1,"#))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.json"])
    }

    // MARK: Out of space

    /// Runs a built tool with a file-size limit of a few KB, so any write past
    /// it fails with EFBIG, as on a full disk. SIGXFSZ is ignored first: an
    /// ignored signal stays ignored across exec, so the write fails instead of
    /// the process dying. (A real full filesystem needs a mount, which tests
    /// cannot count on.)
    static func runOutOfSpace(_ tool: String, _ arguments: [String], in directory: URL) throws -> ToolResult {
        let binary = ToolRunner.productsDirectory.appendingPathComponent(tool).path
        return try ToolRunner.run(
            "/bin/sh", ["-c", #"trap '' XFSZ; ulimit -f 4; exec "$@""#, "sh", binary] + arguments, in: directory
        )
    }

    /// A book of 1,000 fruits, so the saved stock (about 20 KB) and a lint
    /// report of its diagnostics are far past the file-size limit.
    static func bigBook(in directory: URL) throws -> URL {
        let book = directory.appendingPathComponent("book.yaml")
        var yaml = "fruits:\n"
        for index in 0..<1000 { yaml += "  fruit-number-\(index):\n" }
        yaml += "stock:\n"
        for index in 0..<1000 { yaml += "  fruit-number-\(index): \(index)\n" }
        yaml += "menu:\n  one-juice:\n    recipe: { fruit-number-1: 1 }\n"
        try yaml.write(to: book, atomically: true, encoding: .utf8)
        return book
    }

    @Test func aSaveThatRunsOutOfSpaceLeavesTheOldFileUntouched() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let book = try Self.bigBook(in: directory)
        let saved = directory.appendingPathComponent("stock.yaml")
        try "# yesterday's stock\n".write(to: saved, atomically: true, encoding: .utf8)
        let result = try Self.runOutOfSpace(
            "juice-run", ["--recipes", book.path, "--order", "one-juice", "--quiet", "--save-stock", saved.path], in: directory
        )
        #expect(result.exitedNormally)
        #expect(result.exitCode == 3)
        #expect(result.stderr.hasPrefix("juice-run: error: the stock was not saved: cannot write '\(saved.path)': "), "\(result.stderr)")
        #expect(result.stdout.hasPrefix("orders: 1, served: 1, refused: 0"), "the summary is still printed")
        #expect(try String(contentsOf: saved, encoding: .utf8) == "# yesterday's stock\n")
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["book.yaml", "stock.yaml"])
        // The same run without the limit saves: the limit was the only problem.
        let unlimited = try ToolRunner.juiceRun(["--recipes", book.path, "--order", "one-juice", "--quiet", "--save-stock", saved.path])
        #expect(unlimited.exitCode == 0)
        #expect(try String(contentsOf: saved, encoding: .utf8).contains("  fruit-number-999: 999\n"))
    }

    /// A save that fails at the end hands the final stock over on stderr, in
    /// stock-file format, so the day can be recovered by hand.
    @Test func aFailedSavePrintsTheFinalStockToStandardError() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let book = try Self.bigBook(in: directory)
        let saved = directory.appendingPathComponent("stock.yaml")
        let result = try Self.runOutOfSpace(
            "juice-run", ["--recipes", book.path, "--order", "one-juice", "--quiet", "--save-stock", saved.path], in: directory
        )
        #expect(result.exitCode == 3)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].hasPrefix("juice-run: error: the stock was not saved: cannot write '\(saved.path)': "))
        #expect(lines[1] == "  help: the final stock follows in stock-file format; save it by hand")
        let stock = lines.dropFirst(2).joined(separator: "\n")
        #expect(stock.hasPrefix("# Stock saved by juice-run."))
        #expect(stock.contains("\n  fruit-number-1: 0\n"), "one-juice took the one fruit-number-1")
        #expect(stock.hasSuffix("\n  fruit-number-999: 999\n"))
        // What stderr holds is a stock file the book accepts.
        let bookFiles = try RecipeSources.load(paths: [book.path])
        #expect(RecipeCompiler.compile(bookFiles, stock: SourceFile(path: "stderr.yaml", bytes: Array(stock.utf8))).book != nil)
    }

    @Test func aLintReportThatRunsOutOfSpaceLeavesNoPartialFile() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let book = try Self.bigBook(in: directory)
        let report = directory.appendingPathComponent("report.json")
        try "{}\n".write(to: report, atomically: true, encoding: .utf8)
        // 999 unused-fruit warnings: a report of several hundred KB.
        let result = try Self.runOutOfSpace("juice-lint", ["--format", "json", "--output", report.path, book.path], in: directory)
        #expect(result.exitedNormally)
        #expect(result.exitCode == 3)
        #expect(result.stderr.hasPrefix("juice-lint: error: cannot write '\(report.path)': "), "\(result.stderr)")
        #expect(try String(contentsOf: report, encoding: .utf8) == "{}\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["book.yaml", "report.json"])
    }
}

/// A `juice-run` whose standard input stays open, fed a piece at a time, as
/// an operator at the counter would: the tests can wait for a prompt, then
/// signal it or change the world around it.
final class CounterProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe(), output = Pipe(), errors = Pipe()
    /// Everything read from stdout so far; guarded by `lock`.
    private var text = Data()
    private let lock = NSCondition()
    private var outputEnded = false
    private var errorData = Data()
    private let errorsDone = DispatchSemaphore(value: 0)

    var pid: Int32 { process.processIdentifier }

    init(_ arguments: [String]) throws {
        process.executableURL = ToolRunner.productsDirectory.appendingPathComponent("juice-run")
        process.arguments = arguments
        process.currentDirectoryURL = ToolRunner.packageRoot
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let pid = process.processIdentifier
        // A watchdog, so a session that never ends fails the test rather than hanging it.
        DispatchQueue.global().asyncAfter(deadline: .now() + 20) { kill(pid, SIGKILL) }
        Thread { [self] in
            while true {
                let data = output.fileHandleForReading.availableData
                lock.lock()
                if data.isEmpty { outputEnded = true } else { text.append(data) }
                lock.broadcast()
                lock.unlock()
                if data.isEmpty { return }
            }
        }.start()
        Thread { [self] in
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            errorsDone.signal()
        }.start()
    }

    func send(_ line: String) {
        input.fileHandleForWriting.write(Data(line.utf8))
    }

    /// Waits until stdout holds `marker` (or ends).
    func waitFor(_ marker: String) {
        lock.lock()
        while !outputEnded && !String(decoding: text, as: UTF8.self).contains(marker) { lock.wait() }
        lock.unlock()
    }

    /// Sends `signal` and waits for the end, with stdin still open.
    func stop(with signal: Int32) -> ToolResult {
        kill(pid, signal)
        return collect()
    }

    /// Closes stdin (Ctrl-D) and waits for the end.
    func finish() -> ToolResult {
        try? input.fileHandleForWriting.close()
        return collect()
    }

    private func collect() -> ToolResult {
        lock.lock()
        while !outputEnded { lock.wait() }
        let stdout = String(decoding: text, as: UTF8.self)
        lock.unlock()
        errorsDone.wait()
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        return ToolResult(
            stdout: stdout, stderr: String(decoding: errorData, as: UTF8.self),
            exitCode: process.terminationStatus, exitedNormally: process.terminationReason == .exit, seconds: 0
        )
    }
}
