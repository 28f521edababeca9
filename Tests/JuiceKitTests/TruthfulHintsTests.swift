import Testing
@testable import JuiceSource
@testable import JuiceDiagnostics
@testable import JuiceBook
@testable import JuiceLint
@testable import JuiceEngine

/// Issue 11, section 4: warnings and help that tell the truth. Each test
/// pins a report that used to give false advice.
@Suite struct StaleSuppressionTests {
    /// A book where durian is truly unused and silenced, plus one switch:
    /// `broken` adds an unknown fruit, an error unrelated to durian.
    private func book(broken: Bool, durianUsed: Bool = false) -> SourceFile {
        SourceFile(path: "book.yaml", bytes: Array("""
            fruits:
              mango:
              durian: # juice-lint disable-line unused-fruit
            stock: { mango: 5, durian: 1 }
            menu:
              juice: { recipe: { mango: 1\(broken ? ", mangoo: 1" : "")\(durianUsed ? ", durian: 1" : "") } }

            """.utf8))
    }

    @Test func aSuppressionOfASkippedCheckIsNotCalledStale() {
        let diagnostics = Linter.check([book(broken: true)], configuration: LintConfiguration())
        // Only the error: the unused checks did not run, so the comment is not judged.
        #expect(diagnostics.map(\.spot) == [Spot(.unknownFruit, "book.yaml", 6, 32)])
    }

    @Test func theSuppressionIsNeededOnceTheErrorIsFixed() {
        #expect(Linter.check([book(broken: false)], configuration: LintConfiguration()).isEmpty)
    }

    @Test func aTrulyStaleSuppressionIsStillReportedWhenItsRuleRan() throws {
        let diagnostics = Linter.check([book(broken: false, durianUsed: true)], configuration: LintConfiguration())
        #expect(diagnostics.map(\.spot) == [Spot(.unusedSuppression, "book.yaml", 3, 37)])
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic.message == "suppression of 'unused-fruit' suppressed nothing")
        #expect(diagnostic.help == "remove it; nothing here reports 'unused-fruit' any more")
    }

    @Test func eachRuleOfOneCommentIsJudgedOnlyIfItRan() throws {
        // missing-stock ran (it does whatever the errors) and found nothing on
        // this line; unused-fruit did not run, because of the unknown fruit.
        let file = SourceFile(path: "book.yaml", bytes: Array("""
            fruits:
              mango:
              durian: # juice-lint disable-line unused-fruit,missing-stock
            stock: { mango: 5, durian: 1 }
            menu:
              juice: { recipe: { mango: 1, mangoo: 1 } }

            """.utf8))
        let diagnostics = Linter.check([file], configuration: LintConfiguration())
        #expect(diagnostics.map(\.spot) == [
            Spot(.unusedSuppression, "book.yaml", 3, 50),
            Spot(.unknownFruit, "book.yaml", 6, 32),
        ])
        #expect(diagnostics.first?.message == "suppression of 'missing-stock' suppressed nothing")
    }

    @Test func unusedSuppressionIsNotJudgedWhereItMayYetBeNeeded() {
        // Once the error is fixed the unused-fruit entry might be unused, and
        // then the unused-suppression entry silences that report.
        let file = SourceFile(path: "book.yaml", bytes: Array("""
            fruits:
              mango:
              durian: # juice-lint disable-line unused-fruit,unused-suppression
            stock: { mango: 5, durian: 1 }
            menu:
              juice: { recipe: { mango: 1, mangoo: 1, durian: 1 } }

            """.utf8))
        let diagnostics = Linter.check([file], configuration: LintConfiguration())
        #expect(diagnostics.map(\.spot) == [Spot(.unknownFruit, "book.yaml", 6, 32)])
    }

    @Test func theCompilationSaysWhichChecksSkippedPartOfTheBook() {
        let broken = RecipeCompiler.compile([book(broken: true)], analysis: true, pass: OpeningStockAnalysis())
        #expect(!broken.coverage.checked(.unusedFruit, in: "book.yaml"))
        #expect(!broken.coverage.checked(.unusedRecipe, in: "book.yaml"))
        #expect(broken.coverage.checked(.missingStock, in: "book.yaml"))
        #expect(broken.coverage.checked(.neverMakeable, in: "book.yaml"))
        let clean = RecipeCompiler.compile([book(broken: false)], analysis: true, pass: OpeningStockAnalysis())
        #expect(clean.coverage.checked(.unusedFruit, in: "book.yaml"))
    }

    @Test func neverMakeableIsNotJudgedWhenAMenuItemsNeedsAreUnknown() {
        // The cycle leaves 'loop' without a need, so never-makeable did not
        // look at it, and its suppression may yet be needed.
        let file = SourceFile(path: "book.yaml", bytes: Array("""
            fruits: { mango: }
            stock: { mango: 1 }
            recipes:
              a: { b: 1 }
              b: { a: 1 }
            menu:
              loop: { recipe: { a: 1, mango: 2 } } # juice-lint disable-line never-makeable

            """.utf8))
        let diagnostics = Linter.check([file], configuration: LintConfiguration())
        #expect(!diagnostics.contains { $0.rule == .unusedSuppression }, "\(diagnostics.map(\.spot))")
    }
}

