import Foundation
import Testing
@testable import JuiceSource
@testable import JuiceDiagnostics

private func range(_ file: String, _ line: Int, _ column: Int, _ endLine: Int, _ endColumn: Int) -> SourceRange {
    PrinterTests.range(file, line, column, endLine, endColumn)
}

/// The results of a SARIF log, parsed.
private func results(_ log: String) throws -> [[String: Any]] {
    let run = try #require((try PrinterTests.parse(log)["runs"] as? [[String: Any]])?.first)
    return try #require(run["results"] as? [[String: Any]])
}

/// Each result's `juiceLint/v1` fingerprint.
private func fingerprints(_ log: String) throws -> [String?] {
    try results(log).map { ($0["partialFingerprints"] as? [String: String])?["juiceLint/v1"] }
}

/// The artifact location of a result's first location.
private func artifact(_ result: [String: Any]) throws -> [String: String] {
    let location = try #require((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
    return try #require(location["artifactLocation"] as? [String: String])
}

// MARK: - GitHub annotations

@Suite struct GitHubAnnotationTests {
    /// GitHub's annotation `endColumn` is inclusive: the last column of the
    /// span. `@actions/core` documents `endColumn` as "defaults to
    /// startColumn", so a one-column annotation has `endColumn` equal to `col`,
    /// and the runner drops both when `endColumn` is below `col`. Diagnostics
    /// hold an exclusive end, so `mangoo` at columns 15..<21 is
    /// `col=15,endColumn=20`, and an empty span (a YAML error's point) is
    /// `endColumn` = `col` rather than one less.
    @Test func endColumnIsInclusive() {
        let word = Diagnostic(.unknownFruit, at: range("a.yaml", 3, 15, 3, 21), "unknown fruit 'mangoo'")
        let oneColumn = Diagnostic(.zeroAmount, at: range("a.yaml", 4, 9, 4, 10), "amount of 'kiwi' in menu item 'k' is 0")
        let point = Diagnostic(.yamlSyntax, at: range("a.yaml", 5, 7, 5, 7), "did not find expected key")
        #expect(GitHubDiagnosticPrinter.render([word, oneColumn, point]) == """
            ::error file=a.yaml,line=3,col=15,endLine=3,endColumn=20,title=unknown-fruit::unknown fruit 'mangoo'
            ::error file=a.yaml,line=4,col=9,endLine=4,endColumn=9,title=zero-amount::amount of 'kiwi' in menu item 'k' is 0
            ::error file=a.yaml,line=5,col=7,endLine=5,endColumn=7,title=yaml-syntax::did not find expected key
            """)
    }

    /// The check-run API takes columns only on one line, and the runner drops
    /// them otherwise: a span over lines is written with lines alone.
    @Test func aSpanOverSeveralLinesHasNoColumns() {
        let spanning = Diagnostic(.duplicateKey, at: range("a.yaml", 2, 3, 4, 1), "duplicate key 'menu'")
        #expect(GitHubDiagnosticPrinter.render([spanning]) == """
            ::error file=a.yaml,line=2,endLine=4,title=duplicate-key::duplicate key 'menu'
            """)
    }

    /// With a root, `file=` and the notes' paths are relative to it; a file
    /// outside it keeps its absolute path, which the runner maps itself
    /// when it lies under the workspace.
    @Test func pathsAreRelativeToTheRoot() {
        let root = SourceRoot(path: "/repo", workingDirectory: "/repo/sub")
        let diagnostics = [
            Diagnostic(
                .duplicateDefinition, at: range("book.yaml", 1, 1, 1, 5), "'kiwi' is already defined as a fruit",
                notes: [.init(range: range("../top.yaml", 2, 3, 2, 7), message: "'kiwi' is first defined here")]
            ),
            Diagnostic(.unusedFruit, at: range("../../outside.yaml", 1, 1, 1, 5), "fruit 'lime' is not used by any menu item"),
            Diagnostic(.unusedFruit, at: range("/elsewhere/x.yaml", 1, 1, 1, 5), "fruit 'plum' is not used by any menu item"),
        ]
        #expect(GitHubDiagnosticPrinter.render(diagnostics, root: root) == """
            ::error file=sub/book.yaml,line=1,col=1,endLine=1,endColumn=4,title=duplicate-definition::'kiwi' is already defined as a fruit%0Anote: top.yaml:2:3: 'kiwi' is first defined here
            ::warning file=/outside.yaml,line=1,col=1,endLine=1,endColumn=4,title=unused-fruit::fruit 'lime' is not used by any menu item
            ::warning file=/elsewhere/x.yaml,line=1,col=1,endLine=1,endColumn=4,title=unused-fruit::fruit 'plum' is not used by any menu item
            """)
    }
}

// MARK: - Base path

@Suite struct SourceRootTests {
    @Test(arguments: [
        ("/a/b/../c", "/a/c"),
        ("/a/./b//c/", "/a/b/c"),
        ("/..", "/"),
        ("/", "/"),
        ("a/../../b", "../b"),
        ("./", "."),
    ])
    func pathsAreNormalisedLexically(path: String, normalized: String) {
        #expect(SourceRoot.normalized(path) == normalized)
    }

    @Test func filesArePlacedFromTheWorkingDirectory() {
        let root = SourceRoot(path: "/repo", workingDirectory: "/repo/a/b")
        #expect(root.place(of: "book.yaml") == .inside("a/b/book.yaml"))
        #expect(root.place(of: "../book.yaml") == .inside("a/book.yaml"))
        #expect(root.place(of: "../../book.yaml") == .inside("book.yaml"))
        #expect(root.place(of: "../../../book.yaml") == .outside("/book.yaml"))
        #expect(root.place(of: "/repo/c/d.yaml") == .inside("c/d.yaml"))
        #expect(root.place(of: "/repository/d.yaml") == .outside("/repository/d.yaml"))
        #expect(root.place(of: "./x/./y.yaml") == .inside("a/b/x/y.yaml"))
        // A working directory outside the root: every file is placed in full.
        let apart = SourceRoot(path: "/repo", workingDirectory: "/tmp")
        #expect(apart.place(of: "book.yaml") == .outside("/tmp/book.yaml"))
        #expect(apart.place(of: "../repo/book.yaml") == .inside("book.yaml"))
        // A relative base is taken from the working directory.
        #expect(SourceRoot(path: "..", workingDirectory: "/repo/a").path == "/repo")
        // The file system's root holds everything.
        #expect(SourceRoot(path: "/", workingDirectory: "/srv").place(of: "x.yaml") == .inside("srv/x.yaml"))
    }

    @Test func theDefaultIsTheNearestGitWorkTree() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let resolved = try #require(realpath(scratch.path, nil))
        defer { free(resolved) }
        let top = String(cString: resolved)
        let deep = top + "/clone/a/b"
        try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
        // Not in a work tree: the working directory itself.
        #expect(SourceRoot.resolving(nil, workingDirectory: deep).path == deep)
        // A clone has a .git directory ...
        try FileManager.default.createDirectory(atPath: top + "/clone/.git", withIntermediateDirectories: true)
        #expect(SourceRoot.resolving(nil, workingDirectory: deep).path == top + "/clone")
        // ... a linked worktree or submodule a .git file, and the nearest wins.
        try Data("gitdir: ../.git/worktrees/a\n".utf8).write(to: URL(fileURLWithPath: top + "/clone/a/.git"))
        #expect(SourceRoot.resolving(nil, workingDirectory: deep).path == top + "/clone/a")
        #expect(SourceRoot.resolving(nil, workingDirectory: deep).place(of: "x.yaml") == .inside("b/x.yaml"))
        // A given base wins, resolved through symbolic links as getcwd resolves the working directory.
        try FileManager.default.createSymbolicLink(atPath: top + "/link", withDestinationPath: top + "/clone")
        #expect(SourceRoot.resolving(top + "/link", workingDirectory: deep).path == top + "/clone")
        #expect(SourceRoot.resolving("../..", workingDirectory: deep).path == top + "/clone")
    }
}

// MARK: - SARIF fingerprints

@Suite struct SARIFFingerprintTests {
    /// The published FNV-1a 64 test vectors: the recipe behind every stored
    /// fingerprint must never change.
    @Test func theHashIsFNV1a64() {
        func hash(_ text: String) -> UInt64 {
            var hash = StableHash()
            hash.add(text.utf8)
            return hash.value
        }
        #expect(hash("") == 0xcbf2_9ce4_8422_2325)
        #expect(hash("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(hash("foobar") == 0x8594_4171_f739_67e8)
    }

    static let root = SourceRoot(path: "/repo", workingDirectory: "/repo")

    /// Values computed apart from this code (FNV-1a of "RULE\xFFPATH\xFFMESSAGE\xFF"
    /// in python), so a change of recipe fails here.
    @Test func fingerprintsNameTheProblemNotTheLine() throws {
        let diagnostics = [
            Diagnostic(.unknownFruit, at: range("book.yaml", 3, 15, 3, 21), "unknown fruit 'mangoo'", help: "did you mean 'mango'?"),
            Diagnostic(.unusedFruit, at: range("book.yaml", 5, 3, 5, 7), "fruit 'kiwi' is not used by any menu item"),
            Diagnostic(.unknownFruit, at: range("book.yaml", 9, 15, 9, 21), "unknown fruit 'mangoo'", help: "did you mean 'mango'?"),
            Diagnostic(.unknownFruit, at: range("other.yaml", 3, 15, 3, 21), "unknown fruit 'mangoo'"),
        ]
        #expect(try fingerprints(SARIFDiagnosticPrinter.render(diagnostics, root: Self.root)) == [
            "c8887d2564384e60:1", "c3cfc898cbf3e07a:1", "c8887d2564384e60:2", "10e00cd163334af3:1",
        ])
        // Lines moved, help changed: the same fingerprints.
        var moved = diagnostics
        for index in moved.indices {
            moved[index].range.start.line += 7
            moved[index].range.end.line += 7
            moved[index].help = nil
        }
        #expect(try fingerprints(SARIFDiagnosticPrinter.render(moved, root: Self.root))
            == fingerprints(SARIFDiagnosticPrinter.render(diagnostics, root: Self.root)))
    }

    /// The path in a fingerprint is the one the log writes, relative to the
    /// root, so linting from a subfolder gives the values a run at the root does.
    @Test func fingerprintsFollowThePathFromTheRoot() throws {
        let atRoot = Diagnostic(.unknownFruit, at: range("sub/book.yaml", 3, 15, 3, 21), "unknown fruit 'mangoo'")
        var fromSub = atRoot
        fromSub.range.file = "book.yaml"
        let rendered = try fingerprints(SARIFDiagnosticPrinter.render([fromSub], root: SourceRoot(path: "/repo", workingDirectory: "/repo/sub")))
        #expect(rendered == ["ab298de498cec2f9:1"])
        #expect(try fingerprints(SARIFDiagnosticPrinter.render([atRoot], root: Self.root)) == rendered)
    }

    /// A position a message quotes loses its digits, so it cannot move a fingerprint.
    @Test func positionsInAMessageDoNotCount() throws {
        let near = Diagnostic(.zeroAmount, at: range("book.yaml", 1, 1, 1, 2), "see a.yaml:3:14 x")
        let far = Diagnostic(.zeroAmount, at: range("book.yaml", 1, 1, 1, 2), "see a.yaml:30:2 x")
        #expect(try fingerprints(SARIFDiagnosticPrinter.render([near], root: Self.root)) == ["393b9e3f6c202292:1"])
        #expect(try fingerprints(SARIFDiagnosticPrinter.render([far], root: Self.root)) == ["393b9e3f6c202292:1"])
    }
}

// MARK: - SARIF fixes, paths and the cap

@Suite struct SARIFFixTests {
    /// A fix's edits, grouped by file in the order they first name one; an
    /// insertion is an empty region, a deletion has no inserted content.
    @Test func fixesBecomeArtifactChanges() throws {
        var diagnostic = Diagnostic(.unusedSuppression, at: range("a.yaml", 2, 10, 2, 30), "suppression of 'unused-fruit' suppressed nothing")
        diagnostic.fixes = [
            Fix(title: "remove the comment", edits: [
                TextEdit(range: range("a.yaml", 2, 9, 2, 30), replacement: ""),
                TextEdit(range: range("b/망고 #1.yaml", 1, 1, 1, 1), replacement: "# note\n"),
                TextEdit(range: range("a.yaml", 5, 3, 5, 3), replacement: "x"),
            ]),
            Fix(title: "nothing to do", edits: []),
        ]
        let result = try #require(try results(SARIFDiagnosticPrinter.render([diagnostic], root: SourceRoot(path: "/r", workingDirectory: "/r"))).first)
        let fixes = try #require(result["fixes"] as? [[String: Any]])
        #expect(fixes.count == 1)
        #expect((fixes[0]["description"] as? [String: String]) == ["text": "remove the comment"])
        let changes = try #require(fixes[0]["artifactChanges"] as? [[String: Any]])
        #expect(changes.map { ($0["artifactLocation"] as? [String: String])?["uri"] } == ["a.yaml", "b/%EB%A7%9D%EA%B3%A0%20%231.yaml"])
        #expect(changes.allSatisfy { ($0["artifactLocation"] as? [String: String])?["uriBaseId"] == "%SRCROOT%" })
        let first = try #require(changes[0]["replacements"] as? [[String: Any]])
        #expect(first.count == 2)
        #expect(first[0]["deletedRegion"] as? [String: Int] == ["startLine": 2, "startColumn": 9, "endLine": 2, "endColumn": 30])
        #expect(first[0]["insertedContent"] == nil)
        #expect(first[1]["deletedRegion"] as? [String: Int] == ["startLine": 5, "startColumn": 3, "endLine": 5, "endColumn": 3])
        #expect(first[1]["insertedContent"] as? [String: String] == ["text": "x"])
        let second = try #require(changes[1]["replacements"] as? [[String: Any]])
        #expect(second.count == 1)
        #expect(second[0]["insertedContent"] as? [String: String] == ["text": "# note\n"])
        // A diagnostic with no fixes has no "fixes" at all.
        diagnostic.fixes = []
        #expect(try results(SARIFDiagnosticPrinter.render([diagnostic])).first?["fixes"] == nil)
    }

    /// Under a root: relative URIs with %SRCROOT%, declared as a file URI
    /// ending in `/`; outside it, an absolute file URI with no base id.
    @Test func urisAreRelativeToTheBase() throws {
        let root = SourceRoot(path: "/home/me/juice maker", workingDirectory: "/home/me/juice maker/sub")
        let diagnostics = [
            Diagnostic(.unusedFruit, at: range("../book.yaml", 1, 1, 1, 5), "fruit 'kiwi' is not used by any menu item"),
            Diagnostic(.unusedFruit, at: range("../../elsewhere?.yaml", 1, 1, 1, 5), "fruit 'lime' is not used by any menu item"),
        ]
        let log = SARIFDiagnosticPrinter.render(diagnostics, root: root)
        let run = try #require((try PrinterTests.parse(log)["runs"] as? [[String: Any]])?.first)
        let base = try #require((run["originalUriBaseIds"] as? [String: Any])?["%SRCROOT%"] as? [String: Any])
        #expect(base["uri"] as? String == "file:///home/me/juice%20maker/")
        let found = try results(log)
        #expect(try artifact(found[0]) == ["uri": "book.yaml", "uriBaseId": "%SRCROOT%"])
        #expect(try artifact(found[1]) == ["uri": "file:///home/me/elsewhere%3F.yaml"])
        #expect(!log.contains("../"))
        // The file system's root as the base is "file:///".
        let top = SARIFDiagnosticPrinter.render([], root: SourceRoot(path: "/", workingDirectory: "/"))
        #expect(top.contains("\"uri\": \"file:///\""))
    }

    @Test func sarifIsCappedAtGitHubsLimitUnlessToldOtherwise() {
        #expect(DiagnosticLimit.defaultForSARIF == 25_000)
        #expect(DiagnosticLimit(requested: nil, format: .sarif).maximum == 25_000)
        #expect(DiagnosticLimit(requested: 30_000, format: .sarif).maximum == 30_000)
        #expect(DiagnosticLimit(requested: 0, format: .sarif).maximum == nil)
        #expect(DiagnosticLimit(requested: nil, format: .json).maximum == nil)
        #expect(DiagnosticLimit(requested: nil, format: .github).maximum == 200)
    }
}
