import Foundation
import Testing

/// One case of the hostile-input corpus, as `Tests/Fixtures/hostile/cases.json`
/// lists it (`generate.py` beside it writes both the files and the list).
struct HostileCase: Decodable, Sendable, CustomTestStringConvertible {
    /// `lint` runs juice-lint on `args`; `run` replays the script `args[0]`
    /// against the canonical `recipes/`.
    enum Tool: String, Decodable, Sendable { case lint, run }

    var name: String
    var tool: Tool
    /// Paths relative to the corpus folder.
    var args: [String]
    var exit: Int32
    /// `rule@LINE` per lint diagnostic, `skip@LINE` per skipped script line,
    /// or just `clean`.
    var expect: [String]
    var about: String
    /// Text standard error must contain.
    var stderr: String?
    /// The test makes the file unreadable first (and, as root, runs as nobody).
    var unreadable: Bool?

    var testDescription: String { name }

    static let folder = ToolRunner.sharedFixtures.appendingPathComponent("hostile")

    /// Every case; empty only if the list cannot be read, which `corpusIsComplete` fails on.
    static let all: [HostileCase] = (try? load()) ?? []

    static func load() throws -> [HostileCase] {
        try JSONDecoder().decode([HostileCase].self, from: Data(contentsOf: folder.appendingPathComponent("cases.json")))
    }
}

/// The hostile corpus on the built binaries: every file ends in exactly the
/// diagnostics (rule and line) or skipped lines its case lists, with its exit
/// code, and no process dies of a signal. Speed is checked on the release build
/// by `Benchmarks/hostile-timing.py`, not here.
@Suite struct HostileCorpusTests {
    @Test func corpusIsComplete() throws {
        let cases = try HostileCase.load()
        #expect(cases.count >= 60)
        #expect(Set(cases.map(\.name)).count == cases.count, "case names must be unique")
        // Every file in the folder belongs to a case, so none sits there unasserted.
        let covered = cases.flatMap(\.args).map { URL(fileURLWithPath: $0, relativeTo: HostileCase.folder).standardized.path }
        let walker = FileManager.default.enumerator(atPath: HostileCase.folder.path)
        var unlisted: [String] = []
        while let relative = walker?.nextObject() as? String {
            let full = HostileCase.folder.appendingPathComponent(relative).standardized.path
            let attributes = try FileManager.default.attributesOfItem(atPath: full)
            guard attributes[.type] as? FileAttributeType != .typeDirectory else { continue }
            if ["generate.py", "cases.json"].contains(relative) { continue }
            if !covered.contains(where: { full == $0 || full.hasPrefix($0 + "/") }) { unlisted.append(relative) }
        }
        #expect(unlisted == [], "files with no case in cases.json")
    }

    @Test(arguments: HostileCase.all)
    func hostileInput(_ hostile: HostileCase) throws {
        let result = try run(hostile)
        #expect(result.exitedNormally, "\(hostile.name) died of a signal: \(result.stderr)")
        #expect(result.exitCode == hostile.exit, "\(hostile.name): \(result.stderr.prefix(500))")
        let expected = hostile.expect.filter { $0 != "clean" }.sorted()
        let found = try outcome(of: hostile, result).sorted()
        #expect(found == expected, "\(hostile.name): \(hostile.about)")
        if let text = hostile.stderr {
            #expect(result.stderr.contains(text), "\(hostile.name): \(result.stderr.prefix(500))")
        }
    }

    /// Inputs git cannot hold: a FIFO (reading it would block for ever), a
    /// device that never ends, and a sparse file past the 64 MiB bound.
    @Test func specialFilesAreRefusedAtOnce() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("special-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        #expect(mkfifo(scratch.appendingPathComponent("fifo.yaml").path, 0o644) == 0)
        let big = scratch.appendingPathComponent("big.yaml").path
        let descriptor = open(big, O_CREAT | O_WRONLY, 0o644)
        #expect(descriptor >= 0 && ftruncate(descriptor, 65 << 20) == 0)
        close(descriptor)
        let cases: [(String, String)] = [
            ("fifo.yaml", "juice-lint: error: cannot read 'fifo.yaml': not a regular file\n"),
            ("/dev/zero", "juice-lint: error: cannot read '/dev/zero': not a regular file\n"),
            ("big.yaml", "juice-lint: error: cannot read 'big.yaml': larger than 64 MiB, the most a recipe file may be\n"),
        ]
        for (path, message) in cases {
            let result = try ToolRunner.run("juice-lint", [path], in: scratch)
            #expect(result.exitCode == 2, "\(path)")
            #expect(result.stderr == message)
            #expect(result.stdout == "")
        }
        // In a directory, a FIFO named like a recipe is not a recipe file: it is skipped, not waited on.
        try "fruits:\n  mango:\nstock:\n  mango: 1\nmenu:\n  m:\n    recipe: { mango: 1 }\n"
            .write(to: scratch.appendingPathComponent("book.yaml"), atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: big)
        let folder = try ToolRunner.run("juice-lint", ["."], in: scratch)
        #expect(folder.exitCode == 0)
        #expect(folder.stderr == "files: 1, errors: 0, warnings: 0, infos: 0\n")
    }