@Suite struct StockFileHintTests {
    private static let book = SourceFile(path: "recipes/book.yaml", bytes: Array("""
        fruits:
          mango:
          kiwi:
          lime:
        stock: { mango: 5, kiwi: 5, lime: 5 }
        menu:
          juice: { recipe: { mango: 2, kiwi: 1, lime: 1 } }

        """.utf8))

    private func check(stock text: String) -> [Diagnostic] {
        Linter.check(
            [Self.book], stock: SourceFile(path: "day.yaml", bytes: Array(text.utf8)), configuration: LintConfiguration()
        )
    }

    @Test func aFruitTheStockFileLacksIsReportedInTheStockFile() throws {
        let diagnostics = check(stock: "version: 1\nstock:\n  mango: 1\n")
        let missing = diagnostics.filter { $0.rule == .missingStock }
        #expect(missing.map(\.spot) == [Spot(.missingStock, "day.yaml", 2, 1), Spot(.missingStock, "day.yaml", 2, 1)])
        #expect(missing.map(\.message) == [
            "stock file 'day.yaml' has no entry for fruit 'kiwi', so it starts at 0",
            "stock file 'day.yaml' has no entry for fruit 'lime', so it starts at 0",
        ])
        #expect(missing.map(\.help) == [
            "add 'kiwi: 0' under 'stock:' in 'day.yaml' to say so explicitly",
            "add 'lime: 0' under 'stock:' in 'day.yaml' to say so explicitly",
        ])
        #expect(missing.first?.noteSpots == [NoteSpot("recipes/book.yaml", 3, 3, "'kiwi' is declared here")])
        #expect(missing.first?.range.end == at(2, 6))
    }

    @Test func aStockFileWithNoStockSectionIsPointedAtItsStart() throws {
        let diagnostics = check(stock: "version: 1\n")
        let missing = diagnostics.filter { $0.rule == .missingStock }
        #expect(missing.map(\.spot) == Array(repeating: Spot(.missingStock, "day.yaml", 1, 1), count: 3))
        #expect(missing.first?.message == "stock file 'day.yaml' has no entry for fruit 'kiwi', so it starts at 0")
        #expect(missing.first?.help == "add a 'stock:' section with 'kiwi: 0' to 'day.yaml' to say so explicitly")
    }

    @Test func neverMakeableNamesTheStockFile() throws {
        let diagnostics = check(stock: "stock:\n  mango: 1\n  kiwi: 5\n")
        let never = try #require(diagnostics.first { $0.rule == .neverMakeable })
        #expect(never.spot == Spot(.neverMakeable, "recipes/book.yaml", 7, 3))
        #expect(never.message
            == "menu item 'juice' needs 2 'mango' (stock 1), 1 'lime' (stock 0), more than the opening stock holds")
        #expect(never.noteSpots == [
            NoteSpot("day.yaml", 2, 3, "'mango' is stocked here"),
            NoteSpot("day.yaml", 1, 1, "'day.yaml' has no entry for 'lime'"),
        ])
        #expect(never.help
            == "it can be served only after a restock; raise the stock in 'day.yaml' or lower the recipe if that is not intended")
    }

    @Test func withoutAStockFileTheBookIsPointedAtAsBefore() throws {
        let book = SourceFile(path: "book.yaml", bytes: Array("fruits: { mango: }\nmenu:\n  juice: { recipe: { mango: 1 } }\n".utf8))
        let diagnostics = Linter.check([book], configuration: LintConfiguration())
        #expect(diagnostics.map(\.spot) == [Spot(.missingStock, "book.yaml", 1, 11), Spot(.neverMakeable, "book.yaml", 3, 3)])
        #expect(diagnostics.map(\.message) == [
            "fruit 'mango' has no stock entry, so it starts at 0",
            "menu item 'juice' needs 1 'mango' (stock 0), more than the opening stock holds",
        ])
        #expect(diagnostics.map(\.help) == [
            "add 'mango: 0' under 'stock:' to say so explicitly",
            "it can be served only after a restock; raise the stock or lower the recipe if that is not intended",
        ])
        #expect(diagnostics.map(\.notes.count) == [0, 0])
    }

    @Test func theBooksMissingStockSuppressionsAreNotJudgedUnderAStockFile() {
        // The book's stock does not count under --stock, so a comment there
        // that silences missing-stock is neither used nor stale.
        let book = SourceFile(path: "book.yaml", bytes: Array("""
            fruits:
              mango: # juice-lint disable-line missing-stock
            menu:
              juice: { recipe: { mango: 1 } }

            """.utf8))
        let diagnostics = Linter.check(
            [book], stock: SourceFile(path: "day.yaml", bytes: Array("stock: { mango: 3 }\n".utf8)),
            configuration: LintConfiguration()
        )
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.spot))")
    }
}

