import Foundation
import Testing
@testable import JuiceSource
@testable import JuiceBook
@testable import JuiceLint

/// The planner's keys (issue 29, docs/planning.md "Restocking and shelf
/// life"): a fruit's `keeps` and `restock`, a long-form recipe's `keeps`,
/// what the book reads from them, and every diagnostic they can give, each
/// asserted with its rule, file, line and column.
@Suite struct PlannerLanguageTests {
    /// A menu item and stock for `fruits`' mango, so the examples stay
    /// quiet about everything but the line under test.
    static func book(fruits: String) -> String {
        "fruits:\n" + fruits + "menu:\n  j: { recipe: { mango: 1 } }\nstock: { mango: 1 }\n"
    }

    // MARK: What the book reads

    @Test func theBookReadsShelfLifeAndRestock() throws {
        let yaml = """
            fruits:
              mango: { cost: 800, pack: 6, keeps: 3, restock: { up-to: 30 } }
              kiwi: { cost: 500, keeps: 5, restock: { below: 10, up-to: 40, lead: 2 } }
              lime:
            recipes:
              syrup: { yield: 4, keeps: 1, recipe: { mango: 3, kiwi: 1 } }
              base: { lime: 1 }
            menu:
              j: { recipe: { syrup: 1, base: 1 } }
            stock: { mango: 6, kiwi: 1, lime: 1 }

            """
        let compilation = compile(yaml: yaml)
        #expect(compilation.diagnostics.isEmpty, "\(compilation.spots)")
        let book = try #require(compilation.book)
        #expect(book.fruits.map(\.keeps) == [3, 5, nil])
        #expect(book.fruits.map(\.restock) == [
            RecipeBook.Restock(upTo: 30), RecipeBook.Restock(upTo: 40, below: 10, lead: 2), nil,
        ])
        #expect(book.recipes.map(\.keeps) == [1, nil])
    }

    @Test func theSeedBookIsClean() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("Fixtures/version2/planner.yaml").path
        let compilation = RecipeCompiler.compile([SourceFile(path: "planner.yaml", bytes: try RecipeSources.readFile(path))])
        #expect(compilation.diagnostics.isEmpty, "\(compilation.spots)")
        let book = try #require(compilation.book)
        #expect(book.fruits.map(\.restock) == [
            RecipeBook.Restock(upTo: 30), RecipeBook.Restock(upTo: 40, below: 10, lead: 2), RecipeBook.Restock(upTo: 12, below: 0), nil,
        ])
        #expect(book.recipes.map(\.keeps) == [1, 2, nil])
    }

    // MARK: below-above-up-to

    @Test func belowAboveUpToPointsAtBelow() throws {
        let compilation = compile(yaml: Self.book(fruits: "  mango: { restock: { below: 40, up-to: 10 } }\n"))
        let diagnostic = try compilation.single()
        // `  mango: { restock: { below: 40`: the 40 is column 30.
        #expect(diagnostic.spot == Spot(.belowAboveUpTo, "inline.yaml", 2, 30))
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.message == "restock of 'mango' orders below 40, above its up-to of 10")
        #expect(diagnostic.help == "make 'below' at most 'up-to' (were the two swapped?)")
        #expect(compilation.book == nil)
        // Equal is allowed: order when below S, up to S.
        #expect(compile(yaml: Self.book(fruits: "  mango: { restock: { below: 10, up-to: 10 } }\n")).diagnostics.isEmpty)
    }

    // MARK: up-to-below-pack

    @Test func upToBelowPackWhetherPackComesFirstOrLast() throws {
        let before = compile(yaml: Self.book(fruits: "  mango: { pack: 6, restock: { up-to: 4 } }\n"))
        let first = try before.single()
        // `  mango: { pack: 6, restock: { up-to: 4`: the 4 is column 39.
        #expect(first.spot == Spot(.upToBelowPack, "inline.yaml", 2, 39))
        #expect(first.severity == .warning)
        #expect(first.message == "restock of 'mango' buys up to 4, less than one pack of 6")
        #expect(first.help == "write 'up-to' in units, at least 6")
        // A warning: the book is still made, with the restock as written.
        #expect(try #require(before.book).fruits[0].restock == RecipeBook.Restock(upTo: 4))

        let after = compile(yaml: Self.book(fruits: "  mango: { restock: { up-to: 4 }, pack: 6 }\n"))
        let last = try after.single()
        #expect(last.spot == Spot(.upToBelowPack, "inline.yaml", 2, 30))
        #expect(last.message == first.message)

        // One pack exactly is no warning; with no pack, a pack is one unit.
        #expect(compile(yaml: Self.book(fruits: "  mango: { pack: 6, restock: { up-to: 6 } }\n")).diagnostics.isEmpty)
        #expect(compile(yaml: Self.book(fruits: "  mango: { restock: { up-to: 1 } }\n")).diagnostics.isEmpty)
    }

    /// The warning is read by the collector, not the analyses, and is still
    /// a lint rule like the others: a comment silences it, and a comment
    /// left behind once it is fixed is reported.
    @Test func upToBelowPackCanBeSuppressed() throws {
        func lint(_ upTo: Int) -> [Spot] {
            let yaml = Self.book(fruits: "  mango: { pack: 6, restock: { up-to: \(upTo) } }  # juice-lint disable-line up-to-below-pack\n")
            return Linter.check([SourceFile(path: "inline.yaml", bytes: Array(yaml.utf8))], configuration: LintConfiguration()).map(\.spot)
        }
        #expect(lint(4) == [])
        // At the rule's name in the comment: 44 characters of entry, 2
        // spaces, then `# juice-lint disable-line ` (26).
        #expect(lint(40) == [Spot(.unusedSuppression, "inline.yaml", 2, 73)])
    }

    @Test func bothRestockRulesAtOnce() throws {
        let compilation = compile(yaml: Self.book(fruits: "  mango: { pack: 6, restock: { below: 5, up-to: 4 } }\n"))
        #expect(compilation.spots == [
            Spot(.belowAboveUpTo, "inline.yaml", 2, 39), Spot(.upToBelowPack, "inline.yaml", 2, 49),
        ])
    }

    // MARK: The restock's shape

    @Test func aRestockThatIsNotAMappingIsInvalidType() throws {
        let diagnostic = try compile(yaml: Self.book(fruits: "  mango: { restock: 30 }\n")).single()
        #expect(diagnostic.spot == Spot(.invalidType, "inline.yaml", 2, 21))
        #expect(diagnostic.message == "restock of 'mango' must be a mapping, found a scalar")
        #expect(diagnostic.help == "write 'restock: { up-to: 30 }', or 'restock: { below: 10, up-to: 40, lead: 2 }'")
        let block = try compile(yaml: Self.book(fruits: "  mango:\n    restock:\n      - up-to: 30\n")).single()
        #expect(block.spot == Spot(.invalidType, "inline.yaml", 4, 7))
        #expect(block.message == "restock of 'mango' must be a mapping, found a sequence")
    }

    @Test func aRestockWithoutUpToSaysSoAtItsKey() throws {
        let compilation = compile(yaml: Self.book(fruits: "  mango: { restock: { below: 3, lead: 1 } }\n"))
        let diagnostic = try compilation.single()
        // Pointed at `restock`, the key of the mapping that lacks it.
        #expect(diagnostic.spot == Spot(.invalidType, "inline.yaml", 2, 12))
        #expect(diagnostic.message == "restock of 'mango' has no 'up-to'")
        #expect(diagnostic.help == "say the level to buy up to: 'restock: { up-to: 30 }'")
        #expect(compilation.book == nil)
    }

    @Test func anUnknownRestockKeySuggestsTheNearestOne() throws {
        let diagnostic = try compile(yaml: Self.book(fruits: "  mango: { restock: { up-to: 30, leed: 2 } }\n")).single()
        #expect(diagnostic.spot == Spot(.unknownKey, "inline.yaml", 2, 34))
        #expect(diagnostic.message == "unknown key 'leed' in restock of 'mango'")
        #expect(diagnostic.help == "did you mean 'lead'?")
    }

    @Test func restockAmountsAreReadAsAmounts() throws {
        let compilation = compile(yaml: Self.book(fruits: "  mango: { restock: { up-to: x, below: -1, lead: 1.5 } }\n"))
        #expect(compilation.spots == [
            Spot(.invalidAmount, "inline.yaml", 2, 30), Spot(.negativeAmount, "inline.yaml", 2, 40),
            Spot(.invalidAmount, "inline.yaml", 2, 50),
        ])
        #expect(compilation.diagnostics.map(\.message) == [
            "up-to of 'mango' is 'x', not a whole number", "below of 'mango' is negative: '-1'",
            "lead of 'mango' is '1.5', not a whole number",
        ])
        // Zero is a level, a threshold and a lead time like any other.
        #expect(compile(yaml: Self.book(fruits: "  mango: { restock: { up-to: 0, below: 0, lead: 0 } }\n")).spots
            == [Spot(.upToBelowPack, "inline.yaml", 2, 30)])
    }

    // MARK: keeps

    /// `keeps: 0` would throw a unit away before it could be used: the amount
    /// reader's zero-amount, on the value, as for `pack: 0` and `yield: 0`.
    @Test func keepsIsAtLeastOneDay() throws {
        let yaml = "fruits:\n  mango: { keeps: 0 }\nrecipes:\n  r: { recipe: { mango: 1 }, keeps: 0 }\nmenu:\n  j: { recipe: { r: 1 } }\nstock: { mango: 1 }\n"
        let compilation = compile(yaml: yaml)
        #expect(compilation.spots == [Spot(.zeroAmount, "inline.yaml", 2, 19), Spot(.zeroAmount, "inline.yaml", 4, 37)])
        #expect(compilation.diagnostics.map(\.message) == ["keeps of 'mango' is 0", "keeps of 'r' is 0"])
        #expect(compilation.diagnostics.allSatisfy { $0.severity == .error && $0.help?.hasPrefix("use at least 1") == true })
        #expect(compilation.book == nil)
        let negative = try compile(yaml: Self.book(fruits: "  mango: { keeps: -2 }\n")).single()
        #expect(negative.spot == Spot(.negativeAmount, "inline.yaml", 2, 19))
        #expect(negative.help == "use a whole number of at least 1")
    }

    @Test func aMenuItemIsNeverKept() throws {
        let diagnostic = try compile(yaml: "fruits:\n  mango:\nmenu:\n  j: { keeps: 1, recipe: { mango: 1 } }\nstock: { mango: 1 }\n").single()
        #expect(diagnostic.spot == Spot(.unknownKey, "inline.yaml", 4, 8))
        #expect(diagnostic.message == "unknown key 'keeps' in menu item 'j'")
        #expect(diagnostic.help == "a menu item is made to order and never kept; put 'keeps' on the fruits and recipes it uses")
        // In version 1, where no one keeps anything, it is just unknown.
        let old = try compile(yaml: "version: 1\nfruits:\n  mango:\nmenu:\n  j: { keeps: 1, recipe: { mango: 1 } }\nstock: { mango: 1 }\n").single()
        #expect(old.spot == Spot(.unknownKey, "inline.yaml", 5, 8))
        #expect(old.help == "expected one of 'label', 'price', 'recipe'")
    }

    // MARK: Version 1

    @Test func versionOneRefusesThePlannersKeysAndSaysWhy() throws {
        let yaml = "version: 1\n" + Self.book(fruits: "  mango: { keeps: 3, restock: { below: 9, up-to: 1 } }\n")
        let compilation = compile(yaml: yaml)
        // The restock is not read, so its own rules stay quiet.
        #expect(compilation.spots == [Spot(.unknownKey, "inline.yaml", 3, 12), Spot(.unknownKey, "inline.yaml", 3, 22)])
        #expect(compilation.diagnostics.map(\.message) == ["unknown key 'keeps' in fruit 'mango'", "unknown key 'restock' in fruit 'mango'"])
        #expect(compilation.diagnostics.map(\.help) == [
            "'keeps' is a version 2 key; this file says 'version: 1': write 'version: 2' to use it",
            "'restock' is a version 2 key; this file says 'version: 1': write 'version: 2' to use it",
        ])
        // A version 1 fruit's misspelt key is not offered the version 2 ones.
        let misspelt = try compile(yaml: "version: 1\n" + Self.book(fruits: "  mango: { keep: 3 }\n")).single()
        #expect(misspelt.spot == Spot(.unknownKey, "inline.yaml", 3, 12))
        #expect(misspelt.help == "expected one of 'label', 'emoji'")
        // In version 2 it is.
        let two = try compile(yaml: Self.book(fruits: "  mango: { keep: 3 }\n")).single()
        #expect(two.spot == Spot(.unknownKey, "inline.yaml", 2, 12))
        #expect(two.help == "did you mean 'keeps'?")
    }
}
