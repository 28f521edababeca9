import DifferentialSupport
import Testing
@_spi(Internals) @testable import JuiceSupport

/// The unified diff `--fix --diff` prints: hunks, their line counts, context
/// and the last line without a break. That `patch` and `git apply` take it
/// is checked end to end (FixEndToEndTests).
@Suite struct UnifiedDiffTests {
    private func diff(_ old: String, _ new: String) -> String {
        UnifiedDiff.render(old: Array(old.utf8), new: Array(new.utf8), path: "r/a.yaml")
    }

    private func numbered(_ range: ClosedRange<Int>, changing changed: [Int: String] = [:]) -> String {
        range.map { changed[$0] ?? "line \($0)" }.joined(separator: "\n") + "\n"
    }

    @Test func oneChangeHasThreeLinesOfContextEachSide() {
        #expect(diff(numbered(1...20), numbered(1...20, changing: [10: "ten"])) == """
            --- a/r/a.yaml
            +++ b/r/a.yaml
            @@ -7,7 +7,7 @@
             line 7
             line 8
             line 9
            -line 10
            +ten
             line 11
             line 12
             line 13

            """)
    }

    /// Six common lines between two changes join their hunks, seven do not,
    /// as `diff -u` does.
    @Test func nearChangesShareAHunkAndFarOnesDoNot() {
        #expect(diff(numbered(1...20), numbered(1...20, changing: [3: "x", 10: "y"])) == """
            --- a/r/a.yaml
            +++ b/r/a.yaml
            @@ -1,13 +1,13 @@
             line 1
             line 2
            -line 3
            +x
             line 4
             line 5
             line 6
             line 7
             line 8
             line 9
            -line 10
            +y
             line 11
             line 12
             line 13

            """)
        #expect(diff(numbered(1...20), numbered(1...20, changing: [3: "x", 11: "y"])) == """
            --- a/r/a.yaml
            +++ b/r/a.yaml
            @@ -1,6 +1,6 @@
             line 1
             line 2
            -line 3
            +x
             line 4
             line 5
             line 6
            @@ -8,7 +8,7 @@
             line 8
             line 9
             line 10
            -line 11
            +y
             line 12
             line 13
             line 14

            """)
    }

    /// A removed line shortens the new side; an empty side is counted 0 and
    /// starts at the line before it.
    @Test func lineCountsAndEmptySides() {
        #expect(diff("a\n# gone\nb\n", "a\nb\n") == "--- a/r/a.yaml\n+++ b/r/a.yaml\n@@ -1,3 +1,2 @@\n a\n-# gone\n b\n")
        #expect(diff("", "a\n") == "--- a/r/a.yaml\n+++ b/r/a.yaml\n@@ -0,0 +1 @@\n+a\n")
        #expect(diff("a\n", "") == "--- a/r/a.yaml\n+++ b/r/a.yaml\n@@ -1 +0,0 @@\n-a\n")
        #expect(diff("same\n", "same\n") == "")
    }

    @Test func aLastLineWithoutABreakIsMarked() {
        #expect(diff("a\nb", "a\nb\n") == """
            --- a/r/a.yaml
            +++ b/r/a.yaml
            @@ -1,2 +1,2 @@
             a
            -b
            \\ No newline at end of file
            +b

            """)
        #expect(diff("a\nb", "A\nb") == """
            --- a/r/a.yaml
            +++ b/r/a.yaml
            @@ -1,2 +1,2 @@
            -a
            +A
             b
            \\ No newline at end of file

            """)
    }

    /// CRLF lines keep their `\\r`, so the diff applies to the file's bytes.
    @Test func crlfLinesKeepTheirCarriageReturn() {
        #expect(diff("a\r\nb\r\n", "a\r\nc\r\n") == "--- a/r/a.yaml\n+++ b/r/a.yaml\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n")
    }

    @Test func utf16FilesAreNamedLikeBinaryOnes() {
        let old = utf16("a: 1\n", littleEndian: true), new = utf16("a: 2\n", littleEndian: true)
        #expect(UnifiedDiff.render(old: old, new: new, path: "w.yaml") == "Binary files a/w.yaml and b/w.yaml differ\n")
    }

    /// The script turns the old lines into the new ones with the fewest
    /// changes: as many as the longest common subsequence leaves. Seeded
    /// random sequences over a small alphabet, against the textbook table.
    @Test func theScriptIsShortestAndCorrect() {
        var random = SplitMix64(seed: 14)
        for _ in 0..<400 {
            let a = (0..<Int(random.next() % 12)).map { _ in Int(random.next() % 4) }
            let b = (0..<Int(random.next() % 12)).map { _ in Int(random.next() % 4) }
            guard let script = UnifiedDiff.shortestScript(a, b, limit: 100) else {
                Issue.record("no script for \(a) → \(b)")
                continue
            }
            var rebuilt: [Int] = []
            var kept: [Int] = []
            for op in script {
                switch op {
                case .same(let i, let j):
                    #expect(a[i] == b[j])
                    rebuilt.append(b[j])
                    kept.append(i)
                case .delete(let i): kept.append(i)
                case .insert(let j): rebuilt.append(b[j])
                }
            }
            #expect(rebuilt == b, "\(a) → \(b)")
            #expect(kept == Array(a.indices), "\(a) → \(b)")
            let changes = script.filter { if case .same = $0 { false } else { true } }.count
            #expect(changes == a.count + b.count - 2 * Self.commonLength(a, b), "\(a) → \(b)")
        }
    }

    /// Past the limit there is no shortest script: lines are paired in
    /// place when both sides have as many, and otherwise the span between
    /// the first and the last change is replaced whole. Both are right.
    @Test func pastTheLimitLinesArePairedOrTheSpanIsReplacedWhole() {
        #expect(UnifiedDiff.shortestScript([1, 2, 3], [4, 5, 6], limit: 5) == nil)
        let old = UnifiedDiff.lines(Array("k\n1\nk\n2\nk\n".utf8)), new = UnifiedDiff.lines(Array("k\n3\nk\n4\nk\n".utf8))
        // The shortest keeps the middle 'k'.
        #expect(UnifiedDiff.editScript(old, new) == [
            .same(0, 0), .delete(1), .insert(1), .same(2, 2), .delete(3), .insert(3), .same(4, 4),
        ])
        let swapped = UnifiedDiff.lines(Array("k\n1\nk\n2\nk\n".utf8)), shifted = UnifiedDiff.lines(Array("k\nk\n2\nk\n3\n".utf8))
        // The shortest drops '1' and adds '3'.
        #expect(UnifiedDiff.editScript(swapped, shifted) == [.same(0, 0), .delete(1), .same(2, 1), .same(3, 2), .same(4, 3), .insert(4)])
        #expect(UnifiedDiff.editScript(swapped, shifted, limit: 1) == [
            .same(0, 0), .delete(1), .insert(1), .delete(2), .insert(2), .delete(3), .insert(3), .delete(4), .insert(4),
        ])
        let longer = UnifiedDiff.lines(Array("k\n2\n3\nk\n".utf8)), shorter = UnifiedDiff.lines(Array("k\n1\nk\n".utf8))
        #expect(UnifiedDiff.editScript(longer, shorter, limit: 1) == [.same(0, 0), .delete(1), .delete(2), .insert(1), .same(3, 2)])
    }

    private static func commonLength(_ a: [Int], _ b: [Int]) -> Int {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        return table[0][0]
    }
}