@Suite struct AmountHelpTests {
    private func diagnostic(_ yaml: String) throws -> Diagnostic {
        try compile(yaml: yaml).single()
    }

    @Test func aRecipeAmountOfDoubleZeroIsAZeroAmountWithHelpThatIsValid() throws {
        let found = try diagnostic("fruits: { mango: }\nstock: { mango: 1 }\nmenu:\n  juice: { recipe: { mango: 00 } }\n")
        #expect(found.spot == Spot(.zeroAmount, "inline.yaml", 4, 29))
        #expect(found.message == "amount of 'mango' in menu item 'juice' is '00', which is 0")
        // The same help as a plain 0 gets: following it gives a valid book.
        #expect(found.help == "use at least 1, or remove the ingredient")
    }

    @Test func aQuotedZeroInARecipeIsNotToldToBecomeZero() throws {
        let found = try diagnostic("fruits: { mango: }\nstock: { mango: 1 }\nmenu:\n  juice: { recipe: { mango: \"0\" } }\n")
        #expect(found.spot == Spot(.invalidAmount, "inline.yaml", 4, 29))
        #expect(found.message == "amount of 'mango' in menu item 'juice' is quoted text '0', not a number")
        #expect(found.help == "use at least 1, written without quotes, or remove the ingredient")
    }

    @Test func zeroStaysGoodAdviceForStockAndPrice() throws {
        let compilation = compile(yaml: "fruits: { mango: }\nstock: { mango: 00 }\nmenu:\n  juice: { price: \"0\", recipe: { mango: 1 } }\n")
        #expect(compilation.spots == [Spot(.invalidAmount, "inline.yaml", 2, 17), Spot(.invalidAmount, "inline.yaml", 4, 19)])
        #expect(compilation.diagnostics.map(\.help) == ["write 0", "remove the quotes: 0"])
    }

    @Test func aLeadingZeroBeforeAPositiveAmountStillSaysWhatToWrite() throws {
        let found = try diagnostic("fruits: { mango: }\nstock: { mango: 1 }\nmenu:\n  juice: { recipe: { mango: 007 } }\n")
        #expect(found.spot == Spot(.invalidAmount, "inline.yaml", 4, 29))
        #expect(found.help == "write 7")
    }

    @Test func aLeadingZeroBeforeATooLargeAmountIsNotToldToWriteIt() throws {
        let found = try diagnostic("fruits: { mango: }\nstock: { mango: 1 }\nmenu:\n  juice: { recipe: { mango: 099999999999999999999 } }\n")
        #expect(found.spot == Spot(.invalidAmount, "inline.yaml", 4, 29))
        #expect(found.message == "amount of 'mango' in menu item 'juice' is '099999999999999999999', which is too large")
        #expect(found.help == "the largest amount is 9223372036854775807")
    }
}

