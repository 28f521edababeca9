import Testing
@_spi(Internals) @testable import JuiceSupport

/// "Did you mean" by edit distance: close names are suggested, far ones not.
@Suite struct SuggestionTests {
    @Test func thresholdGrowsWithLength() {
        #expect((0...8).map(Suggestion.threshold(forLength:)) == [0, 0, 0, 1, 1, 1, 2, 2, 2])
    }

    @Test(arguments: [
        ("mangoo", ["kiwi", "mango"], "mango"),  // one insertion
        ("mnago", ["mango"], "mango"),  // one swap of neighbours
        ("kiw", ["kiwi"], "kiwi"),  // three letters allow one edit
        ("pinaple", ["pineapple"], "pineapple"),  // seven letters allow two
        ("lemons", ["melons"], "melons"),  // two substitutions, six letters
        ("망고주수", ["망고주스"], "망고주스"),  // counted in scalars, not bytes
    ])
    func closeNamesAreSuggested(_ name: String, _ candidates: [String], _ suggestion: String) {
        #expect(Suggestion.closest(to: name, in: candidates) == suggestion)
    }

    @Test(arguments: [
        ("lemon", ["melon"]),  // two edits, but five letters allow one
        ("ki", ["kiw"]),  // two letters: never suggest
        ("dragonfruit", ["mango", "kiwi"]),
        ("pineapplexyz", ["pineapple"]),  // three edits
        ("mango", ["mango"]),  // the name itself is no suggestion
        ("mango", []),
    ])
    func farNamesAreNot(_ name: String, _ candidates: [String]) {
        #expect(Suggestion.closest(to: name, in: candidates) == nil)
    }

    @Test func closerWinsAndTheEarliestBreaksTies() {
        // 'chelly' is two edits from 'cherry', 'cherri' one.
        #expect(Suggestion.closest(to: "cherry", in: ["chelly", "cherri"]) == "cherri")
        #expect(Suggestion.closest(to: "lim", in: ["lima", "lime"]) == "lima")
        #expect(Suggestion.closest(to: "lim", in: ["lime", "lima"]) == "lime")
    }

    @Test func didYouMeanText() {
        #expect(Suggestion.didYouMean("kiwii", in: ["kiwi"]) == "did you mean 'kiwi'?")
        #expect(Suggestion.didYouMean("zzz", in: ["kiwi"]) == nil)
    }

    @Test func editDistanceStopsAtItsBound() {
        let kitten = Array("kitten".unicodeScalars), sitting = Array("sitting".unicodeScalars)
        #expect(Suggestion.editDistance(kitten, sitting, atMost: 3) == 3)
        #expect(Suggestion.editDistance(kitten, sitting, atMost: 2) == nil)
        #expect(Suggestion.editDistance([], Array("ab".unicodeScalars), atMost: 2) == 2)
        #expect(Suggestion.editDistance([], Array("abc".unicodeScalars), atMost: 2) == nil)
        // A bound past any length is no bound, and does not overflow.
        #expect(Suggestion.editDistance(kitten, sitting, atMost: Int.max) == 3)
    }

    /// The banded distance against the whole optimal-string-alignment table,
    /// written out plainly here: on 20,000 seeded pairs over a three-letter
    /// alphabet (so swaps and near misses are common), of lengths 0 to 9, for
    /// every bound from 0 to 4, it answers what the table does.
    @Test func bandedEditDistanceEqualsTheWholeTable() {
        func whole(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
            var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
            for i in 0...a.count { table[i][0] = i }
            for j in 0...b.count { table[0][j] = j }
            for i in stride(from: 1, through: a.count, by: 1) {
                for j in stride(from: 1, through: b.count, by: 1) {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                        table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                    }
                }
            }
            return table[a.count][b.count]
        }
        var state: UInt64 = 2026
        func next(_ below: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % below
        }
        let letters: [Unicode.Scalar] = ["a", "b", "c"]
        var mismatches = 0
        for _ in 0..<20_000 {
            let a = (0..<next(10)).map { _ in letters[next(3)] }
            let b = (0..<next(10)).map { _ in letters[next(3)] }
            let distance = whole(a, b)
            for bound in 0...4 where Suggestion.editDistance(a, b, atMost: bound) != (distance <= bound ? distance : nil) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
    }
}
