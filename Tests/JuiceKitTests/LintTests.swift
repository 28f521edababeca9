import Testing
@testable import JuiceSource
@testable import JuiceDiagnostics
@testable import JuiceBook
@testable import JuiceLint
@testable import JuiceEngine

/// The lint-only stages: analyses, rule levels and suppression comments.
@Suite struct AnalysisTests {
    @Test func analysesAreOnlyRunWhenAsked() throws {
        let plain = try Fixture.compile("lint/analysis.yaml")
        #expect(plain.diagnostics.isEmpty, "\(plain.spots)")
        #expect(plain.book != nil)
    }

    @Test func unusedFruitUnusedRecipeNeverMakeableMissingStock() throws {
        let file = Fixture.path("lint/analysis.yaml")
        let compilation = RecipeCompiler.compile([try Fixture.source("lint/analysis.yaml")], analysis: true, pass: OpeningStockAnalysis())
        #expect(compilation.spots == [
            Spot(.missingStock, file, 4, 3),
            Spot(.unusedFruit, file, 5, 3),
            Spot(.unusedRecipe, file, 12, 3),
            Spot(.neverMakeable, file, 14, 3),
        ])
        #expect(compilation.diagnostics.map(\.severity) == [.info, .warning, .warning, .info])
        #expect(compilation.diagnostics.map(\.message) == [
            "fruit 'lime' has no stock entry, so it starts at 0",
            "fruit 'plum' is not used by any menu item",
            "recipe 'spare' is not used by any menu item",
            // smoothie = 3 × (mango 1, lime 1) + kiwi 1: mango 3 > 2, lime 3 > 0; kiwi 1 <= 5.
            "menu item 'smoothie' needs 3 'mango' (stock 2), 3 'lime' (stock 0), more than the opening stock holds",
        ])
        // Warnings and infos never make the book invalid.
        #expect(compilation.book != nil)
    }

    @Test func aFruitUsedOnlyThroughAnUnusedRecipeIsUnused() {
        let compilation = RecipeCompiler.compile([SourceFile(path: "x.yaml", bytes: Array("""
            fruits: { mango: , kiwi: }
            stock: { mango: 1, kiwi: 1 }
            recipes:
              orphan: { kiwi: 1 }
            menu:
              juice: { recipe: { mango: 1 } }
            """.utf8))], analysis: true, pass: OpeningStockAnalysis())
        #expect(compilation.spots == [Spot(.unusedFruit, "x.yaml", 1, 20), Spot(.unusedRecipe, "x.yaml", 4, 3)])
    }

    @Test func canonicalBookHasOnlyTheIntendedInfo() throws {
        let files = try RecipeSources.load(paths: [Fixture.directory.appendingPathComponent("../../../recipes").path])
        let compilation = RecipeCompiler.compile(files, analysis: true, pass: OpeningStockAnalysis())
        #expect(compilation.diagnostics.map(\.rule) == [.neverMakeable])
        #expect(compilation.diagnostics.first?.message
            == "menu item 'strawberry-juice' needs 16 'strawberry' (stock 10), more than the opening stock holds")
    }
}

@Suite struct SuppressionTests {
    private func check(_ configuration: LintConfiguration = LintConfiguration()) throws -> [Diagnostic] {
        Linter.check([try Fixture.source("lint/suppressed.yaml")], configuration: configuration)
    }

    @Test func scanFindsEveryForm() throws {
        let suppressions = Suppression.scan(try Fixture.source("lint/suppressed.yaml"))
        #expect(suppressions.map(\.scope) == [.file, .line(4), .line(6), .line(10), .line(13), .line(15), .line(15), .line(16)])
        #expect(suppressions[2].entries.map(\.name) == ["unused-fruit", "never-makeable"])
        #expect(suppressions[2].entries.map(\.range.start) == [SourcePosition(line: 5, column: 34), SourcePosition(line: 5, column: 48)])
        #expect(suppressions[6].unknownDirective == "disable-lines")
    }

