import Foundation
import Testing

/// `--format sarif` and `--format github` through the built binary: stable
/// fingerprints, GitHub's result cap, `--base-path`, annotation columns and
/// SARIF fixes.
@Suite("CI formats end to end")
struct CIFormatEndToEndTests {
    /// A fresh folder with `files` written in it (parents made as needed), its
    /// path resolved through symbolic links, as the tools' working directory is.
    static func folder(_ files: [String: String]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ci-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (path, text) in files {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return directory.resolvingSymlinksInPath()
    }

    static func log(_ result: ToolResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout.prefix(500))")
    }

    static func run(_ log: [String: Any]) throws -> [String: Any] {
        try #require((log["runs"] as? [[String: Any]])?.first)
    }

    static func results(_ result: ToolResult) throws -> [[String: Any]] {
        try #require(try run(log(result))["results"] as? [[String: Any]])
    }

    static func fingerprint(_ result: [String: Any]) -> String? {
        (result["partialFingerprints"] as? [String: String])?["juiceLint/v1"]
    }

    static func physical(_ result: [String: Any]) -> [String: Any]? {
        (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
    }

    static let book = """
        fruits: { mango: , kiwi: }
        stock: { mango: 5, kiwi: 5 }
        menu:
          juice: { recipe: { mangoo: 1, kiwii: 1 } }

        """

    // MARK: Fingerprints

    @Test func fingerprintsSurviveASecondRunAndMovedLines() throws {
        let directory = try Self.folder(["book.yaml": Self.book])
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try Self.results(ToolRunner.lint("--format", "sarif", "book.yaml", in: directory))
        let second = try Self.results(ToolRunner.lint("--format", "sarif", "book.yaml", in: directory))
        #expect(first.map { $0["ruleId"] as? String } == ["unknown-fruit", "unknown-fruit"])
        let prints = first.map(Self.fingerprint)
        #expect(prints.allSatisfy { $0 != nil })
        // Two different problems: two different fingerprints, each the first of its kind.
        #expect(Set(prints).count == 2)
        #expect(prints.allSatisfy { $0?.hasSuffix(":1") == true })
        #expect(second.map(Self.fingerprint) == prints)

        // Blank lines above the diagnostics move them down three lines, and
        // change nothing else.
        try Data(Self.book.replacingOccurrences(of: "menu:\n", with: "\n\n\nmenu:\n").utf8)
            .write(to: directory.appendingPathComponent("book.yaml"))
        let moved = try Self.results(ToolRunner.lint("--format", "sarif", "book.yaml", in: directory))
        #expect(moved.map(Self.fingerprint) == prints)
        let lines = { (results: [[String: Any]]) in results.map { (Self.physical($0)?["region"] as? [String: Int])?["startLine"] } }
        #expect(lines(first) == [4, 4])
        #expect(lines(moved) == [7, 7])
    }

    @Test func twoIdenticalProblemsInOneFileStayTwo() throws {
        let directory = try Self.folder(["book.yaml": """
            fruits: { mango: }
            stock: { mango: 5 }
            menu:
              a: { recipe: { zzz: 1 } }
              b: { recipe: { zzz: 1 } }

            """])
        defer { try? FileManager.default.removeItem(at: directory) }
        let results = try Self.results(ToolRunner.lint("--format", "sarif", "book.yaml", in: directory))
        let prints = results.map(Self.fingerprint)
        #expect(prints.count == 2)
        let hashes = prints.compactMap { $0?.split(separator: ":").first }
        #expect(hashes.count == 2 && hashes[0] == hashes[1])
        #expect(prints.compactMap { $0?.split(separator: ":").last } == ["1", "2"])
    }

    // MARK: GitHub's limit

    /// 12,501 fruits nothing uses and nothing stocks: a warning and an info
    /// each, 25,002 diagnostics. SARIF keeps 25,000, the warnings first, and
    /// says so. (That `--max-diagnostics` replaces the default is held by
    /// `SARIFFixTests.sarifIsCappedAtGitHubsLimitUnlessToldOtherwise` and
    /// `DiagnosticCapTests`: a second 20 MB log here would double the time.)
    @Test func sarifStopsAtTwentyFiveThousandResults() throws {
        var yaml = "fruits:\n"
        for index in 0..<12_501 { yaml += "  f\(index):\n" }
        let directory = try Self.folder(["book.yaml": yaml])
        defer { try? FileManager.default.removeItem(at: directory) }
        let capped = try ToolRunner.lint("--format", "sarif", "book.yaml", in: directory)
        #expect(capped.exitCode == 0)
        #expect(capped.stderr == "files: 1, errors: 0, warnings: 12501, infos: 12501\n")
        let run = try Self.run(Self.log(capped))
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 25_000)
        #expect(results.filter { $0["level"] as? String == "warning" }.count == 12_501)
        let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == true)
        let notices = try #require(invocation["toolExecutionNotifications"] as? [[String: Any]])
        #expect(notices.count == 1)
        #expect(notices.first?["level"] as? String == "note")
        #expect((notices.first?["message"] as? [String: Any])?["text"] as? String
            == "… and 2 more diagnostics not shown (--max-diagnostics 0 shows all)")
    }

    // MARK: --base-path

    /// Linting the folder above the working directory: with the base there,
    /// given or found as the git work tree, no URI climbs out with `../`.
    @Test func aFolderAboveTheWorkingDirectoryHasNoDotDotURIs() throws {
        let directory = try Self.folder(["book.yaml": Self.book, "sub/notes.txt": "x\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let sub = directory.appendingPathComponent("sub")
        let given = try ToolRunner.lint("--format", "sarif", "--base-path", "..", "..", in: sub)
        #expect(given.exitCode == 1)
        #expect(!given.stdout.contains("../"))
        let run = try Self.run(Self.log(given))
        let base = try #require((run["originalUriBaseIds"] as? [String: Any])?["%SRCROOT%"] as? [String: Any])
        #expect(base["uri"] as? String == "file://\(directory.path)/")
        let results = try #require(run["results"] as? [[String: Any]])
        for result in results {
            #expect(Self.physical(result)?["artifactLocation"] as? [String: String] == ["uri": "book.yaml", "uriBaseId": "%SRCROOT%"])
        }

        // The same folder as a git work tree is the default base.
        try FileManager.default.createDirectory(at: directory.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let found = try ToolRunner.lint("--format", "sarif", "..", in: sub)
        #expect(found.stdout == given.stdout)

        // With neither, the base is the working directory, and the file above
        // it is an absolute file URI with no base id.
        try FileManager.default.removeItem(at: directory.appendingPathComponent(".git"))
        let neither = try Self.results(ToolRunner.lint("--format", "sarif", "..", in: sub))
        #expect(neither.compactMap { Self.physical($0)?["artifactLocation"] as? [String: String] }.first
            == ["uri": "file://\(directory.path)/book.yaml"])
    }

    @Test func gitHubFilesAreRelativeToTheBase() throws {
        let directory = try Self.folder(["book.yaml": Self.book, "sub/notes.txt": "x\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let sub = directory.appendingPathComponent("sub")
        let expected = """
            ::error file=book.yaml,line=4,col=22,endLine=4,endColumn=27,title=unknown-fruit::unknown fruit 'mangoo'%0Ahelp: did you mean 'mango'?
            ::error file=book.yaml,line=4,col=33,endLine=4,endColumn=37,title=unknown-fruit::unknown fruit 'kiwii'%0Ahelp: did you mean 'kiwi'?

            """
        #expect(try ToolRunner.lint("--format", "github", "--base-path", "..", "..", in: sub).stdout == expected)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent(".git"), withIntermediateDirectories: true)
        #expect(try ToolRunner.lint("--format", "github", "..", in: sub).stdout == expected)
        // A base below the file: its absolute path, which the runner maps to the workspace itself.
        let outside = try ToolRunner.lint("--format", "github", "--base-path", ".", "..", in: sub)
        #expect(outside.stdout.hasPrefix("::error file=\(directory.path)/book.yaml,line=4,col=22,"))
        // The text and JSON formats keep naming files from the working directory.
        #expect(try ToolRunner.lint("--format", "text", "..", in: sub).stdout.hasPrefix("../book.yaml:4:22: error:"))
    }

    @Test func aBasePathThatIsNoDirectoryIsAUsageError() throws {
        let directory = try Self.folder(["book.yaml": Self.book])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolRunner.lint("--format", "sarif", "--base-path", "book.yaml", "book.yaml", in: directory)
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("Error: --base-path 'book.yaml' is not a directory\n"))
        #expect(result.stdout == "")
    }

    // MARK: Annotations over several lines

    /// `fruits` written as a list spans 3:3 to 4:9: the annotation gives the
    /// lines and no columns, as GitHub allows columns only on one line.
    @Test func anAnnotationOverSeveralLinesHasNoColumns() throws {
        let directory = try Self.folder(["book.yaml": "version: 1\nfruits:\n  - mango\n  - kiwi\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = try ToolRunner.lint("--format", "json", "book.yaml", in: directory)
        #expect(json.stdout.contains(#""line":3,"column":3,"endLine":4,"endColumn":9,"severity":"error","rule":"invalid-type""#))
        let result = try ToolRunner.lint("--format", "github", "book.yaml", in: directory)
        #expect(result.exitCode == 1)
        #expect(result.stdout == """
            ::error file=book.yaml,line=3,endLine=4,title=invalid-type::'fruits' must be a mapping, found a sequence%0Ahelp: write each entry as 'ID: ...' under 'fruits:'

            """)
    }

    // MARK: Fixes

    /// A did-you-mean with one candidate is a SARIF fix: the misspelt name's
    /// exact span, replaced by the candidate.
    @Test func aDidYouMeanIsASARIFFix() throws {
        let directory = try Self.folder(["book.yaml": Self.book])
        defer { try? FileManager.default.removeItem(at: directory) }
        let results = try Self.results(ToolRunner.lint("--format", "sarif", "book.yaml", in: directory))
        let mangoo = try #require(results.first)
        let fixes = try #require(mangoo["fixes"] as? [[String: Any]])
        #expect(fixes.count == 1)
        #expect((fixes[0]["description"] as? [String: String])?["text"] == "replace 'mangoo' with 'mango'")
        let changes = try #require(fixes[0]["artifactChanges"] as? [[String: Any]])
        #expect(changes.count == 1)
        #expect(changes[0]["artifactLocation"] as? [String: String] == ["uri": "book.yaml", "uriBaseId": "%SRCROOT%"])
        let replacements = try #require(changes[0]["replacements"] as? [[String: Any]])
        #expect(replacements.count == 1)
        #expect(replacements[0]["deletedRegion"] as? [String: Int] == ["startLine": 4, "startColumn": 22, "endLine": 4, "endColumn": 28])
        #expect(replacements[0]["insertedContent"] as? [String: String] == ["text": "mango"])
        // The region is the diagnostic's own span: the replacement lands on 'mangoo'.
        #expect(Self.physical(mangoo)?["region"] as? [String: Int] == ["startLine": 4, "startColumn": 22, "endLine": 4, "endColumn": 28])
        let line = Self.book.split(separator: "\n")[3]
        #expect(String(Array(line)[21..<27]) == "mangoo")
        #expect(try SARIFValidation.validate(try ToolRunner.lint("--format", "sarif", "book.yaml", in: directory).stdout) == "valid")
    }
}
