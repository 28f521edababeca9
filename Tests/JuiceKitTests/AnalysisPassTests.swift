import Testing
@testable import JuiceSource
@testable import JuiceDiagnostics
@testable import JuiceBook
@testable import JuiceEngine

/// The opening-stock and cost rules are the engine's pass after linking
/// (`BookAnalysisPass`, `OpeningStockAnalysis`). Without it they are not
/// judged, and the coverage says so, so that a suppression of theirs is not
/// called stale; with it they are judged and counted as looked at.
@Suite struct AnalysisPassTests {
    static let book = SourceFile(path: "book.yaml", bytes: Array("""
        fruits:
          mango: { cost: 5 }
          kiwi:
        stock:
          mango: 1
        menu:
          juice:
            price: 3
            recipe: { mango: 2 }
        """.utf8))

    @Test func withoutThePassItsRulesAreNotJudged() {
        let bare = RecipeCompiler.snapshot([Self.book], stock: nil, analysis: true, book: false)
        let judged = RecipeCompiler.snapshot([Self.book], stock: nil, analysis: true, pass: OpeningStockAnalysis(), book: false)
        #expect(bare.diagnostics.map(\.rule) == [.unusedFruit])
        let expected = [
            Spot(.unusedFruit, "book.yaml", 3, 3), Spot(.missingStock, "book.yaml", 3, 3),
            Spot(.neverMakeable, "book.yaml", 7, 3), Spot(.priceBelowCost, "book.yaml", 7, 3),
        ]
        #expect(judged.diagnostics.map(\.spot.description).sorted() == expected.map(\.description).sorted())
        for rule in LinkFacts.passRules {
            #expect(!bare.coverage.checked(rule, in: "book.yaml"), "\(rule.id)")
            #expect(judged.coverage.checked(rule, in: "book.yaml"), "\(rule.id)")
        }
    }

    /// `never-makeable` asks the substitutes rule: an item whose short fruit
    /// the substitutes cover from the opening stock can be made.
    @Test(arguments: [(2, false), (1, true)])
    func neverMakeableCountsSubstitutes(puree: Int, reported: Bool) {
        let book = SourceFile(path: "book.yaml", bytes: Array("""
            version: 2
            fruits:
              mango: { substitutes: { mango-puree: 2 } }
              mango-puree:
            stock: { mango: 1, mango-puree: \(puree) }
            menu:
              juice: { recipe: { mango: 2 } }
            """.utf8))
        let judged = RecipeCompiler.snapshot([book], stock: nil, analysis: true, pass: OpeningStockAnalysis(), book: false)
        let spots = judged.diagnostics.filter { $0.rule == .neverMakeable }.map(\.spot.description)
        #expect(spots == (reported ? [Spot(.neverMakeable, "book.yaml", 7, 3).description] : []))
        #expect(judged.coverage.checked(.neverMakeable, in: "book.yaml"))
    }
}