    /// From eight files on, a book is read on every core. The error must still
    /// be the first bad file's in path order, whatever thread met it first,
    /// and nothing may be printed but that error.
    @Test func aBadFileAmongManyIsReportedInPathOrder() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("many-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for number in 0..<12 {
            let path = scratch.appendingPathComponent(String(format: "menu-%02d.yaml", number)).path
            if number == 4 || number == 9 {
                let descriptor = open(path, O_CREAT | O_WRONLY, 0o644)
                #expect(descriptor >= 0 && ftruncate(descriptor, 65 << 20) == 0)
                close(descriptor)
            } else {
                try "menu:\n  juice-\(number):\n    recipe: { mango: 1 }\n".write(toFile: path, atomically: true, encoding: .utf8)
            }
        }
        for _ in 0..<5 {
            let result = try ToolRunner.run("juice-lint", ["--format", "json", "."], in: scratch)
            #expect(result.exitCode == 2)
            #expect(result.stderr == "juice-lint: error: cannot read 'menu-04.yaml': larger than 64 MiB, the most a recipe file may be\n")
            #expect(result.stdout == "")
        }
        // juice-run reads the book up front (`RecipeSources.load`), also in parallel.
        for _ in 0..<3 {
            let result = try ToolRunner.run("juice-run", ["--recipes", ".", "--order", "juice-0"], in: scratch)
            #expect(result.exitCode == 2)
            #expect(result.stderr == "juice-run: error: cannot read 'menu-04.yaml': larger than 64 MiB, the most a recipe file may be\n")
            #expect(result.stdout == "")
        }
    }

    /// Sparse files can claim any size up to `Int.max` (tmpfs lets anyone
    /// make them). Their sizes are added up to decide how to read a book,
    /// which must not overflow: the first one is refused, as one such file is.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/shm")))
    func filesClaimingHugeSizesAreRefusedNotAddedUp() throws {
        let scratch = URL(fileURLWithPath: "/dev/shm").appendingPathComponent("huge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for name in ["a.yaml", "b.yaml"] {
            let descriptor = open(scratch.appendingPathComponent(name).path, O_CREAT | O_WRONLY, 0o644)
            try #require(descriptor >= 0)
            try #require(ftruncate(descriptor, off_t.max) == 0)
            close(descriptor)
        }
        let result = try ToolRunner.run("juice-lint", ["--format", "json", "."], in: scratch)
        #expect(result.exitedNormally)
        #expect(result.exitCode == 2)
        #expect(result.stderr == "juice-lint: error: cannot read 'a.yaml': larger than 64 MiB, the most a recipe file may be\n")
        #expect(result.stdout == "")
    }

    private func run(_ hostile: HostileCase) throws -> ToolResult {
        switch hostile.tool {
        case .lint:
            let arguments = ["--format", "json", "--max-diagnostics", "0"] + hostile.args
            guard hostile.unreadable == true else {
                return try ToolRunner.run("juice-lint", arguments, in: HostileCase.folder)
            }
            return try runUnreadable(hostile, arguments: arguments)
        case .run:
            let recipes = ToolRunner.packageRoot.appendingPathComponent("recipes").path
            return try ToolRunner.run(
                "juice-run", ["--recipes", recipes, "--format", "json", "--max-diagnostics", "0"] + hostile.args,
                in: HostileCase.folder
            )
        }
    }

    /// Copies the case's file into a scratch folder with no permissions at all.
    /// Root reads such a file anyway, so as root the linter runs as `nobody`.
    private func runUnreadable(_ hostile: HostileCase, arguments: [String]) throws -> ToolResult {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let relative = try #require(hostile.args.first)
        let copy = scratch.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        for folder in sequence(first: copy.deletingLastPathComponent(), next: { $0.deletingLastPathComponent() })
            .prefix(while: { $0.path.hasPrefix(scratch.path) }) {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        }
        try FileManager.default.copyItem(at: HostileCase.folder.appendingPathComponent(relative), to: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: copy.path)
        guard geteuid() == 0 else { return try ToolRunner.run("juice-lint", arguments, in: scratch) }
        let setpriv = "/usr/bin/setpriv"
        try #require(FileManager.default.isExecutableFile(atPath: setpriv), "running as root needs setpriv to drop to nobody")
        let linter = ToolRunner.productsDirectory.appendingPathComponent("juice-lint").path
        return try ToolRunner.run(
            setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups", linter] + arguments, in: scratch
        )
    }

    /// `rule@LINE` for each diagnostic of a lint run; `skip@LINE` for each
    /// script line juice-run reported and skipped.
    private func outcome(of hostile: HostileCase, _ result: ToolResult) throws -> [String] {
        switch hostile.tool {
        case .lint:
            // Usage errors (exit 2) print nothing on standard output.
            guard !result.stdout.isEmpty else { return [] }
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                "\(hostile.name): the report is not a JSON object"
            )
            let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
            return diagnostics.map { "\($0["rule"] as? String ?? "?")@\($0["line"] as? Int ?? -1)" }
        case .run:
            let prefix = "\(hostile.args[0]):"
            return result.stderr.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix(prefix), line.contains(": error: ") else { return nil }
                let number = line.dropFirst(prefix.count).prefix { $0.isNumber }
                return "skip@\(number)"
            }
        }
    }
}
