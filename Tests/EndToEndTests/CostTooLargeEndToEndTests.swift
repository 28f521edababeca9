import Foundation
import Testing

/// A cost past 64 bits (3 × 4611686018427387904) is told apart from an
/// unknown one (a fruit with no `cost:`) in every place a cost is printed,
/// and `juice-lint` flags it (`cost-too-large`).
@Suite("a cost too large to count, end to end")
struct CostTooLargeEndToEndTests {
    /// saffron-tea costs 3 × 2^62, past Int.max; lime has no cost.
    static let book = """
        version: 2
        fruits:
          saffron: { cost: 4611686018427387904 }
          kiwi: { cost: 5 }
          lime:
        stock:
          saffron: 10
          kiwi: 10
          lime: 1
        menu:
          saffron-tea:
            price: 10
            recipe: { saffron: 3 }
          kiwi-juice:
            price: 10
            recipe: { kiwi: 1 }
          lime-soda:
            price: 10
            recipe: { lime: 1 }

        """

    /// The book, `day.orders` (saffron-tea x4: saffron short 2, so 2 × 2^62
    /// to buy, and 9 × 2^62 taken) and `lime.orders` (lime short 1, no cost).
    private static func folder() throws -> TemporaryBook {
        try TemporaryBook(text: [
            "book.yaml": book,
            "day.orders": "saffron-tea x4\nkiwi-juice\n",
            "lime.orders": "lime-soda x2\n",
        ])
    }

    @Test func theMenuCardSaysTooLargeApartFromUnknown() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder.root) }
        let result = try ToolRunner.juiceRun(["menu", "--recipes", "book.yaml"], in: folder.root)
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == """
            menu item    price                cost              margin            margin %  capacity  limited by
            saffron-tea     10  too large to count  too large to count  too large to count         3  saffron
            kiwi-juice      10                5.00                5.00              50.00%        10  kiwi
            lime-soda       10             unknown             unknown             unknown         1  lime

            """)
        // JSON keeps its shape: a figure that is not a number is null.
        let json = try ToolRunner.juiceRun(["menu", "--recipes", "book.yaml", "--format", "json"], in: folder.root)
        #expect(json.stdout.hasPrefix("""
            {"id":"saffron-tea","label":"saffron-tea","price":10,"cost":null,"margin":null,"marginPercent":null,"capacity":3,"limitedBy":"saffron"}

            """))
    }

    @Test func theShoppingListSaysTooLargeApartFromUnknown() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder.root) }
        let large = try ToolRunner.juiceRun(["buy", "--recipes", "book.yaml", "day.orders"], in: folder.root)
        #expect(large.exitCode == 0)
        #expect(large.stderr == "")
        #expect(large.stdout == """
            fruit    short  packs  pack  units                cost
            saffron      2      2     1      2  too large to count
            total: too large to count

            """)
        // An unknown cost among them makes the total unknown, for want of a cost.
        let both = try ToolRunner.juiceRun(["buy", "--recipes", "book.yaml", "day.orders", "lime.orders"], in: folder.root)
        #expect(both.exitCode == 0)
        #expect(both.stdout == """
            fruit    short  packs  pack  units                cost
            saffron      2      2     1      2  too large to count
            lime         1      1     1      1             unknown
            total: unknown (a fruit to buy has no cost)

            """)
    }

    @Test func theRunSummarySaysTooLarge() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder.root) }
        let result = try ToolRunner.juiceRun(["--recipes", "book.yaml", "day.orders"], in: folder.root)
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        #expect(result.stdout.hasSuffix("""
            revenue: 40
            fruit cost: too large to count
            leftover value: 0.00
            gross margin: too large to count
            shortfall (more needed at the worst moment):
              saffron  2

            """))
    }

    @Test func lintWarnsCostTooLarge() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder.root) }
        let result = try ToolRunner.lint("book.yaml", in: folder.root)
        #expect(result.exitCode == 0)
        #expect(result.stdout == """
            book.yaml:11:3: warning: the cost of menu item 'saffron-tea' is too large to count [cost-too-large]
               |
            11 |   saffron-tea:
               |   ^~~~~~~~~~~
               = help: costs are counted exactly up to 9223372036854775807 of the smallest currency unit; check the fruits' costs and the amounts the item uses

            book.yaml:17:3: info: the cost of menu item 'lime-soda' is unknown: 'lime' has no cost [missing-cost]
               |
            17 |   lime-soda:
               |   ^~~~~~~~~
               = help: give each fruit it uses a 'cost:'

            """)
        #expect(result.stderr == "files: 1, errors: 0, warnings: 1, infos: 1\n")
        let strict = try ToolRunner.lint("--strict", "book.yaml", in: folder.root)
        #expect(strict.exitCode == 1)
    }
}
