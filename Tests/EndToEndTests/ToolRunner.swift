import Foundation
import Testing

/// What a finished tool run printed and how it exited.
struct ToolResult {
    var stdout: String
    var stderr: String
    var exitCode: Int32
    /// False when the process died from a signal (a trap, say) rather than exiting.
    var exitedNormally: Bool
    var seconds: Double
}

/// Runs the built `juice-lint` and `juice-run` binaries, the way a user or CI does.
enum ToolRunner {
    /// The package root, found from this file.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    /// Tests/Fixtures: inputs shared by several suites, such as the hostile corpus.
    static let sharedFixtures = packageRoot.appendingPathComponent("Tests/Fixtures")

    /// The folder holding the built products: beside the test bundle.
    static let productsDirectory: URL = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            packageRoot.appendingPathComponent(".build/debug"),
        ] + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("juice-lint").path) }
            ?? candidates[candidates.count - 1]
    }()

    static func run(
        _ tool: String, _ arguments: [String], in directory: URL = packageRoot,
        stdin: String? = nil, environment: [String: String] = [:]
    ) throws -> ToolResult {
        // A built tool by name, or any program by absolute path.
        let executable = tool.hasPrefix("/") ? URL(fileURLWithPath: tool) : productsDirectory.appendingPathComponent(tool)
        try #require(
            FileManager.default.isExecutableFile(atPath: executable.path),
            "\(tool) is not built at \(executable.path); run `swift build` first"
        )
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        // Variables that change the tools' output are cleared, so the tests mean
        // the same under GitHub Actions or with NO_COLOR set; a test sets them itself.
        var env = ProcessInfo.processInfo.environment
        for key in ["GITHUB_ACTIONS", "NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE"] { env[key] = nil }
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let outPipe = Pipe(), errPipe = Pipe(), inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe
        let started = Date()
        try process.run()
        // Drain both pipes concurrently so a large report cannot block the child.
        nonisolated(unsafe) var errData = Data()
        let errDone = DispatchSemaphore(value: 0)
        Thread {
            errData = errPipe.fileHandleForReading.readDataToEndOfFile()
            errDone.signal()
        }.start()
        if let stdin { inPipe.fileHandleForWriting.write(Data(stdin.utf8)) }
        try inPipe.fileHandleForWriting.close()
        let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errDone.wait()
        return ToolResult(
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self),
            exitCode: process.terminationStatus,
            exitedNormally: process.terminationReason == .exit,
            seconds: Date().timeIntervalSince(started)
        )
    }

    /// Stops a test that lints inside this repository unless the package is
    /// a git work tree (a clone, as CI's is, or a linked worktree): the CI
    /// formats then name files relative to its root, and the test pins that.
    static func requireGitWorkTree(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try #require(
            FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent(".git").path),
            "run the tests in a git clone: --format github and sarif paths are pinned relative to its root",
            sourceLocation: sourceLocation
        )
    }

    static func lint(_ arguments: String..., in directory: URL = packageRoot) throws -> ToolResult {
        try run("juice-lint", arguments, in: directory)
    }

    static func juiceRun(_ arguments: [String], in directory: URL = packageRoot, stdin: String? = nil) throws -> ToolResult {
        try run("juice-run", arguments, in: directory, stdin: stdin)
    }
}
