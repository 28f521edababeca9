import Testing
@testable import JuiceSource
@testable import JuiceDiagnostics
@_spi(Internals) @testable import JuiceYAML
@testable import JuiceBook
@testable import JuiceEngine

/// Every problem at once: the body of a duplicate is checked as if it stood
/// alone, merge keys are YAML 1.1's, a problem with an alias is placed at the
/// alias, and a problem that hides something does not also report it missing.
@Suite struct EveryProblemTests {
    /// Compiles several inline files as one book, with the lint analyses.
    private func compile(_ files: (String, String)..., analysis: Bool = true) -> Compilation {
        RecipeCompiler.compile(files.map { SourceFile(path: $0.0, bytes: Array($0.1.utf8)) }, analysis: analysis, pass: OpeningStockAnalysis())
    }

    private func diagnostic(_ compilation: Compilation, _ spot: Spot, sourceLocation: SourceLocation = #_sourceLocation) throws -> Diagnostic {
        try #require(compilation.diagnostics.first { $0.spot == spot }, "no \(spot) in \(compilation.spots)", sourceLocation: sourceLocation)
    }

    private static let shop = """
        fruits:
          mango:
          kiwi:
        stock: { mango: 3, kiwi: 2 }
        menu:
          mk: { recipe: { mango: 1 } }

        """

    // MARK: Duplicates are checked

