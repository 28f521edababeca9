import Testing
@testable import JuiceSource
@testable import JuiceDiagnostics
@testable import JuiceBook
@testable import JuiceEngine
import DifferentialSupport

/// Every menu item's need is flattened to whole fruits: nested recipes multiplied
/// out, repeated fruits added up, sorted by fruit index.
@Suite struct FlatteningTests {
    /// `Fixtures/flattening.yaml`, with fruit indices mango 0, kiwi 1, lime 2.
    private func book() throws -> RecipeBook {
        let compilation = try Fixture.compile("flattening.yaml")
        #expect(compilation.diagnostics.isEmpty, "\(compilation.spots)")
        return try #require(compilation.book)
    }

    private func needs(_ pairs: (Int, Int)...) -> [RecipeBook.FruitAmount] {
        pairs.map { RecipeBook.FruitAmount(fruit: $0.0, amount: $0.1) }
    }

    @Test func denseIndicesFollowDeclarationOrder() throws {
        let book = try book()
        #expect(book.fruits.map(\.id) == ["mango", "kiwi", "lime"])
        #expect(book.recipes.map(\.id) == ["base", "middle", "top"])
        #expect(book.menu.map(\.id) == ["deluxe", "combo"])
        #expect(book.fruitIndex("lime") == 2)
        #expect(book.recipeIndex("top") == 2)
        #expect(book.menuIndex("combo") == 1)
        #expect(book.fruitIndex("top") == nil)
        #expect(book.menuIndex("base") == nil)
    }

    @Test func threeLevelsWithARepeatedFruit() throws {
        let book = try book()
        // base   = mango 2, lime 1
        // middle = 3 * base + mango 1   = mango 3*2+1 = 7,  lime 3*1 = 3
        // top    = 2 * middle + kiwi 5  = mango 2*7 = 14,   lime 2*3 = 6,   kiwi 5
        // deluxe = 2 * top + mango 4    = mango 2*14+4 = 32, kiwi 2*5 = 10, lime 2*6 = 12
        #expect(book.recipes[0].needs == needs((0, 2), (2, 1)))
        #expect(book.recipes[1].needs == needs((0, 7), (2, 3)))
        #expect(book.recipes[2].needs == needs((0, 14), (1, 5), (2, 6)))
        #expect(book.menu[0].needs == needs((0, 32), (1, 10), (2, 12)))
    }

    @Test func menuItemAsAnIngredientOfAnotherMenuItem() throws {
        let book = try book()
        // combo = deluxe + kiwi 1 = mango 32, kiwi 10+1 = 11, lime 12
        #expect(book.menu[1].needs == needs((0, 32), (1, 11), (2, 12)))
        #expect(book.menu[1].ingredients == [
            RecipeBook.Ingredient(component: .menuItem(0), amount: 1),
            RecipeBook.Ingredient(component: .fruit(1), amount: 1),
        ])
        #expect(book.id(of: book.menu[1].ingredients[0].component) == "deluxe")
    }

    @Test func ingredientEdgesKeepTheirDeclaredAmounts() throws {
        let book = try book()
        #expect(book.menu[0].ingredients == [
            RecipeBook.Ingredient(component: .recipe(2), amount: 2),
            RecipeBook.Ingredient(component: .fruit(0), amount: 4),
        ])
        #expect(book.recipes[1].ingredients == [
            RecipeBook.Ingredient(component: .recipe(0), amount: 3),
            RecipeBook.Ingredient(component: .fruit(0), amount: 1),
        ])
    }

    @Test func ingredientDeclaredAfterItsUser() throws {
        // Order of declaration does not matter, even across files.
        let compilation = RecipeCompiler.compile([
            SourceFile(path: "menu.yaml", bytes: Array("menu:\n  juice:\n    recipe: { mix: 2 }\n".utf8)),
            SourceFile(path: "recipes.yaml", bytes: Array("recipes:\n  mix: { kiwi: 3 }\nfruits:\n  kiwi:\n".utf8)),
        ])
        #expect(compilation.diagnostics.isEmpty, "\(compilation.spots)")
        let book = try #require(compilation.book)
        #expect(book.menu[0].needs == needs((0, 6)))
    }

    @Test func deepChainDoesNotRecurse() throws {
        // r0 = 1 mango, each r(k) = 1 r(k-1): 5000 levels, flattened to 1 mango.
        var yaml = "fruits:\n  mango:\nrecipes:\n  r0: { mango: 1 }\n"
        for index in 1..<5000 {
            yaml += "  r\(index): { r\(index - 1): 1 }\n"
        }
        yaml += "menu:\n  top:\n    recipe: { r4999: 2 }\n"
        let compilation = compile(yaml: yaml)
        #expect(compilation.diagnostics.isEmpty)
        let book = try #require(compilation.book)
        #expect(book.menu[0].needs == needs((0, 2)))
    }
}

