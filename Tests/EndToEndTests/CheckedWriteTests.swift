import Foundation
import Testing

/// Every write of every tool is checked: a report that cannot be written is
/// never a silent success. A full device (`/dev/full`, ENOSPC) or a file-size
/// limit (`ulimit -f`, EFBIG) prints one line naming what was not written and
/// exits 3; a reader that went away (EPIPE) ends the tool quietly with 141.
@Suite("checked writes end to end")
struct CheckedWriteTests {
    /// One output kind of one tool: its arguments, and standard input for the counter.
    struct OutputKind: CustomTestStringConvertible, Sendable {
        var tool: String
        var arguments: [String]
        var stdin: String? = nil
        var testDescription: String { ([tool] + arguments).joined(separator: " ") }
    }

    /// Every kind of standard output the two tools write.
    static let kinds: [OutputKind] = [
        OutputKind(tool: "juice-lint", arguments: ["--format", "text", "recipes"]),
        OutputKind(tool: "juice-lint", arguments: ["--format", "json", "recipes"]),
        OutputKind(tool: "juice-lint", arguments: ["--format", "github", "recipes"]),
        OutputKind(tool: "juice-lint", arguments: ["--format", "sarif", "recipes"]),
        OutputKind(tool: "juice-lint", arguments: ["rules"]),
        OutputKind(tool: "juice-lint", arguments: ["explain", "unknown-fruit"]),
        OutputKind(tool: "juice-lint", arguments: ["graph", "recipes"]),
        OutputKind(tool: "juice-lint", arguments: ["graph", "--format", "dot", "recipes"]),
        OutputKind(tool: "juice-lint", arguments: ["--help"]),
        OutputKind(tool: "juice-run", arguments: ["docs/examples/first-morning.orders"]),
        OutputKind(tool: "juice-run", arguments: ["--format", "json", "docs/examples/first-morning.orders"]),
        OutputKind(tool: "juice-run", arguments: ["--capacity"]),
        OutputKind(tool: "juice-run", arguments: ["--capacity", "--format", "json"]),
        OutputKind(tool: "juice-run", arguments: ["--interactive"], stdin: "1\nstock\nquit\n"),
        OutputKind(tool: "juice-run", arguments: ["--help"]),
    ]

    /// Runs `kind` with standard output redirected by `setup`, a shell
    /// fragment that ends with the redirection (`exec >/dev/full`, say).
    /// SIGXFSZ is ignored first, so a write past `ulimit -f` fails with EFBIG
    /// instead of killing the tool.
    static func run(_ kind: OutputKind, setup: String, in directory: URL = ToolRunner.packageRoot) throws -> ToolResult {
        let binary = ToolRunner.productsDirectory.appendingPathComponent(kind.tool).path
        return try ToolRunner.run(
            "/bin/sh", ["-c", "trap '' XFSZ; \(setup); exec \"$@\"", "sh", binary] + kind.arguments,
            in: directory, stdin: kind.stdin
        )
    }

    /// The one line a tool prints for standard output it could not write.
    static func failureLine(_ kind: OutputKind, _ reason: String) -> String {
        "\(kind.tool): error: cannot write standard output: \(reason)\n"
    }

    @Test(arguments: kinds)
    func aFullDeviceIsExit3WithOneLine(kind: OutputKind) throws {
        let result = try Self.run(kind, setup: "exec >/dev/full")
        #expect(result.exitedNormally)
        #expect(result.exitCode == 3, "\(result.stderr)")
        #expect(result.stderr.hasPrefix(Self.failureLine(kind, "No space left on device")), "\(result.stderr)")
        // One line for the failure; juice-lint's counts still follow it.
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        if kind.tool == "juice-lint" && !["rules", "explain", "graph", "--help"].contains(kind.arguments[0]) {
            #expect(Array(lines.dropFirst()) == ["files: 2, errors: 0, warnings: 0, infos: 1"])
        } else {
            #expect(lines.count == 1, "\(result.stderr)")
        }
    }

