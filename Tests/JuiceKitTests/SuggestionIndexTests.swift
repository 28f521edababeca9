import Testing
@testable import JuiceKit

/// The indexed path of `SuggestionIndex`, used for lists longer than
/// `SuggestionIndex.scanLimit`, against a plain scan of every name.
@Suite struct SuggestionIndexTests {
    static let names = (0..<5_000).map { "item-\($0 * 7919 % 100_000)" } + ["mango", "pineapple", "strawberry"]

    /// The best one-edit suggestion by brute force: lowest distance, earliest name.
    static func bruteForce(_ name: String) -> String? {
        let target = Array(name.unicodeScalars)
        var best: (index: Int, distance: Int)?
        for (index, candidate) in names.enumerated() where candidate != name {
            if let distance = Suggestion.editDistance(target, Array(candidate.unicodeScalars), atMost: 1),
               best == nil || distance < best!.distance {
                best = (index, distance)
            }
        }
        return best.map { names[$0.index] }
    }

    @Test func radixSortSortsLikeSort() {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 2, 3, 1_000, 70_000] {
            var keys = (0..<count).map { _ in UInt64.random(in: .min ... .max, using: &generator) }
            // Repeats and keys that differ only in one 16-bit digit.
            keys += keys.prefix(50) + keys.prefix(50).map { $0 ^ 0x0001_0000 }
            let expected = keys.sorted()
            var grouped = keys
            SuggestionIndex.radixSort(&keys)
            #expect(keys == expected, "\(count) keys")
            // From bit 17 on: ordered by the high bits, whatever the low ones.
            SuggestionIndex.radixSort(&grouped, fromBit: 17)
            #expect(grouped.map { $0 >> 17 } == expected.map { $0 >> 17 })
            #expect(grouped.sorted() == expected)
        }
    }

    /// The index is built in parts on several cores, each sorted, then
    /// merged: the merge keeps every key and orders them by group.
    @Test func sortedPartsMergeIntoOneSortedList() {
        var generator = SystemRandomNumberGenerator()
        for (firstCount, secondCount) in [(0, 0), (0, 5), (7, 0), (1_000, 3_000), (20_000, 19_999)] {
            var first = (0..<firstCount).map { _ in UInt64.random(in: 0...(1 << 20), using: &generator) << 12 | 7 }
            var second = (0..<secondCount).map { _ in UInt64.random(in: 0...(1 << 20), using: &generator) << 12 | 9 }
            SuggestionIndex.radixSort(&first, fromBit: 12)
            SuggestionIndex.radixSort(&second, fromBit: 12)
            let merged = SuggestionIndex.merged(first, second, groupShift: 12)
            #expect(merged.count == firstCount + secondCount)
            #expect(merged.map { $0 >> 12 } == (first + second).map { $0 >> 12 }.sorted())
            #expect(merged.sorted() == (first + second).sorted())
        }
    }

    @Test func largeListsUseTheIndex() {
        #expect(Self.names.count > SuggestionIndex.scanLimit)
    }

    @Test(arguments: [
        ("strawbery", "strawberry"),   // deletion
        ("strawbberry", "strawberry"), // insertion
        ("strawbevry", "strawberry"),  // substitution
        ("starwberry", "strawberry"),  // swap of neighbours
        ("pinapple", "pineapple"),
        ("mangoo", "mango"),
        ("item-79191", "item-7919"),
        ("tem-15838", "item-15838"),
    ])
    func everyOneEditTypoIsFound(typo: String, expected: String) {
        let index = SuggestionIndex(Self.names)
        #expect(index.closest(to: typo) == expected)
        #expect(index.closest(to: typo) == Self.bruteForce(typo))
    }

    @Test func farNamesGetNoSuggestion() {
        let index = SuggestionIndex(Self.names)
        #expect(index.closest(to: "durian") == nil)
        #expect(index.closest(to: "mango") == nil)  // an exact name is not its own suggestion
    }

    @Test func smallListsStillFindTwoEdits() {
        let index = SuggestionIndex(["strawberry", "banana"])
        #expect(index.closest(to: "strowbery") == "strawberry")
    }

    /// The linker looks many unknown names up at once, on every core: the
    /// answers are each name's own, in order, as one look-up after another
    /// gives them.
    @Test func manyLookUpsAtOnceMatchOneByOne() {
        let typos = (0..<(Linker.parallelMatchMinimum * 2 + 7)).map { index -> String in
            let name = Self.names[(index * 7919) % Self.names.count]
            return index % 3 == 0 ? String(name.dropFirst()) : index % 3 == 1 ? name + "x" : "zz" + name + "zz"
        }
        let together = Linker.closestMatches(typos, in: SuggestionIndex(Self.names))
        let single = SuggestionIndex(Self.names)
        let oneByOne = typos.map { single.closestMatch(to: $0) }
        #expect(together.count == typos.count)
        #expect(together.map { $0?.name } == oneByOne.map { $0?.name })
        #expect(together.map { $0?.isSole } == oneByOne.map { $0?.isSole })
        #expect(together.contains { $0 != nil } && together.contains { $0 == nil })
    }
}

/// Unknown names are reported at the end of the link, looked up together,
/// but each in the place among the link's diagnostics that reporting it at
/// once gave: before a stock entry's
/// unknown fruit, a cycle and the analyses, which the link finds after them.
@Suite struct DeferredUnknownNameTests {
    @Test func unknownNamesKeepTheirPlaceAmongTheLinksDiagnostics() {
        let yaml = """
            fruits:
              mango:
            stock:
              mangoo: 3
            recipes:
              loop-a: { loop-b: 1 }
              loop-b: { loop-a: 1 }
            menu:
              juice:
                recipe: { mangi: 2, mango: 1 }
              shake:
                recipe: { kiwi: 1 }
            """
        let unit = WorkspaceUnit(bookFile: SourceFile(path: "book.yaml", bytes: Array(yaml.utf8)))
        var declarations = BookDeclarations()
        for part in unit.parts { declarations.merge(part) }
        var linker = Linker(declarations: declarations)
        _ = linker.link(analysis: true)
        #expect(linker.diagnostics.map(\.spot) == [
            Spot(.unknownFruit, "book.yaml", 10, 15), Spot(.unknownFruit, "book.yaml", 12, 15),
            Spot(.unknownFruit, "book.yaml", 4, 3), Spot(.recipeCycle, "book.yaml", 7, 13),
            Spot(.neverMakeable, "book.yaml", 9, 3), Spot(.missingStock, "book.yaml", 2, 3),
        ])
        #expect(linker.diagnostics.first?.help == "did you mean 'mango'?")
        #expect(linker.unknownNames.isEmpty)
    }
}
