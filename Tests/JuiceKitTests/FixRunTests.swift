import Testing
@testable import JuiceSource
@testable import JuiceDiagnostics
@testable import JuiceBook
@testable import JuiceLint

/// The rounds of `--fix` in memory, with a stand-in linter that offers the
/// fixes each test needs: overlapping fixes, fixes that keep coming, files
/// that cannot be read or edited.
@Suite struct FixRunTests {
    private static func fix(_ title: String, _ file: String, _ start: SourcePosition, _ end: SourcePosition, _ text: String) -> Fix {
        Fix(title: title, edits: [TextEdit(range: SourceRange(file: file, start: start, end: end), replacement: text)])
    }

    private static func diagnostic(_ fixes: Fix..., rule: Rule = .invalidAmount, file: String = "a.yaml") -> Diagnostic {
        let start = fixes.first?.edits.first?.range.start ?? at(1, 1)
        return Diagnostic(rule, at: SourceRange(file: file, start: start, end: start), "problem", fixes: fixes)
    }

    /// A stand-in linter answering round by round, with the files it was
    /// handed each time.
    private final class Script {
        var rounds: [[Diagnostic]]
        var unreadable: [Set<String>]
        private(set) var handed: [[String]] = []

        init(_ rounds: [[Diagnostic]], unreadable: [Set<String>] = []) {
            self.rounds = rounds
            self.unreadable = unreadable
        }

        func lint(_ edited: [SourceFile]) -> FixRun.Findings {
            let round = handed.count
            handed.append(edited.map { String(decoding: $0.bytes, as: UTF8.self) })
            return FixRun.Findings(
                diagnostics: round < rounds.count ? rounds[round] : [],
                unreadable: round < unreadable.count ? unreadable[round] : unreadable.last ?? []
            )
        }
    }

    private static func file(_ text: String, _ path: String = "a.yaml") -> SourceFile {
        SourceFile(path: path, bytes: Array(text.utf8))
    }

