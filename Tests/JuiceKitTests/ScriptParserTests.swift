import Testing
@testable import JuiceSimulation

/// Order-script lines against `Fixtures/shop.yaml`: menu smoothie 0,
/// mango-juice 1, kiwi-cup 2; fruits mango 0, kiwi 1, lime 2; recipe base.
@Suite struct ScriptParserTests {
    let parser: ScriptParser

    init() throws {
        parser = ScriptParser(book: try shopBook(), file: "day.orders")
    }

    private func problem(_ line: String, number: Int = 7) -> ScriptProblem? {
        do {
            _ = try parser.parse(line, number: number)
            return nil
        } catch {
            return error
        }
    }

    private func expected(_ message: String, _ help: String? = nil, number: Int = 7) -> ScriptProblem {
        ScriptProblem(file: "day.orders", line: number, message: message, help: help)
    }

    // MARK: Commands

    @Test func oneOrder() throws {
        #expect(try parser.parse("smoothie", number: 1) == .order(menu: 0, count: 1))
        #expect(try parser.parse("mango-juice", number: 1) == .order(menu: 1, count: 1))
    }

    @Test func repeatedOrder() throws {
        #expect(try parser.parse("mango-juice x3", number: 1) == .order(menu: 1, count: 3))
        #expect(try parser.parse("  kiwi-cup\tx2  ", number: 1) == .order(menu: 2, count: 2))
        #expect(try parser.parse("smoothie x3\r", number: 1) == .order(menu: 0, count: 3))
        #expect(try parser.parse("smoothie x1000000", number: 1) == .order(menu: 0, count: ScriptParser.maxRepeat))
    }

    @Test func restock() throws {
        #expect(try parser.parse("restock lime 5", number: 1) == .restock(fruit: 2, amount: 5))
        #expect(try parser.parse("restock mango 9223372036854775807", number: 1) == .restock(fruit: 0, amount: Int.max))
    }

    @Test(arguments: ["", "   ", "\t", "# a comment", "   # indented comment", "#"])
    func blankAndCommentLinesAreNothing(_ line: String) throws {
        #expect(try parser.parse(line, number: 1) == nil)
    }

    @Test func trailingComments() throws {
        #expect(try parser.parse("smoothie x2 # for table 4", number: 1) == .order(menu: 0, count: 2))
        #expect(try parser.parse("kiwi-cup#no space", number: 1) == .order(menu: 2, count: 1))
        #expect(try parser.parse("restock kiwi 3 # delivery", number: 1) == .restock(fruit: 1, amount: 3))
    }

    // MARK: Problems

    @Test func unknownMenuItemSuggestsTheClosest() {
        #expect(problem("smoothy", number: 12) == expected("unknown menu item 'smoothy'", "did you mean 'smoothie'?", number: 12))
        #expect(problem("espresso") == expected("unknown menu item 'espresso'"))
    }

    @Test func aFruitIsNotAnOrder() {
        #expect(problem("mango") == expected("'mango' is a fruit, not a menu item", "order a menu item, or 'restock mango N'"))
        #expect(problem("kiwi x2") == expected("'kiwi' is a fruit, not a menu item", "order a menu item, or 'restock kiwi N'"))
    }

    @Test func anIntermediateRecipeIsNotAnOrder() {
        #expect(problem("base") == expected("'base' is an intermediate recipe, not a menu item"))
    }

    @Test func repeatCountMustBeAtLeastOne() {
        let help = "write 'x' and a whole number of at least 1, such as 'x3'"
        #expect(problem("smoothie x0") == expected("'x0' is not a repeat count", help))
        #expect(problem("smoothie x-1") == expected("'x-1' is not a repeat count", help))
        #expect(problem("smoothie x") == expected("'x' is not a repeat count", help))
        #expect(problem("smoothie x1.5") == expected("'x1.5' is not a repeat count", help))
        #expect(problem("smoothie x007") == expected("'x007' is not a repeat count", help))
    }

    @Test func repeatCountOverTheMaximum() {
        #expect(ScriptParser.maxRepeat == 1_000_000)
        let help = "split it over several lines"
        #expect(problem("smoothie x1000001") == expected("'x1000001' repeats more than 1000000 orders", help))
        #expect(problem("smoothie x99999999999999999999")
            == expected("'x99999999999999999999' repeats more than 1000000 orders", help))
    }

    @Test func malformedOrderLines() {
        #expect(problem("smoothie 3") == expected("expected 'xN' after 'smoothie', found '3'", "for example 'smoothie x3'"))
        #expect(problem("smoothie X3") == expected("expected 'xN' after 'smoothie', found 'X3'", "for example 'smoothie x3'"))
        #expect(problem("smoothie x3 please") == expected("expected 'MENU-ID' or 'MENU-ID xN', found 3 words"))
    }

    @Test func malformedRestockLines() {
        let shape = expected("expected 'restock FRUIT AMOUNT'", "for example 'restock mango 5'")
        #expect(problem("restock") == shape)
        #expect(problem("restock mango") == shape)
        #expect(problem("restock mango 5 6") == shape)
        #expect(problem("restock mangoo 5") == expected("unknown fruit 'mangoo'", "did you mean 'mango'?"))
        #expect(problem("restock smoothie 5") == expected("unknown fruit 'smoothie'"))
        for amount in ["0", "-2", "2.5", "five", "05"] {
            #expect(problem("restock mango \(amount)")
                == expected("restock amount '\(amount)' is not a whole number of at least 1"))
        }
    }

    @Test func restockAmountTooLargeToCount() throws {
        let found = try #require(problem("restock mango 99999999999999999999"))
        #expect(found.line == 7)
        #expect(!found.message.contains("not a whole number"), "\(found.message)")
        #expect(found.message.contains("too large"), "\(found.message)")
    }

    @Test func setAndStockCommands() throws {
        let mango = try #require(parser.book.fruitIndex("mango"))
        #expect(try parser.parse("set mango 3", number: 7) == .set(fruit: mango, amount: 3))
        #expect(try parser.parse("set mango 0  # empty it", number: 7) == .set(fruit: mango, amount: 0))
        #expect(try parser.parse("stock", number: 7) == .stock)
        #expect(problem("set mango -1") == expected("stock cannot go below 0: '-1'", "use 'set mango 0' to empty it"))
        #expect(problem("set mango") == expected("expected 'set FRUIT AMOUNT'", "for example 'set mango 5'"))
        #expect(problem("set mangoo 1") == expected("unknown fruit 'mangoo'", "did you mean 'mango'?"))
        #expect(problem("stock now") == expected("'stock' takes no arguments"))
    }

    @Test func controlCharactersAreEscapedInMessages() {
        #expect(problem("bad\u{7}") == expected("unknown menu item 'bad\\u{7}'"))
    }
}
