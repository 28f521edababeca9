import Testing
@_spi(Internals) @testable import JuiceSupport
@testable import JuiceDiagnostics
@testable import JuiceBook
@testable import JuiceSimulation
@testable import JuiceLint

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
    }
}