/// The room the flattened needs' table starts with: the sum of each
/// blend's bound, but never so much that a deep book that shares its
/// fruits asks for memory it will never use.
@Suite struct NeedTableRoomTests {
    /// Blend `i` of `levels` pairs uses both of the pair below it; the
    /// first pair uses two fruits. Then `items` menu items use the top pair.
    static func sharedTree(levels: Int, items: Int) -> (Linker.EdgeTable, [Int]) {
        var edges = Linker.EdgeTable()
        var order: [Int] = []
        for level in 0..<levels {
            for _ in 0..<2 {
                if level == 0 {
                    edges.append(.init(target: .fruit(0), amount: 1), ingredient: 0)
                    edges.append(.init(target: .fruit(1), amount: 1), ingredient: 0)
                } else {
                    edges.append(.init(target: .blend(2 * (level - 1)), amount: 1), ingredient: 0)
                    edges.append(.init(target: .blend(2 * (level - 1) + 1), amount: 1), ingredient: 0)
                }
                edges.closeBlend()
                order.append(order.count)
            }
        }
        for _ in 0..<items {
            edges.append(.init(target: .blend(2 * (levels - 1)), amount: 1), ingredient: 0)
            edges.closeBlend()
            order.append(order.count)
        }
        return (edges, order)
    }

    @Test func theRoomIsTheSumOfBoundsWhenSmall() {
        let (edges, order) = Self.sharedTree(levels: 3, items: 5)
        // Levels hold 2, 4, 8 (capped at 10 fruits: 8) per blend, items 8 each.
        #expect(Linker.partsBound(edges, order: order, fruits: 10) == 2 * 2 + 2 * 4 + 2 * 8 + 5 * 8)
    }

    @Test func aDeepBookThatSharesItsFruitsGetsCappedRoom() {
        // Each item's bound is every one of 100,000 fruits; it uses two.
        let (edges, order) = Self.sharedTree(levels: 20, items: 20_000)
        let room = Linker.partsBound(edges, order: order, fruits: 100_000)
        #expect(room == edges.edgeCount * 8)
        #expect(room <= [RecipeBook.FruitAmount].maximumRoomAhead)
    }
}