@Suite struct InvalidIDHelpTests {
    @Test func anEmptyIDGetsHelpAboutEmptyIDsAndNoStockAdvice() throws {
        let compilation = RecipeCompiler.compile([SourceFile(path: "x.yaml", bytes: Array("""
            fruits:
              mango:
              "":
            stock: { mango: 1 }
            menu:
              juice: { recipe: { mango: 1 } }

            """.utf8))], analysis: true, pass: OpeningStockAnalysis())
        // No missing-stock for '': "add ': 0' under 'stock:'" is no advice at all.
        #expect(compilation.spots == [Spot(.invalidName, "x.yaml", 3, 3)])
        #expect(compilation.diagnostics.first?.message == "an id cannot be empty")
        #expect(compilation.diagnostics.first?.help == "an id needs at least one character: give it a name such as 'mango', or remove it")
    }

    @Test func otherInvalidIDsGetHelpThatFitsAndNoStockAdvice() throws {
        let compilation = RecipeCompiler.compile([SourceFile(path: "x.yaml", bytes: Array("""
            fruits:
              mango:
              "a b":
              stock:
              "lime#2":
              ~:
              Mango:
            stock: { mango: 1, Mango: 1 }
            menu:
              juice: { recipe: { mango: 1, Mango: 1 } }
              odd: { recipe: { "a b": 1 } }

            """.utf8))], analysis: true, pass: OpeningStockAnalysis())
        // 'Mango' is a valid id (case matters), distinct from 'mango'. Nor
        // is 'odd' reported never-makeable for want of 'a b', a fruit to rename.
        #expect(compilation.spots == [
            Spot(.invalidName, "x.yaml", 3, 3),
            Spot(.invalidName, "x.yaml", 4, 3),
            Spot(.invalidName, "x.yaml", 5, 3),
            Spot(.invalidName, "x.yaml", 6, 3),
        ])
        #expect(compilation.diagnostics.map(\.help) == [
            "ids are single words such as 'mango' or 'mango-juice'",
            "choose another id",
            "ids are single words such as 'mango' or 'mango-juice'",
            "quote it, '~', if you mean it as a name",
        ])
    }

    @Test func stockAdviceStaysWhereAStockEntryIsMissing() {
        let compilation = RecipeCompiler.compile([SourceFile(path: "x.yaml", bytes: Array("""
            fruits: { mango: , kiwi: }
            stock: { mango: 1 }
            menu:
              juice: { recipe: { mango: 1, kiwi: 1 } }

            """.utf8))], analysis: true, pass: OpeningStockAnalysis())
        #expect(compilation.spots == [Spot(.missingStock, "x.yaml", 1, 20), Spot(.neverMakeable, "x.yaml", 4, 3)])
        #expect(compilation.diagnostics.first?.help == "add 'kiwi: 0' under 'stock:' to say so explicitly")
    }
}

@Suite struct ConfigurationLevelTests {
    private func error(_ text: String) -> ConfigurationError? {
        do {
            _ = try LintConfiguration.parse(Array(text.utf8), path: ".juice-lint.yaml")
            return nil
        } catch {
            return error
        }
    }

    @Test func aBadLevelIsPointedAtTheValueWithADidYouMean() {
        #expect(error("rules:\n  unused-fruit: warn\n") == ConfigurationError(
            ".juice-lint.yaml:2:17: unknown level 'warn' for rule 'unused-fruit'",
            help: "did you mean 'warning'? the levels are 'off', 'info', 'warning', 'error'"
        ))
    }

    @Test func aLevelFarFromAnyListsTheLevels() {
        #expect(error("rules:\n  missing-stock:   loud   # comment\n") == ConfigurationError(
            ".juice-lint.yaml:2:20: unknown level 'loud' for rule 'missing-stock'",
            help: "use one of 'off', 'info', 'warning', 'error'"
        ))
    }

    @Test func aLevelThatIsNotAScalarIsPointedAtToo() {
        #expect(error("rules:\n  unused-fruit: [error]\n") == ConfigurationError(
            ".juice-lint.yaml:2:17: each entry under 'rules' must be 'RULE: LEVEL'"
        ))
    }

    @Test func anUnknownRuleIsStillPointedAtTheKey() {
        #expect(error("rules:\n  unused-friut: error\n") == ConfigurationError(
            ".juice-lint.yaml:2:3: unknown rule 'unused-friut'", help: "did you mean 'unused-fruit'?"
        ))
    }
}