    /// Two fixes on the same bytes: the first is made; the second waits for
    /// the lint of the edited text, which offers it again, placed anew.
    @Test func overlappingFixesAreMadeOneAtATimeInOrder() {
        let first = Self.fix("first", "a.yaml", at(1, 1), at(1, 4), "X")
        let second = Self.fix("second", "a.yaml", at(1, 3), at(1, 5), "Y")
        let secondAgain = Self.fix("second", "a.yaml", at(1, 2), at(1, 3), "Y")
        let script = Script([[Self.diagnostic(first), Self.diagnostic(second)], [Self.diagnostic(secondAgain)], []])
        let run = FixRun(files: [Self.file("abcdef\n")], lint: script.lint)
        #expect(run.files.map { String(decoding: $0.bytes, as: UTF8.self) } == ["XYef\n"])
        #expect(script.handed == [[], ["Xdef\n"], ["XYef\n"]])
        #expect(run.rounds == 2)
        #expect(run.changes == [
            FixRun.Change(file: "a.yaml", position: at(1, 1), rule: .invalidAmount, title: "first"),
            // Offset 1 after 'abc' became 'X' is offset 3 as read: column 4.
            FixRun.Change(file: "a.yaml", position: at(1, 4), rule: .invalidAmount, title: "second", waited: true),
        ])
        #expect(run.skipped.isEmpty)
        #expect(run.noticeLines() == [
            "a.yaml: 2 fixes",
            "  1:1: first [invalid-amount]",
            "  1:4: second [invalid-amount] (made after linting again: it overlapped an earlier fix)",
        ])
    }

    /// One whose problem the first fix resolved is not made, and says so.
    @Test func anOverlappingFixNoLongerOfferedIsSkipped() {
        let first = Self.fix("first", "a.yaml", at(1, 1), at(1, 4), "X")
        let second = Self.fix("second", "a.yaml", at(1, 1), at(1, 1), "Y")
        let run = FixRun(files: [Self.file("abcdef\n")], lint: Script([[Self.diagnostic(first), Self.diagnostic(second)]]).lint)
        #expect(run.files[0].bytes == Array("Xdef\n".utf8))
        #expect(run.skipped == [.overlapped(FixRun.Change(file: "a.yaml", position: at(1, 1), rule: .invalidAmount, title: "second"), other: "first")])
        #expect(run.noticeLines() == [
            "a.yaml: 1 fix",
            "  1:1: first [invalid-amount]",
            "  1:1: not fixed: second [invalid-amount]: it overlapped 'first', and after that fix it was no longer offered",
        ])
    }

    /// A fix reported twice (each name of a stale comment removes the
    /// comment) is made once; a diagnostic with two fixes leaves the choice
    /// to a person.
    @Test func aRepeatedFixIsMadeOnceAndAChoiceIsLeftAlone() {
        let remove = Self.fix("remove", "a.yaml", at(2, 1), at(3, 1), "")
        let choice = Self.diagnostic(Self.fix("one", "a.yaml", at(1, 1), at(1, 2), "1"), Self.fix("two", "a.yaml", at(1, 1), at(1, 2), "2"))
        let run = FixRun(files: [Self.file("x\n# c\ny\n")], lint: Script([[choice, Self.diagnostic(remove), Self.diagnostic(remove)], [choice]]).lint)
        #expect(run.files[0].bytes == Array("x\ny\n".utf8))
        #expect(run.changes.map(\.title) == ["remove"])
        #expect(run.skipped.isEmpty)
    }

    /// Fixes that keep coming stop after `maxRounds`, and the count of what
    /// is left is given.
    @Test func roundsAreBounded() {
        let insert = Self.diagnostic(Self.fix("insert", "a.yaml", at(1, 1), at(1, 1), "x"))
        let script = Script(Array(repeating: [insert], count: 20))
        let run = FixRun(files: [Self.file("a\n")], lint: script.lint)
        #expect(run.rounds == FixRun.maxRounds)
        #expect(run.left == 1)
        #expect(run.files[0].bytes == Array((String(repeating: "x", count: FixRun.maxRounds) + "a\n").utf8))
        #expect(run.noticeLines().last == "stopped after 8 rounds with 1 fix still to make; run --fix again")
    }

    /// A file libyaml cannot read is never edited, nor any fix that would
    /// edit it; a fix naming a file outside the book, or a span the file
    /// does not have, is not made and says why.
    @Test func unreadableFilesAndUnplaceableFixesAreLeftAlone() {
        let inBroken = Self.fix("in b", "b.yaml", at(1, 1), at(1, 2), "!")
        let spanning = Fix(title: "both", edits: [
            TextEdit(range: SourceRange(file: "a.yaml", start: at(1, 1), end: at(1, 2)), replacement: "A"),
            TextEdit(range: SourceRange(file: "b.yaml", start: at(1, 1), end: at(1, 1)), replacement: "B"),
        ])
        let elsewhere = Self.fix("elsewhere", "c.yaml", at(1, 1), at(1, 2), "C")
        let pastTheEnd = Self.fix("past", "a.yaml", at(7, 1), at(7, 2), "P")
        let selfOverlapping = Fix(title: "tangled", edits: [
            TextEdit(range: SourceRange(file: "a.yaml", start: at(1, 2), end: at(1, 4)), replacement: "1"),
            TextEdit(range: SourceRange(file: "a.yaml", start: at(1, 3), end: at(1, 5)), replacement: "2"),
        ])
        let good = Self.fix("good", "a.yaml", at(2, 1), at(2, 2), "G")
        let diagnostics = [
            Self.diagnostic(inBroken, file: "b.yaml"), Self.diagnostic(spanning), Self.diagnostic(elsewhere),
            Self.diagnostic(pastTheEnd), Self.diagnostic(selfOverlapping), Self.diagnostic(good),
        ]
        let run = FixRun(
            files: [Self.file("abcde\nz\n"), Self.file("b\n", "b.yaml")],
            lint: Script([diagnostics, Array(diagnostics.dropLast())], unreadable: [["b.yaml"]]).lint
        )
        #expect(run.files.map { String(decoding: $0.bytes, as: UTF8.self) } == ["abcde\nG\n", "b\n"])
        #expect(run.unreadable == ["b.yaml"])
        #expect(run.noticeLines() == [
            "a.yaml: 1 fix",
            "  1:1: not fixed: elsewhere [invalid-amount]: it edits 'c.yaml', which is not in the book",
            "  1:2: not fixed: tangled [invalid-amount]: its edits are not in the file as it stands",
            "  2:1: good [invalid-amount]",
            "  7:1: not fixed: past [invalid-amount]: its edits are not in the file as it stands",
            "b.yaml: not edited: it has a YAML syntax error",
        ])
    }

    /// Fixes that would leave a readable file unreadable are given back.
    @Test func aFileTheFixesWouldBreakIsKeptAsRead() {
        let breaking = Self.diagnostic(Self.fix("break", "a.yaml", at(1, 1), at(1, 1), "{"))
        let run = FixRun(files: [Self.file("a: 1\n")], lint: Script([[breaking], []], unreadable: [[], ["a.yaml"], []]).lint)
        #expect(run.files[0].bytes == Array("a: 1\n".utf8))
        #expect(run.spoilt == ["a.yaml"])
        #expect(run.changes.isEmpty)
        #expect(run.noticeLines() == ["a.yaml: not edited: the fixes would leave a YAML syntax error"])
    }

    /// Offsets after later rounds map back to the text as read.
    @Test func offsetsMapBackThroughEveryRound() {
        // 'abcdef': round 1 writes 'bc' as 'XYZ' ('aXYZdef'), round 2 drops the 'a'.
        let rounds = [[ByteEdit(start: 1, oldCount: 2, newCount: 3)], [ByteEdit(start: 0, oldCount: 1, newCount: 0)]]
        // After round 2 the text is 'XYZdef'.
        #expect(ByteEdit.original(0, through: rounds) == 1)
        #expect(ByteEdit.original(2, through: rounds) == 1)
        #expect(ByteEdit.original(3, through: rounds) == 3)
        #expect(ByteEdit.original(5, through: rounds) == 5)
        #expect(ByteEdit.original(6, through: rounds) == 6)
    }

    /// Offsets become positions in one pass, as `SourcePosition.of` counts
    /// them one at a time: in UTF-8 with and without a mark, and UTF-16.
    @Test func offsetsBecomePositionsAsSourcePositionCountsThem() {
        let text = "fruits:\r\n  망고: { label: \"🍋\" }\r  kiwi:\u{2028}x\n\n"
        for bytes in [Array(text.utf8), [0xEF, 0xBB, 0xBF] + Array(text.utf8), utf16(text, littleEndian: false)] {
            let offsets = Array((0...bytes.count).reversed())
            let positions = SourceOffsets.positions(of: offsets, in: bytes)
            let boundaries = Set(SourceOffsets.offsets(of: positions, in: bytes).compactMap { $0 })
            for (offset, position) in zip(offsets, positions) where boundaries.contains(offset) {
                #expect(position == bytes.withUnsafeBufferPointer { SourcePosition.of(byteOffset: offset, in: $0) }, "byte \(offset)")
                #expect(SourceOffsets.offsets(of: [position], in: bytes) == [offset], "byte \(offset)")
            }
        }
        #expect(SourceOffsets.positions(of: [99, 1, 0], in: Array("a\nb".utf8)) == [at(2, 2), at(1, 2), at(1, 1)])
    }

    /// The real linter on a book whose fixes uncover another: renaming the
    /// misspelt ingredient makes the suppression on 'kiwi' stale, and the
    /// next round removes it.
    @Test func aFixThatUncoversAnotherIsFollowedUp() {
        let book = "fruits:\n  mango:\n  # juice-lint disable-next-line unused-fruit\n  kiwi:\nmenu:\n  juice: { recipe: { mango: 1, kiwii: 1 } }\n"
        var current = [Self.file(book)]
        let linted = FixRun(files: current) { edited in
            for file in edited { current = [file] }
            return FixRun.Findings(diagnostics: Linter.check(current, configuration: LintConfiguration()), unreadable: [])
        }
        #expect(String(decoding: linted.files[0].bytes, as: UTF8.self)
            == "fruits:\n  mango:\n  kiwi:\nmenu:\n  juice: { recipe: { mango: 1, kiwi: 1 } }\n")
        #expect(linted.rounds == 2)
        #expect(linted.noticeLines() == [
            "a.yaml: 2 fixes",
            "  3:1: remove the suppression comment [unused-suppression]",
            "  6:32: replace 'kiwii' with 'kiwi' [unknown-fruit]",
        ])
    }
}