/// A blend's summed need lists its fruits in index order, whether they
/// are read off the bits (close together) or sorted (spread out), and a
/// cleared sum starts again from nothing.
@Suite struct NeedSumOrderTests {
    @Test(arguments: [1, 64, 200, 5_000, 100_000])
    func touchedFruitsComeOutInIndexOrder(fruits: Int) {
        var random = SplitMix64(seed: UInt64(fruits))
        var sum = Linker.NeedSum(fruits: fruits)
        for round in 0..<300 {
            var expected: [Int: Int] = [:]
            // Sometimes a tight cluster, sometimes spread over every fruit.
            let spread = random.chance(1, in: 2) ? fruits : min(fruits, random.int(in: 1...100))
            let base = random.int(in: 0...(fruits - spread))
            for _ in 0..<random.int(in: 0...60) {
                let fruit = base + random.int(in: 0...(spread - 1)), amount = random.int(in: 1...9)
                let added = sum.add(fruit, amount, times: 2)
                #expect(added)
                expected[fruit, default: 0] += amount * 2
            }
            sum.sortTouched()
            let fruitsInOrder = expected.keys.sorted()
            let totals = sum.touched.map { sum.totals[$0] }, expectedTotals = fruitsInOrder.map { expected[$0] ?? 0 }
            #expect(sum.touched == fruitsInOrder)
            #expect(totals == expectedTotals)
            sum.clear()
            #expect(sum.touched.isEmpty)
            if round % 100 == 99 { #expect(sum.totals.allSatisfy { $0 == 0 }) }
        }
    }
}

/// A lint run checks the menu items nothing else uses against the stock in
/// runs on every core (`Linker.checkLeaves`), keeping only the fruits the
/// stock cannot cover; assembling the book flattens every need in full, one
/// by one. Both must report the same: the same items never makeable, with
/// the same fruits and totals, the same overflows, the same items left
/// unjudged behind a cycle.
@Suite struct LintNeedsTests {
    /// Seeded: 40 fruits, stock 0 to 60; 30 recipes nested up to 3 deep, two
    /// on a cycle; 12,000 menu items (several runs of `leafRunMinimum`), of
    /// 1 to 5 ingredients, some huge (overflow), some on the cycle, some
    /// used by another item (so kept, not checked as leaves).
    static func book(seed: UInt64) -> [SourceFile] {
        var random = SplitMix64(seed: seed)
        var text = "version: 1\nfruits:\n" + (0..<40).map { "  f\($0):\n" }.joined()
        text += "stock:\n" + (0..<40).map { "  f\($0): \(random.int(in: 0...60))\n" }.joined()
        text += "recipes:\n"
        for recipe in 0..<30 {
            var parts = ["f\(random.int(in: 0...39)): \(random.int(in: 1...4))"]
            if recipe >= 10 { parts.append("r\(random.int(in: 0...(recipe - 1))): \(random.int(in: 1...3))") }
            if recipe == 28 { parts.append("r29: 1") }
            if recipe == 29 { parts.append("r28: 1") }
            text += "  r\(recipe): { \(parts.joined(separator: ", ")) }\n"
        }
        text += "menu:\n"
        for item in 0..<12_000 {
            var names = Set<String>()
            var parts: [String] = []
            for _ in 0..<random.int(in: 1...5) {
                let name = random.int(in: 0...2) == 0 ? "f\(random.int(in: 0...39))" : "r\(random.int(in: 0...29))"
                guard names.insert(name).inserted else { continue }
                let amount = item % 997 == 0 ? "4611686018427387904" : "\(random.int(in: 1...3))"
                parts.append("\(name): \(amount)")
            }
            if item % 500 == 1 { parts.append("m\(item - 1): 1") }
            text += "  m\(item):\n    recipe: { \(parts.joined(separator: ", ")) }\n"
        }
        return [SourceFile(path: "book.yaml", bytes: Array(text.utf8))]
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func leavesCheckedInRunsMatchTheFullFlatten(seed: UInt64) {
        let files = Self.book(seed: seed)
        let lint = RecipeCompiler.snapshot(files, stock: nil, analysis: true, pass: OpeningStockAnalysis(), book: false).diagnostics
        let full = RecipeCompiler.snapshot(files, stock: nil, analysis: true, pass: OpeningStockAnalysis(), book: true).diagnostics
        #expect(lint.count == full.count)
        #expect(lint.indices.first { lint[$0] != full[$0] }.map { "\(lint[$0]) against \(full[$0])" } == nil)
        // Not vacuous: many items short, some of several fruits, overflows,
        // and a cycle (the items that use it are left unjudged).
        let count = { (rule: Rule) in lint.filter { $0.rule == rule }.count }
        #expect(count(.neverMakeable) > 1_000)
        #expect(lint.contains { $0.rule == .neverMakeable && $0.message.contains("), ") })
        #expect(count(.amountOverflow) > 5)
        #expect(count(.recipeCycle) == 1)
    }

    /// A lint keeps only the short fruits of what nothing else uses: an
    /// item that takes exactly the stock or a thousandth less fits, one
    /// more is short, and an unstocked fruit is short through a recipe too.
    /// Lint and the full flatten agree on each.
    @Test func onlyWhatSurelyFitsSkipsTheSumming() {
        let text = """
            version: 1
            fruits: { a: {}, b: {} }
            stock: { a: 1000, b: 0 }
            recipes:
              r: { a: 500 }
              s: { b: 1 }
            menu:
              exact: { recipe: { r: 2 } }
              over: { recipe: { r: 2, a: 1 } }
              under: { recipe: { r: 1, a: 499 } }
              clear: { recipe: { a: 3 } }
              justUnder: { recipe: { r: 1, a: 498 } }
              unstocked: { recipe: { s: 1 } }
            """
        let files = [SourceFile(path: "a.yaml", bytes: Array(text.utf8))]
        for wantsBook in [false, true] {
            let diagnostics = RecipeCompiler.snapshot(files, stock: nil, analysis: true, pass: OpeningStockAnalysis(), book: wantsBook).diagnostics
            #expect(diagnostics.map(\.spot) == [Spot(.neverMakeable, "a.yaml", 9, 3), Spot(.neverMakeable, "a.yaml", 13, 3)])
        }
    }
}