    @Test func duplicateDefinitionBodyIsCheckedForNamesAndAmounts() throws {
        let compilation = compile(("a.yaml", Self.shop), ("b.yaml", """
            menu:
              mk: { recipe: { mangoo: 1, kiwi: 0 } }
            """))
        #expect(compilation.book == nil)
        #expect(compilation.spots == [
            Spot(.duplicateDefinition, "b.yaml", 2, 3),
            Spot(.unknownFruit, "b.yaml", 2, 19),
            Spot(.zeroAmount, "b.yaml", 2, 36),
        ])
        let note = NoteSpot("b.yaml", 2, 3, "'mk' here duplicates the definition at a.yaml:6:3; it is checked, but left out of the book")
        #expect(try diagnostic(compilation, Spot(.unknownFruit, "b.yaml", 2, 19)).noteSpots == [note])
        #expect(try diagnostic(compilation, Spot(.zeroAmount, "b.yaml", 2, 36)).noteSpots == [note])
    }

    @Test func repeatedStockEntryAmountIsChecked() throws {
        let compilation = compile(("a.yaml", Self.shop), ("b.yaml", """
            stock:
              mango: -1
            """))
        #expect(compilation.spots == [Spot(.duplicateDefinition, "b.yaml", 2, 3), Spot(.negativeAmount, "b.yaml", 2, 10)])
        #expect(try diagnostic(compilation, Spot(.negativeAmount, "b.yaml", 2, 10)).noteSpots == [
            NoteSpot("b.yaml", 2, 3, "stock for 'mango' here repeats the entry at a.yaml:4:10; it is checked, but left out of the book"),
        ])
    }

    @Test func repeatedKeyValueIsCheckedButLeftOut() throws {
        let compilation = compile(("a.yaml", """
            fruits: { mango: , kiwi: }
            stock: { mango: 3, kiwi: 2 }
            recipes:
              c: {mango: 1}
              c: { nothing: 2 }
            menu:
              m: { recipe: { c: 1, kiwi: 1, kiwi: x } }
            """))
        #expect(compilation.book == nil)
        #expect(compilation.spots == [
            Spot(.duplicateKey, "a.yaml", 5, 3),
            Spot(.unknownFruit, "a.yaml", 5, 8),
            Spot(.duplicateKey, "a.yaml", 7, 33),
            Spot(.invalidAmount, "a.yaml", 7, 39),
        ])
        #expect(try diagnostic(compilation, Spot(.unknownFruit, "a.yaml", 5, 8)).noteSpots == [
            NoteSpot("a.yaml", 5, 3, "'c' here repeats the key at a.yaml:4:3; its value is checked, but left out of the book"),
        ])
        #expect(try diagnostic(compilation, Spot(.invalidAmount, "a.yaml", 7, 39)).noteSpots == [
            NoteSpot("a.yaml", 7, 33, "'kiwi' here repeats the key at a.yaml:7:24; its value is checked, but left out of the book"),
        ])
    }

    @Test func repeatedMenuFieldIsCheckedAndTheFirstStands() throws {
        let compilation = compile(("a.yaml", """
            fruits: { mango: }
            stock: { mango: 3 }
            menu:
              m:
                price: 5
                recipe: { mango: 1 }
                price: -2
                recipe: { papaya: 1 }
            """))
        #expect(compilation.spots == [
            Spot(.duplicateKey, "a.yaml", 7, 5),
            Spot(.negativeAmount, "a.yaml", 7, 12),
            Spot(.duplicateKey, "a.yaml", 8, 5),
            Spot(.unknownFruit, "a.yaml", 8, 15),
        ])
        #expect(try diagnostic(compilation, Spot(.unknownFruit, "a.yaml", 8, 15)).noteSpots == [
            NoteSpot("a.yaml", 8, 5, "'recipe' here repeats the key at a.yaml:6:5; its value is checked, but left out of the book"),
        ])
    }

    // MARK: Merge keys

    @Test func twoMergeKeysAreADuplicateKey() throws {
        let result = YAMLComposer.compose(bytes: Array("""
            a: &a { mango: 1 }
            b: &b { kiwi: 1 }
            c: { <<: *a, <<: *b }
            """.utf8), file: "inline.yaml")
        let repeated = try #require(result.diagnostics.first)
        #expect(result.diagnostics.count == 1)
        #expect(repeated.spot == Spot(.duplicateKey, "inline.yaml", 3, 14))
        #expect(repeated.message == "duplicate key '<<'")
        #expect(repeated.noteSpots == [NoteSpot("inline.yaml", 3, 6, "'<<' first appears here")])
        let document = try #require(result.documents.first)
        let root = try #require(document.root)
        let c = try #require(document.value("c", in: root))
        #expect(document.scalarPairs(of: c) == ["mango: 1"])
    }

    @Test func mergeTaggedKeyIsAMerge() throws {
        let result = YAMLComposer.compose(bytes: Array("""
            a: &a { mango: 1 }
            c:
              !!merge foo: *a
              kiwi: 2
            """.utf8), file: "inline.yaml")
        #expect(result.diagnostics.isEmpty)
        let document = try #require(result.documents.first)
        let root = try #require(document.root)
        let c = try #require(document.value("c", in: root))
        #expect(document.scalarPairs(of: c) == ["kiwi: 2", "mango: 1"])
    }

    @Test func mergeTaggedKeyAfterAMergeKeyIsADuplicate() throws {
        let result = YAMLComposer.compose(bytes: Array("""
            a: &a { mango: 1 }
            c: { <<: *a, !!merge foo: *a }
            """.utf8), file: "inline.yaml")
        #expect(result.diagnostics.map(\.spot) == [Spot(.duplicateKey, "inline.yaml", 2, 14)])
        #expect(result.diagnostics.first?.message == "duplicate merge key 'foo'")
        #expect(result.diagnostics.first?.noteSpots == [NoteSpot("inline.yaml", 2, 6, "the first merge key, '<<', is here")])
    }

    // MARK: Aliases

    @Test func problemWithAnAliasedNodeIsAtTheAlias() throws {
        let compilation = compile(("a.yaml", """
            fruits: { mango: , kiwi: }
            stock: { mango: 3, kiwi: 2 }
            recipes:
              a: &a { mango: 1 }
            menu:
              m:
                recipe: { kiwi: *a, a: 1 }
            """))
        let problem = try compilation.single()
        #expect(problem.spot == Spot(.invalidType, "a.yaml", 7, 21))
        #expect(problem.range.end == at(7, 23))
        #expect(problem.noteSpots == [NoteSpot("a.yaml", 4, 6, "the alias stands for the node anchored here")])
    }

    // MARK: Follow-on diagnostics

    private static let fruitsOnly = """
        fruits: { mango: , kiwi: }
        menu:
          m: { recipe: { mango: 2, kiwi: 1 } }

        """

    @Test func stockLineWithoutColonHidesNoStock() throws {
        let compilation = compile(("a.yaml", Self.fruitsOnly), ("b.yaml", """
            stock:
              kiwi: 3
              mango 10
            """))
        #expect(compilation.spots == [Spot(.yamlSyntax, "b.yaml", 4, 1)])
    }

    @Test func stockOfTheWrongShapeHidesNoStock() throws {
        let compilation = compile(("a.yaml", Self.fruitsOnly), ("b.yaml", """
            stock:
              mango 10
            """))
        #expect(compilation.spots == [Spot(.invalidType, "b.yaml", 2, 3)])
    }

    @Test func unreadableStockAmountIsNotShort() throws {
        let compilation = compile(("a.yaml", Self.fruitsOnly + "stock: { mango: ten, kiwi: 0 }\n"))
        // kiwi's stock is known to be 0: that is still short.
        #expect(compilation.spots == [Spot(.neverMakeable, "a.yaml", 3, 3), Spot(.invalidAmount, "a.yaml", 4, 17)])
        #expect(try diagnostic(compilation, Spot(.neverMakeable, "a.yaml", 3, 3)).message
            == "menu item 'm' needs 1 'kiwi' (stock 0), more than the opening stock holds")
    }

    @Test func documentDroppedByAnUndefinedAliasStillDeclares() throws {
        let compilation = compile(("a.yaml", """
            fruits: { mango: }
            stock: { mango: 3, kiwi: 1 }
            menu:
              m: { recipe: { mango: 2, kiwi: 1 } }
            ---
            fruits: { kiwi: { label: *nope } }
            stock: { lime: 1 }
            """))
        #expect(compilation.book == nil)
        #expect(compilation.spots == [Spot(.yamlSyntax, "a.yaml", 6, 26)])
    }

    @Test func namesUnderARepeatedSectionAreNotUnknown() throws {
        let compilation = compile(("a.yaml", """
            fruits: { mango: }
            stock: { mango: 3 }
            fruits: { kiwi: }
            menu:
              m: { recipe: { mango: 2, kiwi: 1 } }
            """))
        #expect(compilation.spots == [Spot(.duplicateKey, "a.yaml", 3, 1)])
    }
}
