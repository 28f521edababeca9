import Foundation
import Testing
@testable import JuiceSource
@testable import JuiceDiagnostics
@testable import JuiceBook
@testable import JuiceLint

/// Every rule's documentation holds up in the real linter: the wrong example
/// shows its rule, the fixed one does not. Examples go through `Linter.check`,
/// so the analyses and suppression comments count, exactly as a user's
/// single recipe file would.
@Suite struct RuleDocumentationTests {
    static func lint(_ text: String) -> [Diagnostic] {
        Linter.check([SourceFile(path: "example.yaml", bytes: Array(text.utf8))], configuration: LintConfiguration())
    }

    /// The rules of the errors and warnings, leaving out infos.
    static func loudRules(_ diagnostics: [Diagnostic]) -> Set<Rule> {
        Set(diagnostics.filter { $0.severity != .info }.map(\.rule))
    }

    @Test(arguments: Rule.allCases)
    func wrongExampleTriggersItsRuleAndNoOther(_ rule: Rule) {
        let diagnostics = Self.lint(rule.wrongExample)
        #expect(diagnostics.contains { $0.rule == rule }, "\(diagnostics.map { Spot($0) })")
        // An info rule's example may show no loud rule at all; any other shows only its own.
        let expected: Set<Rule> = rule.defaultSeverity == .info ? [] : [rule]
        #expect(Self.loudRules(diagnostics) == expected, "\(diagnostics.map { Spot($0) })")
    }

    @Test(arguments: Rule.allCases)
    func fixedExampleHasNoErrorsOrWarnings(_ rule: Rule) {
        let diagnostics = Self.lint(rule.fixedExample)
        #expect(!diagnostics.contains { $0.rule == rule }, "\(diagnostics.map { Spot($0) })")
        #expect(Self.loudRules(diagnostics).isEmpty, "\(diagnostics.map { Spot($0) })")
        let compilation = RecipeCompiler.compile([SourceFile(path: "example.yaml", bytes: Array(rule.fixedExample.utf8))])
        #expect(compilation.book != nil)
    }

    /// The registry maps each case to its own descriptor, not a neighbour's.
    @Test(arguments: Rule.allCases)
    func eachRuleHasItsOwnDescriptor(_ rule: Rule) {
        #expect(rule.descriptor.rule == rule)
        #expect(Rule.allCases.filter { $0.descriptor.summary == rule.summary } == [rule])
    }

    @Test(arguments: Rule.allCases)
    func everyRuleIsDocumented(_ rule: Rule) {
        #expect(!rule.fullDescription.isEmpty)
        #expect(!rule.helpText.isEmpty)
        #expect(!rule.wrongExample.isEmpty)
        #expect(!rule.fixedExample.isEmpty)
        #expect(rule.fullDescription != rule.summary)
        #expect(rule.helpText != rule.summary)
        #expect(rule.wrongExample != rule.fixedExample)
        #expect(rule.wrongExample.hasSuffix("\n") && rule.fixedExample.hasSuffix("\n"))
    }

    @Test(arguments: Rule.allCases)
    func explanationFitsEightyColumnsWithoutTrailingSpace(_ rule: Rule) {
        for line in rule.explanation.split(separator: "\n", omittingEmptySubsequences: false) {
            #expect(line.count <= 80, "\(rule.id): \(line)")
            #expect(line.last != " ", "\(rule.id): '\(line)'")
        }
    }

    @Test func explanationLayout() {
        #expect(Rule.zeroAmount.explanation == """
            zero-amount (error)

            A recipe amount says how many of an ingredient one batch or order takes, so it
            is at least 1. An amount of 0 contributes nothing, which usually means a
            placeholder that was never filled in or an ingredient that was meant to be
            removed. Stock and price may be 0; a recipe amount may not.

            Wrong:

                fruits:
                  mango:
                  kiwi:
                stock:
                  mango: 10
                  kiwi: 10
                menu:
                  mango-kiwi-juice:
                    recipe: { mango: 2, kiwi: 0 }

            Fixed:

                fruits:
                  mango:
                  kiwi:
                stock:
                  mango: 10
                  kiwi: 10
                menu:
                  mango-kiwi-juice:
                    recipe: { mango: 2, kiwi: 1 }

            Help: Use an amount of at least 1, or remove the ingredient.
            """)
    }

    /// docs/recipes.md lists every rule in one of its two tables, the error
    /// rules in the first (errors only), the others in the second.
    @Test(arguments: Rule.allCases)
    func everyRuleIsInTheLanguageReference(_ rule: Rule) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let reference = try String(contentsOf: root.appendingPathComponent("docs/recipes.md"), encoding: .utf8)
        let rows = reference.split(separator: "\n").filter { $0.hasPrefix("| `\(rule.id)` |") }
        #expect(rows.count == 1, "\(rule.id): \(rows)")
        let row = try #require(rows.first)
        if rule.defaultSeverity == .error {
            #expect(!row.contains("| warning |") && !row.contains("| info |"), "\(row)")
        } else {
            #expect(row.hasPrefix("| `\(rule.id)` | \(rule.defaultSeverity.rawValue) |"), "\(row)")
        }
    }

    @Test func explanationNamesTheDefaultSeverity() {
        #expect(Rule.unusedFruit.explanation.hasPrefix("unused-fruit (warning)\n\n"))
        #expect(Rule.missingStock.explanation.hasPrefix("missing-stock (info)\n\n"))
    }
}
