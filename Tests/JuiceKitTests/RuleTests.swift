import Testing
@testable import JuiceDiagnostics
@testable import JuiceBook
@testable import JuiceEngine

/// One test per rule, each on a fixture in `Fixtures/`, asserting the rule, the
/// file, the line and column, and where they carry meaning the end, the notes and
/// the help.
@Suite struct RuleTests {
    @Test func cleanBookCompilesWithoutDiagnostics() throws {
        let compilation = try Fixture.compile("clean.yaml")
        #expect(compilation.diagnostics.isEmpty, "\(compilation.spots)")
        #expect(compilation.fileCount == 1)
        let book = try #require(compilation.book)
        #expect(book.fruits.map(\.id) == ["mango", "kiwi", "lime"])
        #expect(book.fruits.map(\.label) == ["Mango", "kiwi", "Lime"])
        #expect(book.fruits.map(\.emoji) == ["🥭", nil, nil])
        #expect(book.openingStock == [10, 0, 0])
        #expect(book.recipes.map(\.id) == ["base"])
        #expect(book.menu.map(\.id) == ["smoothie", "water"])
        #expect(book.menu.map(\.label) == ["Mango smoothie", "water"])
        #expect(book.menu.map(\.price) == [450, 0])
    }

    @Test func everyRuleHasAStableKebabCaseID() {
        #expect(Rule.allCases.map(\.id) == [
            "yaml-syntax", "resource-limit", "invalid-type", "unknown-key", "unsupported-version",
            "invalid-name", "duplicate-key", "duplicate-definition", "unknown-fruit", "zero-amount",
            "negative-amount", "invalid-amount", "empty-recipe", "recipe-cycle", "amount-overflow",
            "unused-fruit", "unused-recipe", "never-makeable", "missing-stock", "unused-suppression",
            "price-below-cost", "missing-cost", "below-above-up-to", "up-to-below-pack",
            "substitute-is-itself", "substitute-not-a-fruit", "cost-too-large",
        ])
        let warnings: Set<Rule> = [.unusedFruit, .unusedRecipe, .unusedSuppression, .priceBelowCost, .upToBelowPack, .costTooLarge]
        let infos: Set<Rule> = [.neverMakeable, .missingStock, .missingCost]
        for rule in Rule.allCases {
            let expected: Severity = warnings.contains(rule) ? .warning : infos.contains(rule) ? .info : .error
            #expect(rule.defaultSeverity == expected, "\(rule.id)")
        }
    }

    // MARK: yaml-syntax

    @Test func yamlSyntaxMappingValueInPlainScalar() throws {
        let file = Fixture.path("yaml-syntax-mapping-value.yaml")
        let compilation = try Fixture.compile("yaml-syntax-mapping-value.yaml")
        let diagnostic = try compilation.single()
        // `  mango: kiwi: 3`: the second ':' is column 14.
        #expect(diagnostic.spot == Spot(.yamlSyntax, file, 2, 14))
        #expect(diagnostic.message == "mapping values are not allowed in this context")
        #expect(diagnostic.severity == .error)
        #expect(compilation.book == nil)
    }

    @Test func yamlSyntaxUnclosedQuoteNotesWhereTheScalarStarts() throws {
        let file = Fixture.path("yaml-syntax-unclosed-quote.yaml")
        let compilation = try Fixture.compile("yaml-syntax-unclosed-quote.yaml")
        let diagnostic = try compilation.single()
        // The stream ends on line 5 (after the last newline); the quote opened at 4:12.
        #expect(diagnostic.spot == Spot(.yamlSyntax, file, 5, 1))
        #expect(diagnostic.message == "found unexpected end of stream")
        #expect(diagnostic.noteSpots == [NoteSpot(file, 4, 12, "while scanning a quoted scalar")])
        #expect(compilation.book == nil)
    }

    // MARK: resource-limit

    @Test func resourceLimitAliasBomb() throws {
        let file = Fixture.path("resource-limit-alias-bomb.yaml")
        let compilation = try Fixture.compile("resource-limit-alias-bomb.yaml")
        let diagnostic = try compilation.single()
        // Weights (nodes an alias stands for): a = 1 + 9 = 10, and each level is
        // 1 + 9 * the level above: b 91, c 820, d 7381, e 66430, f 597871.
        // Expanded by the end of line 7: 9 * (10 + 91 + 820 + 7381 + 66430) = 672588.
        // The first '*f' on line 8 adds 597871: 1270459 > 1000000, so it trips there.
        #expect(diagnostic.spot == Spot(.resourceLimit, file, 8, 8))
        #expect(diagnostic.range.end == at(8, 10))
        #expect(diagnostic.message == "aliases in this file expand to more than 1000000 nodes")
        #expect(diagnostic.help == "this looks like an alias bomb; expand fewer aliases")
        #expect(compilation.book == nil)
    }

    @Test func resourceLimitNestingDepth() throws {
        let file = Fixture.path("resource-limit-depth.yaml")
        let compilation = try Fixture.compile("resource-limit-depth.yaml")
        let diagnostic = try compilation.single()
        // `fruits: ` then 300 '['. The root mapping is level 1, so the 64th '['
        // (column 9 + 63 = 72) would be level 65.
        #expect(diagnostic.spot == Spot(.resourceLimit, file, 1, 72))
        #expect(diagnostic.message == "collections are nested more than 64 levels deep")
        #expect(compilation.book == nil)
    }

    // MARK: invalid-type

    @Test func invalidTypeSequenceWhereAMappingBelongs() throws {
        let file = Fixture.path("invalid-type-sequence.yaml")
        let compilation = try Fixture.compile("invalid-type-sequence.yaml")
        let diagnostic = try compilation.single()
        #expect(diagnostic.spot == Spot(.invalidType, file, 2, 3))
        // A block sequence ends just past its last item, 'kiwi' on line 3.
        #expect(diagnostic.range.end == at(3, 9))
        #expect(diagnostic.message == "'fruits' must be a mapping, found a sequence")
        #expect(diagnostic.help == "write each entry as 'ID: ...' under 'fruits:'")
        #expect(compilation.book == nil)
    }

    @Test func invalidTypeNonScalarKey() throws {
        let file = Fixture.path("invalid-type-key.yaml")
        let compilation = try Fixture.compile("invalid-type-key.yaml")
        let diagnostic = try compilation.single()
        // `  ? [kiwi, lime]`: the sequence spans columns 5 to 16.
        #expect(diagnostic.spot == Spot(.invalidType, file, 3, 5))
        #expect(diagnostic.range.end == at(3, 17))
        #expect(diagnostic.message == "a key must be a scalar, found a sequence")
        #expect(compilation.book == nil)
    }

    // MARK: unknown-key

    @Test func unknownKeySuggestsTheClosestKey() throws {
        let file = Fixture.path("unknown-key-suggestion.yaml")
        let compilation = try Fixture.compile("unknown-key-suggestion.yaml")
        // `fruit:` is not read, so 'mango' stays undeclared: collect, don't stop.
        #expect(compilation.spots == [
            Spot(.unknownKey, file, 2, 1),
            Spot(.unknownKey, file, 6, 5),
            Spot(.unknownFruit, file, 7, 15),
        ])
        let top = compilation.diagnostics[0]
        #expect(top.message == "unknown key 'fruit' in a recipe document")
        #expect(top.help == "did you mean 'fruits'?")
        #expect(top.range.end == at(2, 6))
        let field = compilation.diagnostics[1]
        #expect(field.message == "unknown key 'prise' in menu item 'juice'")
        #expect(field.help == "did you mean 'price'?")
        #expect(compilation.book == nil)
    }

    @Test func unknownKeyListsTheKeysWhenNothingIsClose() throws {
        let file = Fixture.path("unknown-key-list.yaml")
        let compilation = try Fixture.compile("unknown-key-list.yaml")
        let diagnostic = try compilation.single()
        #expect(diagnostic.spot == Spot(.unknownKey, file, 3, 5))
        #expect(diagnostic.message == "unknown key 'colour' in fruit 'mango'")
        #expect(diagnostic.help == "expected one of 'label', 'emoji'")
        #expect(compilation.book == nil)
    }

    // MARK: unsupported-version

    @Test func unsupportedVersion() throws {
        let file = Fixture.path("unsupported-version.yaml")
        let compilation = try Fixture.compile("unsupported-version.yaml")
        let diagnostic = try compilation.single()
        #expect(diagnostic.spot == Spot(.unsupportedVersion, file, 1, 10))
        #expect(diagnostic.range.end == at(1, 11))
        #expect(diagnostic.message == "unsupported version '3'")
        #expect(diagnostic.help == "this juice-maker reads recipe language versions 1 and 2; write 'version: 2' or leave it out")
        #expect(compilation.book == nil)
    }

    @Test(arguments: ["version: \"1\"", "version: 1.0", "version: [1]", "version: 01"])
    func versionOtherThanPlainOneIsUnsupported(_ yaml: String) throws {
        let diagnostic = try compile(yaml: yaml).single()
        #expect(diagnostic.spot == Spot(.unsupportedVersion, "inline.yaml", 1, 10))
    }

    @Test func versionOneIsAccepted() {
        let compilation = compile(yaml: "version: 1\n")
        #expect(compilation.diagnostics.isEmpty)
        #expect(compilation.book != nil)
    }

    @Test func everyScriptCommandIsAReservedID() {
        for word in ["restock", "set", "stock"] {
            let compilation = compile(yaml: "fruits:\n  \(word):\n")
            #expect(compilation.spots == [Spot(.invalidName, "inline.yaml", 2, 3)], "\(word)")
            #expect(compilation.diagnostics.first?.message == "'\(word)' is reserved for order-script commands")
        }
    }

    // MARK: invalid-name

    @Test func invalidNames() throws {
        let file = Fixture.path("invalid-name.yaml")
        let compilation = try Fixture.compile("invalid-name.yaml")
        #expect(compilation.spots == [
            Spot(.invalidName, file, 2, 3),
            Spot(.invalidName, file, 3, 3),
            Spot(.invalidName, file, 4, 3),
            Spot(.invalidName, file, 5, 3),
        ])
        let words = "ids are single words such as 'mango' or 'mango-juice'"
        #expect(compilation.diagnostics.map(\.message) == [
            "id 'mango juice' contains whitespace",
            "id 'lime#2' contains '#', which starts a comment in order scripts",
            "'restock' is reserved for order-script commands",
            "id 'bell\\u{7}bell' contains a control character",
        ])
        #expect(compilation.diagnostics.map(\.help) == [words, words, "choose another id", words])
        #expect(compilation.diagnostics[0].range.end == at(2, 14))
        #expect(compilation.book == nil)
    }

    @Test func reservedSetIsAnInvalidMenuID() throws {
        let diagnostic = try compile(yaml: """
            fruits:
              mango:
            menu:
              set:
                recipe: { mango: 1 }
            """).single()
        #expect(diagnostic.spot == Spot(.invalidName, "inline.yaml", 4, 3))
        #expect(diagnostic.message == "'set' is reserved for order-script commands")
    }

    // MARK: duplicate-key

    @Test func duplicateKeyNotesTheFirst() throws {
        let file = Fixture.path("duplicate-key.yaml")
        let compilation = try Fixture.compile("duplicate-key.yaml")
        let diagnostic = try compilation.single()
        #expect(diagnostic.spot == Spot(.duplicateKey, file, 4, 3))
        #expect(diagnostic.range.end == at(4, 8))
        #expect(diagnostic.message == "duplicate key 'mango'")
        #expect(diagnostic.noteSpots == [NoteSpot(file, 2, 3, "'mango' first appears here")])
        #expect(diagnostic.notes[0].range.end == at(2, 8))
        #expect(diagnostic.help == "remove one of them, or merge their contents")
        #expect(compilation.book == nil)
    }

    // MARK: duplicate-definition

    @Test func duplicateDefinitionFruitAndMenuItemInOneFile() throws {
        let file = Fixture.path("duplicate-definition.yaml")
        let compilation = try Fixture.compile("duplicate-definition.yaml")
        let diagnostic = try compilation.single()
        #expect(diagnostic.spot == Spot(.duplicateDefinition, file, 4, 3))
        #expect(diagnostic.message == "'mango' is already defined as a fruit")
        #expect(diagnostic.noteSpots == [NoteSpot(file, 2, 3, "'mango' is first defined here")])
        #expect(diagnostic.help == "fruits, recipes and menu items share one namespace; rename one of them")
        #expect(compilation.book == nil)
    }

    @Test func duplicateDefinitionAcrossFiles() throws {
        let a = Fixture.path("duplicate-definition-a.yaml")
        let b = Fixture.path("duplicate-definition-b.yaml")
        let compilation = try Fixture.compile("duplicate-definition-a.yaml", "duplicate-definition-b.yaml")
        #expect(compilation.fileCount == 2)
        #expect(compilation.spots == [
            Spot(.duplicateDefinition, b, 2, 3),
            Spot(.duplicateDefinition, b, 5, 3),
        ])
        let recipe = compilation.diagnostics[0]
        #expect(recipe.message == "'kiwi' is already defined as a fruit")
        #expect(recipe.noteSpots == [NoteSpot(a, 2, 3, "'kiwi' is first defined here")])
        let stock = compilation.diagnostics[1]
        #expect(stock.message == "stock for 'lime' is set twice")
        #expect(stock.noteSpots == [NoteSpot(a, 5, 3, "stock for 'lime' is first set here")])
        #expect(stock.help == "keep one stock entry per fruit")
        #expect(compilation.book == nil)
    }

    @Test func duplicateDefinitionInTwoDocumentsOfOneFile() throws {
        let diagnostic = try compile(yaml: """
            recipes:
              mix: { mango: 1 }
            fruits:
              mango:
            ---
            menu:
              mix:
                recipe: { mango: 2 }
            """).single()
        #expect(diagnostic.spot == Spot(.duplicateDefinition, "inline.yaml", 7, 3))
        #expect(diagnostic.message == "'mix' is already defined as a recipe")
        #expect(diagnostic.noteSpots == [NoteSpot("inline.yaml", 2, 3, "'mix' is first defined here")])
    }

    // MARK: unknown-fruit

    @Test func unknownFruitInStockAndRecipes() throws {
        let file = Fixture.path("unknown-fruit.yaml")
        let compilation = try Fixture.compile("unknown-fruit.yaml")
        #expect(compilation.spots == [
            Spot(.unknownFruit, file, 5, 3),
            Spot(.unknownFruit, file, 6, 3),
            Spot(.unknownFruit, file, 9, 5),
            Spot(.unknownFruit, file, 11, 5),
        ])
        let messages = compilation.diagnostics.map(\.message)
        let helps = compilation.diagnostics.map(\.help)
        #expect(messages == [
            "unknown fruit 'mangoo'",
            "'smoothie' is a recipe, not a fruit; only fruits are stocked",
            "unknown fruit 'kiwii'",
            "unknown fruit 'dragonfruit'",
        ])
        #expect(helps == [
            "did you mean 'mango'?",
            "declare it under 'fruits:' first",
            "did you mean 'kiwi'?",
            "declare it under 'fruits:' or 'recipes:', or fix the name",
        ])
        #expect(compilation.diagnostics[2].range.end == at(9, 10))
        #expect(compilation.book == nil)
    }

    // MARK: zero-amount

    @Test func zeroAmountInARecipeButNotInStock() throws {
        let file = Fixture.path("zero-amount.yaml")
        let compilation = try Fixture.compile("zero-amount.yaml")
        let diagnostic = try compilation.single()
        #expect(diagnostic.spot == Spot(.zeroAmount, file, 7, 12))
        #expect(diagnostic.range.end == at(7, 13))
        #expect(diagnostic.message == "amount of 'mango' in recipe 'nothing-much' is 0")
        #expect(diagnostic.help == "use at least 1, or remove the ingredient")
        #expect(compilation.book == nil)
    }

    // MARK: negative-amount

    @Test func negativeStockAmountAndPrice() throws {
        let file = Fixture.path("negative-amount.yaml")
        let compilation = try Fixture.compile("negative-amount.yaml")
        #expect(compilation.spots == [
            Spot(.negativeAmount, file, 4, 10),
            Spot(.negativeAmount, file, 7, 12),
            Spot(.negativeAmount, file, 10, 12),
        ])
        #expect(compilation.diagnostics.map(\.message) == [
            "stock of 'mango' is negative: '-1'",
            "amount of 'mango' in recipe 'r' is negative: '-2'",
            "price of 'juice' is negative: '-3'",
        ])
        #expect(compilation.diagnostics.map(\.help) == [
            "use a whole number of at least 0",
            "use a whole number of at least 1",
            "use a whole number of at least 0",
        ])
        #expect(compilation.book == nil)
    }

    // MARK: invalid-amount

    @Test func invalidAmounts() throws {
        let file = Fixture.path("invalid-amount.yaml")
        let compilation = try Fixture.compile("invalid-amount.yaml")
        #expect(compilation.spots == [
            Spot(.invalidAmount, file, 4, 20),
            Spot(.invalidAmount, file, 5, 19),
            Spot(.invalidAmount, file, 6, 24),
            Spot(.invalidAmount, file, 7, 17),
            Spot(.invalidAmount, file, 8, 19),
            Spot(.invalidAmount, file, 9, 18),
            Spot(.invalidAmount, file, 10, 19),
        ])
        let notWhole = "write a whole decimal number of at least 1, with no sign, '_', '.' or exponent"
        let expected: [(message: String, help: String)] = [
            ("amount of 'mango' in recipe 'quoted' is quoted text '3', not a number", "remove the quotes: 3"),
            ("amount of 'mango' in recipe 'float' is '1.5', not a whole number", notWhole),
            ("amount of 'mango' in recipe 'underscore' is '1_000', not a whole number", notWhole),
            ("amount of 'mango' in recipe 'hex' is '0x10', not a whole number", notWhole),
            ("amount of 'mango' in recipe 'tilde' is missing", "write a whole number of at least 1"),
            ("amount of 'mango' in recipe 'huge' is '99999999999999999999', which is too large",
             "the largest amount is 9223372036854775807"),
            ("amount of 'mango' in recipe 'octal' is '007', with a leading zero that YAML 1.1 reads as octal", "write 7"),
        ]
        #expect(compilation.diagnostics.map(\.message) == expected.map(\.message))
        #expect(compilation.diagnostics.map(\.help) == expected.map(\.help))
        // The quoted scalar's range covers its quotes; the huge number all 20 digits.
        #expect(compilation.diagnostics[0].range.end == at(4, 23))
        #expect(compilation.diagnostics[5].range.end == at(9, 38))
        #expect(compilation.book == nil)
    }

    @Test func explicitTagsOnAmounts() throws {
        let compilation = compile(yaml: """
            fruits:
              mango:
            recipes:
              tagged: { mango: !!str 3 }
              int: { mango: !!int 3 }
            """)
        let diagnostic = try compilation.single()
        #expect(diagnostic.spot == Spot(.invalidAmount, "inline.yaml", 4, 20))
        #expect(diagnostic.message == "amount of 'mango' in recipe 'tagged' is tagged 'tag:yaml.org,2002:str', not a whole number")
        #expect(diagnostic.help == "remove the tag")
    }

    @Test func largestAmountIsAccepted() throws {
        let compilation = compile(yaml: """
            fruits:
              mango:
            stock:
              mango: 9223372036854775807
            """)
        #expect(compilation.diagnostics.isEmpty)
        #expect(try #require(compilation.book).openingStock == [Int.max])
    }

    // MARK: empty-recipe

    @Test func emptyRecipes() throws {
        let file = Fixture.path("empty-recipe.yaml")
        let compilation = try Fixture.compile("empty-recipe.yaml")
        // An empty mapping is reported where it is; a null at its key, since a
        // null has no text of its own; a menu item without 'recipe' at its id.
        #expect(compilation.spots == [
            Spot(.emptyRecipe, file, 4, 12),
            Spot(.emptyRecipe, file, 5, 3),
            Spot(.emptyRecipe, file, 7, 3),
        ])
        #expect(compilation.diagnostics.map(\.message) == [
            "recipe 'nothing' has no ingredients",
            "recipe 'null-recipe' has no ingredients",
            "menu item 'juice' has no recipe",
        ])
        #expect(compilation.diagnostics.map(\.help) == [
            "list at least one ingredient, such as '{ mango: 1 }'",
            "list at least one ingredient, such as '{ mango: 1 }'",
            "add 'recipe: { FRUIT: AMOUNT, ... }'",
        ])
        #expect(compilation.book == nil)
    }

    // MARK: recipe-cycle

    @Test func recipeCycles() throws {
        let file = Fixture.path("recipe-cycle.yaml")
        let compilation = try Fixture.compile("recipe-cycle.yaml")
        #expect(compilation.spots == [
            Spot(.recipeCycle, file, 8, 5),
            Spot(.recipeCycle, file, 10, 5),
        ])
        let pair = compilation.diagnostics[0]
        #expect(pair.message == "recipe cycle: a -> b -> a")
        #expect(pair.noteSpots == [NoteSpot(file, 5, 5, "'a' uses 'b' here")])
        #expect(pair.help == "a recipe cannot contain itself, directly or through other recipes")
        let selfCycle = compilation.diagnostics[1]
        #expect(selfCycle.message == "recipe cycle: self -> self")
        #expect(selfCycle.notes.isEmpty)
        #expect(selfCycle.range.end == at(10, 9))
        #expect(compilation.book == nil)
    }

    @Test func longCycleIsShortenedInTheMessage() throws {
        // r0 -> r1 -> ... -> r19 -> r0: twenty recipes.
        var yaml = "fruits:\n  mango:\nrecipes:\n"
        for index in 0..<20 {
            yaml += "  r\(index): { r\((index + 1) % 20): 1 }\n"
        }
        let diagnostic = try compile(yaml: yaml).single()
        // The cycle closes at r19's ingredient 'r0', on line 23, column 10.
        #expect(diagnostic.spot == Spot(.recipeCycle, "inline.yaml", 23, 10))
        #expect(diagnostic.message
            == "recipe cycle: r0 -> r1 -> r2 -> r3 -> r4 -> r5 -> r6 -> r7 -> r8 -> r9 -> r10 -> ... -> r0 (20 recipes)")
        #expect(diagnostic.notes.count == 12)
        #expect(diagnostic.noteSpots.first == NoteSpot("inline.yaml", 4, 9, "'r0' uses 'r1' here"))
    }

    /// With an unknown name before them, the book's edges are copied out
    /// of the looked-up list (`EdgeTable` keeps each edge's ingredient
    /// number beside it): the cycle and its note must still point at their
    /// own ingredients, not at the ones in their list positions.
    @Test func aCycleAfterAnUnknownNameIsPointedAtItsOwnIngredients() throws {
        let yaml = """
            fruits:
              mango:
            recipes:
              first: { mango: 1, nothing: 2, kiwi: 1 }
              a: { mango: 1, b: 1 }
              b: { a: 2 }
            """
        let compilation = compile(yaml: yaml)
        #expect(compilation.spots == [
            Spot(.unknownFruit, "inline.yaml", 4, 22),
            Spot(.unknownFruit, "inline.yaml", 4, 34),
            Spot(.recipeCycle, "inline.yaml", 6, 8),
        ])
        let cycle = try #require(compilation.diagnostics.first { $0.rule == .recipeCycle })
        #expect(cycle.message == "recipe cycle: a -> b -> a")
        #expect(cycle.noteSpots == [NoteSpot("inline.yaml", 5, 18, "'a' uses 'b' here")])
    }

    // MARK: amount-overflow

    @Test func amountOverflowInProductAndInSum() throws {
        let file = Fixture.path("amount-overflow.yaml")
        let compilation = try Fixture.compile("amount-overflow.yaml")
        #expect(compilation.spots == [
            Spot(.amountOverflow, file, 8, 5),
            Spot(.amountOverflow, file, 16, 7),
        ])
        let product = compilation.diagnostics[0]
        #expect(product.message == "recipe 'r2' needs more 'mango' than can be counted (over 9223372036854775807)")
        #expect(product.help == "use smaller amounts in 'r1' or the recipes it contains")
        let sum = compilation.diagnostics[1]
        #expect(sum.message == "menu item 'whole' needs more 'mango' than can be counted (over 9223372036854775807)")
        #expect(compilation.book == nil)
    }

    // MARK: cost-too-large

    /// Priced or not, an item whose cost passes 64 bits is flagged at its
    /// name, directly (saffron-tea, 3 × 2^62) or through a recipe (golden,
    /// syrup's 2 × 2^62); one that also uses a fruit with no cost is unknown,
    /// so missing-cost, not this.
    @Test func costTooLargeDirectlyAndThroughARecipe() throws {
        let file = Fixture.path("cost-too-large.yaml")
        let compilation = RecipeCompiler.compile([try Fixture.source("cost-too-large.yaml")], analysis: true, pass: OpeningStockAnalysis())
        #expect(compilation.spots == [
            Spot(.costTooLarge, file, 14, 3),
            Spot(.costTooLarge, file, 17, 3),
            Spot(.missingCost, file, 22, 3),
        ])
        #expect(compilation.diagnostics.map(\.message) == [
            "the cost of menu item 'saffron-tea' is too large to count",
            "the cost of menu item 'golden' is too large to count",
            "the cost of menu item 'saffron-kiwi' is unknown: 'kiwi' has no cost",
        ])
        #expect(compilation.diagnostics[0].severity == .warning)
        #expect(compilation.diagnostics[0].help
            == "costs are counted exactly up to 9223372036854775807 of the smallest currency unit; check the fruits' costs and the amounts the item uses")
        let book = try #require(compilation.book)
        let costs = try #require(CostTable(book: book))
        #expect((0..<4).map(costs.menuCost) == [.tooLarge, .tooLarge, .exact(Money(1600)), .unknown])
        #expect(costs.recipeCost(0) == .tooLarge)
        #expect(costs.menu == [nil, nil, Money(1600), nil])
        #expect(costs.menuMissing == [[], [], [], [2]])
    }

    /// Off, it is neither reported nor judged; the other cost rules off leave it on.
    @Test func costTooLargeHonoursRulesOff() throws {
        let source = try Fixture.source("cost-too-large.yaml")
        let file = Fixture.path("cost-too-large.yaml")
        let off = RecipeCompiler.snapshot([source], stock: nil, analysis: true, rulesOff: [.costTooLarge], pass: OpeningStockAnalysis(), book: false)
        #expect(off.compilation.spots == [Spot(.missingCost, file, 22, 3)])
        #expect(!off.coverage.checked(.costTooLarge, in: file))
        let others = RecipeCompiler.snapshot([source], stock: nil, analysis: true, rulesOff: [.priceBelowCost, .missingCost], pass: OpeningStockAnalysis(), book: false)
        #expect(others.compilation.spots == [Spot(.costTooLarge, file, 14, 3), Spot(.costTooLarge, file, 17, 3)])
        #expect(others.coverage.checked(.costTooLarge, in: file))
    }

    @Test func amountJustBelowOverflowIsAccepted() throws {
        let compilation = compile(yaml: """
            fruits:
              mango:
            recipes:
              r1: { mango: 3037000499 }
            menu:
              r2:
                recipe: { r1: 3037000499 }
            """)
        #expect(compilation.diagnostics.isEmpty)
        let book = try #require(compilation.book)
        // 3037000499 * 3037000499 = 9223372030926249001 <= Int.max
        #expect(book.menu[0].needs == [RecipeBook.FruitAmount(fruit: 0, amount: 9_223_372_030_926_249_001)])
    }

    // MARK: substitutes (issue 37)

    @Test func substitutesAreResolvedInTheOrderWritten() throws {
        let compilation = try Fixture.compile("substitutes.yaml")
        #expect(compilation.diagnostics.isEmpty, "\(compilation.spots)")
        let book = try #require(compilation.book)
        #expect(book.fruits.map(\.id) == ["strawberry", "frozen-strawberry", "mango", "mango-puree", "frozen-mango"])
        #expect(book.fruits.map(\.substitutes) == [
            [RecipeBook.Substitute(fruit: 1, ratio: 1)], [],
            [RecipeBook.Substitute(fruit: 3, ratio: 2), RecipeBook.Substitute(fruit: 4, ratio: 1)], [], [],
        ])
        #expect(book.declaresSubstitutes)
        // A book without them: nothing resolved, nothing declared.
        let plain = try #require(try Fixture.compile("shop.yaml").book)
        #expect(plain.fruits.allSatisfy(\.substitutes.isEmpty) && !plain.declaresSubstitutes)
    }

    @Test func unknownSubstituteIsAnUnknownFruitWithDidYouMean() throws {
        let file = Fixture.path("substitute-unknown.yaml")
        let compilation = try Fixture.compile("substitute-unknown.yaml")
        #expect(compilation.spots == [Spot(.unknownFruit, file, 5, 7), Spot(.unknownFruit, file, 6, 7)])
        #expect(compilation.diagnostics.map(\.message) == [
            "unknown fruit 'frozen-mang', listed as a substitute of 'mango'",
            "unknown fruit 'papaya', listed as a substitute of 'mango'",
        ])
        #expect(compilation.diagnostics.map(\.help) == ["did you mean 'frozen-mango'?", "declare it under 'fruits:', or fix the name"])
        let first = try #require(compilation.diagnostics.first)
        #expect(first.range.end == at(5, 18))
        #expect(first.fixes.map(\.title) == ["replace 'frozen-mang' with 'frozen-mango'"])
        #expect(compilation.book == nil)
    }

    @Test func substituteIsItself() throws {
        let file = Fixture.path("substitute-is-itself.yaml")
        let compilation = try Fixture.compile("substitute-is-itself.yaml")
        let diagnostic = try compilation.single()
        // `  mango: { substitutes: { frozen-mango: 1, mango: 1 } }`: the second 'mango' is column 44.
        #expect(diagnostic.spot == Spot(.substituteIsItself, file, 3, 44))
        #expect(diagnostic.range.end == at(3, 49))
        #expect(diagnostic.message == "fruit 'mango' lists itself as a substitute")
        #expect(diagnostic.severity == .error)
        #expect(compilation.book == nil)
    }

    @Test func substituteNotAFruitNamesARecipeOrAMenuItem() throws {
        let file = Fixture.path("substitute-not-a-fruit.yaml")
        let compilation = try Fixture.compile("substitute-not-a-fruit.yaml")
        #expect(compilation.spots == [Spot(.substituteNotAFruit, file, 4, 20), Spot(.substituteNotAFruit, file, 4, 35)])
        #expect(compilation.diagnostics.map(\.message) == [
            "substitute 'mango-base' of 'mango' is a recipe, not a fruit",
            "substitute 'mango-juice' of 'mango' is a menu item, not a fruit",
        ])
        #expect(compilation.diagnostics.allSatisfy { $0.severity == .error })
        #expect(compilation.book == nil)
    }

    @Test func substituteRatiosAreReadAsAmounts() throws {
        let file = Fixture.path("substitute-ratio.yaml")
        let compilation = try Fixture.compile("substitute-ratio.yaml")
        #expect(compilation.spots == [
            Spot(.zeroAmount, file, 5, 13), Spot(.negativeAmount, file, 6, 13),
            Spot(.invalidAmount, file, 7, 14), Spot(.invalidAmount, file, 8, 15),
        ])
        #expect(compilation.diagnostics.map(\.message) == [
            "ratio of substitute 'kiwi' of 'mango' is 0",
            "ratio of substitute 'lime' of 'mango' is negative: '-2'",
            "ratio of substitute 'lemon' of 'mango' is '1.5', not a whole number",
            "ratio of substitute 'papaya' of 'mango' is quoted text '2', not a number",
        ])
        #expect(compilation.diagnostics.first?.help == "use at least 1, or remove the substitute")
        #expect(compilation.book == nil)
    }

    @Test func substitutesInAVersionOneFileNeedVersionTwo() throws {
        let file = Fixture.path("substitute-version-one.yaml")
        let compilation = try Fixture.compile("substitute-version-one.yaml")
        let diagnostic = try compilation.single()
        #expect(diagnostic.spot == Spot(.unknownKey, file, 4, 5))
        #expect(diagnostic.message == "unknown key 'substitutes' in fruit 'mango'")
        #expect(diagnostic.help == "'substitutes' is a version 2 key; this file says 'version: 1': write 'version: 2' to use it")
        #expect(compilation.book == nil)
    }

    @Test func substitutesThatAreNotAMappingAreAnInvalidType() throws {
        let compilation = compile(yaml: """
            version: 2
            fruits:
              mango: { substitutes: [kiwi] }
              kiwi:
            """)
        let diagnostic = try compilation.single()
        #expect(diagnostic.spot == Spot(.invalidType, "inline.yaml", 3, 25))
        #expect(diagnostic.message == "the substitutes of 'mango' must be a mapping of fruit to ratio, found a sequence")
    }
}