    @Test func suppressedDiagnosticsAreGoneAndUnusedOnesReported() throws {
        let file = Fixture.path("lint/suppressed.yaml")
        let diagnostics = try check()
        // Suppressed: missing-stock for kiwi and lime (file), unused-fruit for kiwi (line 4)
        // and lime (line 6), never-makeable for juice (line 10). Left: smoothie's
        // never-makeable (mango 3 > 1; line 16's comment names no rule), and every
        // suppression entry that matched nothing.
        #expect(diagnostics.map { Spot($0) } == [
            Spot(.unusedSuppression, file, 5, 48),
            Spot(.unusedSuppression, file, 12, 34),
            Spot(.unusedSuppression, file, 14, 34),
            Spot(.unusedSuppression, file, 15, 16),
            Spot(.unusedSuppression, file, 16, 16),
            Spot(.neverMakeable, file, 17, 3),
        ])
        #expect(diagnostics.map(\.message) == [
            "suppression of 'never-makeable' suppressed nothing",
            "'zero-amount' is an error and cannot be suppressed",
            "unknown rule 'unknwn-fruit' in suppression",
            "unknown suppression 'disable-lines'",
            "suppression names no rule",
            "menu item 'smoothie' needs 3 'mango' (stock 1), more than the opening stock holds",
        ])
        #expect(diagnostics[2].help == "did you mean 'unknown-fruit'?")
        #expect(diagnostics[3].help == "did you mean 'disable-line'?")
        #expect(diagnostics.filter { $0.rule == .unusedSuppression }.allSatisfy { $0.severity == .warning })
    }

    @Test func aSuppressionOfARuleThatIsOffIsNotUnused() throws {
        let file = SourceFile(path: "x.yaml", bytes: Array("""
            fruits:
              mango:   # juice-lint disable-line missing-stock
            menu:
              juice: { recipe: { mango: 1 } }
            """.utf8))
        var configuration = LintConfiguration()
        try configuration.override("missing-stock=off")
        try configuration.override("never-makeable=off")
        #expect(Linter.check([file], configuration: configuration).isEmpty)
    }

    @Test func unusedSuppressionCanItselfBeSilenced() throws {
        let silenced = SourceFile(path: "x.yaml", bytes: Array("""
            # juice-lint disable-file unused-suppression
            fruits:
              mango:   # juice-lint disable-line unused-fruit
            stock: { mango: 1 }
            menu:
              juice: { recipe: { mango: 1 } }
            """.utf8))
        #expect(Linter.check([silenced], configuration: LintConfiguration()).isEmpty)
        let pointless = SourceFile(path: "y.yaml", bytes: Array("""
            # juice-lint disable-file unused-suppression
            fruits: { mango: }
            stock: { mango: 1 }
            menu:
              juice: { recipe: { mango: 1 } }
            """.utf8))
        let diagnostics = Linter.check([pointless], configuration: LintConfiguration())
        #expect(diagnostics.map { Spot($0) } == [Spot(.unusedSuppression, "y.yaml", 1, 27)])
        #expect(diagnostics.first?.message == "suppression of 'unused-suppression' suppressed nothing")
    }

    @Test func unusedSuppressionFollowsTheConfiguredLevel() throws {
        var configuration = LintConfiguration()
        try configuration.override("unused-suppression=off")
        #expect(try check(configuration).map(\.rule) == [.neverMakeable])
        #expect(try check(configuration).first?.line == 17)
    }
}

@Suite struct ConfigurationTests {
    @Test func fileSetsLevelsAndRuleOverridesWin() throws {
        var configuration = try LintConfiguration.parse(Array("""
            rules:
              unused-fruit: error
              missing-stock: off
              never-makeable: warning
            """.utf8), path: ".juice-lint.yaml")
        #expect(configuration.level(of: .unusedFruit) == .error)
        #expect(configuration.level(of: .missingStock) == .off)
        #expect(configuration.level(of: .unknownFruit) == .error)
        #expect(configuration.level(of: .unusedRecipe) == .warning)
        try configuration.override("never-makeable=info")
        #expect(configuration.level(of: .neverMakeable) == .info)
    }

    @Test func applyChangesSeveritiesAndDropsRulesThatAreOff() throws {
        let files = [try Fixture.source("lint/analysis.yaml")]
        var configuration = LintConfiguration()
        try configuration.override("missing-stock=off")
        try configuration.override("unused-fruit=error")
        let diagnostics = Linter.check(files, configuration: configuration)
        #expect(diagnostics.map(\.rule) == [.unusedFruit, .unusedRecipe, .neverMakeable])
        #expect(diagnostics.map(\.severity) == [.error, .warning, .info])
    }

    @Test func emptyConfigurationIsFine() throws {
        #expect(try LintConfiguration.parse([], path: "c.yaml") == LintConfiguration())
        #expect(try LintConfiguration.parse(Array("rules:\n".utf8), path: "c.yaml") == LintConfiguration())
    }

    @Test(arguments: [
        ("rules:\n  unknwn-fruit: off\n", "c.yaml:2:3: unknown rule 'unknwn-fruit'\n  help: did you mean 'unknown-fruit'?"),
        ("rules:\n  unused-fruit: loud\n", "c.yaml:2:17: unknown level 'loud' for rule 'unused-fruit'\n  help: use one of 'off', 'info', 'warning', 'error'"),
        ("rule:\n  unused-fruit: off\n", "c.yaml:1:1: unknown key 'rule'; the configuration has only 'rules'"),
        ("rules: [unused-fruit]\n", "c.yaml:1:8: 'rules' must be a mapping of RULE: off|info|warning|error"),
        ("- rules\n", "c.yaml:1:1: the configuration must be a mapping with the key 'rules'"),
        ("rules: {a: [\n", "c.yaml:2:1: did not find expected node content"),
    ])
    func malformedConfigurationIsAUsageError(text: String, message: String) {
        #expect(throws: ConfigurationError.self) { try LintConfiguration.parse(Array(text.utf8), path: "c.yaml") }
        do {
            _ = try LintConfiguration.parse(Array(text.utf8), path: "c.yaml")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test(arguments: [
        ("unused-fruit", "--rule 'unused-fruit' is not RULE=LEVEL\n  help: for example --rule unused-fruit=error"),
        ("nope=off", "--rule: unknown rule 'nope'\n  help: run 'juice-lint rules' to list them"),
        ("unused-fruit=loud", "--rule: unknown level 'loud' for rule 'unused-fruit'\n  help: use one of 'off', 'info', 'warning', 'error'"),
    ])
    func malformedRuleOverride(assignment: String, message: String) {
        var configuration = LintConfiguration()
        do {
            try configuration.override(assignment)
            Issue.record("expected '\(assignment)' to be rejected")
        } catch {
            #expect(error.description == message)
        }
    }
}
