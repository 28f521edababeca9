import Testing
@_spi(Internals) @testable import JuiceSupport
@testable import JuiceSource
@testable import JuiceBook
@testable import JuiceEngine

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
        _ = linker.link(analysis: true, leavingFacts: true)
        // The engine's pass, after the link, puts its diagnostics where the linker's own analyses ended.
        linker.run(OpeningStockAnalysis())
        #expect(linker.diagnostics.map(\.spot) == [
            Spot(.unknownFruit, "book.yaml", 10, 15), Spot(.unknownFruit, "book.yaml", 12, 15),
            Spot(.unknownFruit, "book.yaml", 4, 3), Spot(.recipeCycle, "book.yaml", 7, 13),
            Spot(.neverMakeable, "book.yaml", 9, 3), Spot(.missingStock, "book.yaml", 2, 3),
        ])
        #expect(linker.diagnostics.first?.help == "did you mean 'mango'?")
        #expect(linker.unknownNames.isEmpty)
    }
}