    @Test(arguments: kinds)
    func aFileSizeLimitIsExit3WithOneLine(kind: OutputKind) throws {
        let directory = try NoDataLossTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("report").path
        // `ulimit -f 0`: not one byte fits, whatever the kind's size.
        let result = try Self.run(kind, setup: "ulimit -f 0; exec >'\(report)'", in: ToolRunner.packageRoot)
        #expect(result.exitedNormally)
        #expect(result.exitCode == 3, "\(result.stderr)")
        #expect(result.stderr.hasPrefix(Self.failureLine(kind, "File too large")), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: report)).isEmpty)
    }

    /// A large SARIF report cut off by the limit: exit 3, not a broken file and 0.
    @Test func aSARIFReportCutOffByTheLimitFails() throws {
        let directory = try NoDataLossTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let book = try NoDataLossTests.bigBook(in: directory)
        let report = directory.appendingPathComponent("report.sarif").path
        let kind = OutputKind(tool: "juice-lint", arguments: ["--format", "sarif", book.path])
        let result = try Self.run(kind, setup: "ulimit -f 4; exec >'\(report)'", in: directory)
        #expect(result.exitCode == 3)
        #expect(result.stderr == Self.failureLine(kind, "File too large") + "files: 1, errors: 0, warnings: 999, infos: 0\n")
        // What fitted under the limit is there, cut short; the exit code says so.
        let written = try Data(contentsOf: URL(fileURLWithPath: report))
        #expect(!written.isEmpty && written.count <= 4096)
        #expect(!written.reversed().starts(with: Array("}\n".utf8).reversed()))
    }

    /// A long JSON Lines replay cut off by the limit stops early with exit 3,
    /// and its `--save-stock` is still written: the day is not lost with the report.
    @Test func aReplayCutOffByTheLimitStopsAndStillSaves() throws {
        let directory = try NoDataLossTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("orders.jsonl").path
        let saved = directory.appendingPathComponent("stock.yaml")
        // The stock file is smaller than the limit; the report is not.
        let kind = OutputKind(tool: "juice-run", arguments: [
            "--recipes", ToolRunner.packageRoot.appendingPathComponent("recipes").path,
            "--random", "100000", "--seed", "1", "--format", "json", "--save-stock", saved.path,
        ])
        let result = try Self.run(kind, setup: "ulimit -f 8; exec >'\(report)'", in: directory)
        #expect(result.exitCode == 3)
        #expect(result.stderr == Self.failureLine(kind, "File too large"))
        #expect(try String(contentsOf: saved, encoding: .utf8).contains("stock:\n  strawberry: "))
    }

    // MARK: Closed pipes

    /// Runs `arguments` into `head -c 1`, which closes the pipe at once, and
    /// returns the tool's own exit status and standard error.
    static func runIntoClosedPipe(_ tool: String, _ arguments: [String], in directory: URL = ToolRunner.packageRoot) throws -> (status: String, stderr: String) {
        let binary = ToolRunner.productsDirectory.appendingPathComponent(tool).path
        let result = try ToolRunner.run(
            "/bin/bash", ["-c", #""$@" 2>"$0.err" | head -c 1 >/dev/null; echo "${PIPESTATUS[0]}""#, directory.appendingPathComponent("out").path, binary] + arguments,
            in: directory
        )
        let stderr = try String(contentsOf: directory.appendingPathComponent("out.err"), encoding: .utf8)
        return (result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), stderr)
    }

    @Test func aClosedPipeEndsJuiceLintQuietlyWith141() throws {
        let directory = try NoDataLossTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let book = try NoDataLossTests.bigBook(in: directory)
        // Several hundred KB of JSON: far more than a pipe holds.
        let (status, stderr) = try Self.runIntoClosedPipe("juice-lint", ["--format", "json", book.path], in: directory)
        #expect(status == "141")
        #expect(stderr == "")
    }

    @Test func aClosedPipeEndsJuiceRunQuietlyWith141AndStillSaves() throws {
        let directory = try NoDataLossTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = directory.appendingPathComponent("stock.yaml")
        // A billion orders would take minutes: the run must stop at the closed pipe.
        let (status, stderr) = try Self.runIntoClosedPipe("juice-run", [
            "--recipes", ToolRunner.packageRoot.appendingPathComponent("recipes").path,
            "--random", "1000000000", "--seed", "1", "--save-stock", saved.path,
        ], in: directory)
        #expect(status == "141")
        #expect(stderr == "")
        #expect(try String(contentsOf: saved, encoding: .utf8).contains("stock:\n  strawberry: "))
    }
}
