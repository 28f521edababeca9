import Testing
@testable import JuiceSource
@testable import JuiceDiagnostics
@testable import JuiceBook
@testable import JuiceEngine

/// A rule that is off is not checked at all (`RecipeWorkspace.rulesOff`),
/// rather than checked and dropped: held equal, over seeded books with
/// faults and suppression comments, to a link that runs every check and
/// lets `LintConfiguration.finish` drop the rule.
@Suite struct RulesOffTests {
    static let analysisRules: [Rule] = [.unusedFruit, .unusedRecipe, .neverMakeable, .missingStock]

    @Test func skippingAnOffRuleEqualsDroppingIt() throws {
        #expect(LintConfiguration().rulesOff.isEmpty)
        let offSets = Self.analysisRules.map { [$0] } + [[.unusedFruit, .missingStock], Self.analysisRules]
        var compared = 0, skipped = 0
        for seed in 1...UInt64(150) {
            var sequence = EditSequence(seed: seed)
            var workspace = RecipeWorkspace(analysis: true, pass: OpeningStockAnalysis(), book: true)
            for _ in 0..<EditSequence.length { _ = sequence.edit(&workspace) }
            let full = sequence.batch()
            for off in offSets {
                var configuration = LintConfiguration()
                for rule in off { try configuration.override("\(rule.id)=off") }
                #expect(configuration.rulesOff == Set(off))
                let files = sequence.paths.map { SourceFile(path: $0, bytes: sequence.files[$0] ?? []) }
                let lean = RecipeCompiler.snapshot(
                    files, stock: sequence.stock, analysis: true, rulesOff: configuration.rulesOff, pass: OpeningStockAnalysis(), book: true
                )
                // The off rules' checks did not run...
                #expect(!lean.diagnostics.contains { off.contains($0.rule) }, "seed \(seed), off \(off)")
                skipped += full.diagnostics.count { off.contains($0.rule) }
                // ...and the report is the same as when they ran and were dropped.
                #expect(
                    configuration.finish(lean) == configuration.finish(full),
                    "seed \(seed), off \(off)"
                )
                compared += 1
            }
        }
        #expect(compared == 150 * 6)
        // The books do yield the rules that get turned off.
        #expect(skipped > 500)
    }
}
