import Foundation
import Testing

/// The python the schema validations run (`SARIFSchema`, `SchemaValidator`):
/// `JUICE_PYTHON` (the Makefile's `swift test` line sets it to the pinned
/// venv's), else `.build/venv/bin/python` under the package root when it is
/// there, else `python3` on the path.
///
/// A suite that needs a module calls `requireModules` first: without them it
/// fails with what to do, rather than being skipped, so a machine without the
/// validator cannot report the schema tests as passed.
enum TestPython {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The executable and the arguments that come before the script's.
    static let command: (executable: URL, prefix: [String]) = {
        if let chosen = ProcessInfo.processInfo.environment["JUICE_PYTHON"], !chosen.isEmpty {
            return (URL(fileURLWithPath: chosen), [])
        }
        let venv = packageRoot.appendingPathComponent(".build/venv/bin/python")
        if FileManager.default.isExecutableFile(atPath: venv.path) { return (venv, []) }
        return (URL(fileURLWithPath: "/usr/bin/env"), ["python3"])
    }()

    /// How the python is named in messages.
    static var name: String { (command.prefix.last.map { "\($0) (on the path)" }) ?? command.executable.path }

    /// A process that runs the python with `arguments` (not started).
    static func process(_ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = command.executable
        process.arguments = command.prefix + arguments
        return process
    }

    /// Why `modules` cannot be imported, or nil when they can; asked once per set.
    static func problem(importing modules: [String]) -> String? {
        let process = process(["-c", "import " + modules.joined(separator: ", ")])
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            return "\(name) could not be started: \(error)"
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus != 0 else { return nil }
        return "\(name) cannot import \(modules.joined(separator: " and ")): \(text.split(separator: "\n").last ?? "")"
    }

    /// Fails the current test, saying how to get the modules, unless the
    /// python can import them.
    static func requireModules(_ problem: String?, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try #require(
            problem == nil,
            "\(problem ?? ""); `make test` pins them into .build/venv and points JUICE_PYTHON at it (or set JUICE_PYTHON to a python that has them)",
            sourceLocation: sourceLocation
        )
    }
}
