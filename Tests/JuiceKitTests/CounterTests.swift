import Foundation
import Testing
@testable import JuiceSource
@testable import JuiceBook
@testable import JuiceShop
@testable import JuiceEngine
@testable import JuiceSimulation

/// The canonical book in `recipes/`: strawberry, banana, pineapple, kiwi and
/// mango, 10 of each; the menu, in order, is strawberry-juice 딸기쥬스
/// (strawberry 16), banana-juice (banana 2), kiwi-juice (kiwi 3),
/// pineapple-juice (pineapple 2), strawberry-banana-juice 딸바쥬스
/// (strawberry 10, banana 1), mango-juice (mango 3), mango-kiwi-juice
/// (mango 2, kiwi 1).
private func canonicalBook() throws -> RecipeBook {
    let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("recipes")
    let compilation = RecipeCompiler.compile(try RecipeSources.load(paths: [directory.path]))
    #expect(compilation.diagnostics.isEmpty, "\(compilation.spots)")
    return try #require(compilation.book)
}

/// What a terminal shows of a scripted counter session, the stock `run()`
/// returned, and the lines it never read.
private struct CounterSession {
    var transcript: String
    var store: FruitStore
    var unread: [String]
    /// The day's tally and the closing text the counter gives for it, unsaved.
    var day: InteractiveCounter.Day
    var closing: String

    /// Runs a counter on `lines`. Each line read is written into the transcript
    /// after the prompt, with its newline, as a terminal echoes what is typed
    /// (control characters escaped, so the expected text stays readable); the
    /// end of the lines is end of input (Ctrl-D), which a terminal does not echo.
    init(book: RecipeBook, store: FruitStore? = nil, _ lines: [String]) {
        final class Terminal {
            var lines: ArraySlice<String>
            var text = ""
            init(_ lines: [String]) { self.lines = lines[...] }
        }
        let terminal = Terminal(lines)
        var counter = InteractiveCounter(
            book: book,
            store: store ?? FruitStore(book: book),
            input: {
                guard let line = terminal.lines.popFirst() else { return nil }
                terminal.text += line.escapingControlCharacters + "\n"
                return line
            },
            output: { terminal.text += $0 }
        )
        self.store = counter.run()
        #expect(counter.store == self.store)
        transcript = terminal.text
        unread = Array(terminal.lines)
        day = counter.day
        closing = counter.closingText(savedTo: nil)
    }
}

/// The canonical book's opening screen, as shown on start and on `menu`
/// (without the hint line that only the start shows).
private let openingScreen = """
    stock:
      🍓  딸기      strawberry  10
      🍌  바나나    banana      10
      🍍  파인애플  pineapple   10
      🥝  키위      kiwi        10
      🥭  망고      mango       10

    menu:
      1  딸기쥬스      sold out
      2  바나나쥬스    ready
      3  키위쥬스      ready
      4  파인애플쥬스  ready
      5  딸바쥬스      ready
      6  망고쥬스      ready
      7  망고키위쥬스  ready


    """

private let hint = "Type a menu number, id or label to order, or 'help'.\n"

@Suite struct CounterTests {
    // MARK: A refused order is not lost

    /// After the editor, an order that can now be made is offered; Enter makes it.
    @Test func aRefusedOrderIsOfferedAgainAfterEditing() throws {
        let book = try canonicalBook()
        let session = CounterSession(book: book, ["1", "y", "strawberry +6", "", "", "q"])
        #expect(session.transcript.hasSuffix("""
            stock> strawberry +6
            strawberry: 10 -> 16
            stock>\u{20}
            stock:
              🍓  딸기      strawberry  16
              🍌  바나나    banana      10
              🍍  파인애플  pineapple   10
              🥝  키위      kiwi        10
              🥭  망고      mango       10
            Make strawberry-juice now? [Y/n]\u{20}
            딸기쥬스 is ready. Enjoy!
            stock:
              🍓  딸기      strawberry   0
              🍌  바나나    banana      10
              🍍  파인애플  pineapple   10
              🥝  키위      kiwi        10
              🥭  망고      mango       10
            > q

            """))
        #expect(session.store.counts == [0, 10, 10, 10, 10])
        #expect(session.day == InteractiveCounter.Day(orders: 1, served: 1, refused: 0, revenue: nil))
        #expect(session.unread.isEmpty)
    }

    /// Anything but y, yes, n, no (or Enter) is asked again at both questions:
    /// the next order typed too early must not count as an answer.
    @Test func questionsAreAskedAgainUntilAnswered() throws {
        let book = try canonicalBook()
        let session = CounterSession(book: book, ["1", "kiwi-juice", "YES", "strawberry =16", "", "2", "Yes", "q"])
        #expect(session.transcript.contains("""
            Not enough fruit. Edit the stock? [y/N] kiwi-juice
            Answer y or n. Edit the stock? [y/N] YES
            Edit the stock:
            """))
        #expect(session.transcript.contains("""
            Make strawberry-juice now? [Y/n] 2
            Answer y or n. Make strawberry-juice now? [Y/n] Yes
            딸기쥬스 is ready. Enjoy!
            """))
        #expect(session.store.counts == [0, 10, 10, 10, 10], "kiwi-juice and 2 were answers asked again, not orders")
        #expect(session.day == InteractiveCounter.Day(orders: 1, served: 1, refused: 0, revenue: nil))
    }

    /// No at "Make ... now?" leaves the order refused; an edit that is not
    /// enough says so; end of input at the question ends the session.
    @Test func declinedOrStillShortOrdersCountAsRefused() throws {
        let book = try canonicalBook()
        let declined = CounterSession(book: book, ["1", "y", "strawberry +6", "", "N", "2", "q"])
        #expect(declined.day == InteractiveCounter.Day(orders: 2, served: 1, refused: 1, revenue: nil))
        #expect(declined.store.counts == [16, 8, 10, 10, 10])
        let short = CounterSession(book: book, ["1", "y", "strawberry +1", "", "q"])
        #expect(short.transcript.hasSuffix("""
              🥭  망고      mango       10
            딸기쥬스 still needs more fruit (strawberry: need 16, have 11); the order is not made.
            > q

            """))
        #expect(short.day == InteractiveCounter.Day(orders: 1, served: 0, refused: 1, revenue: nil))
        let ended = CounterSession(book: book, ["1", "y", "strawberry +6", ""])
        #expect(ended.transcript.hasSuffix("Make strawberry-juice now? [Y/n] \n"))
        #expect(ended.day == InteractiveCounter.Day(orders: 1, served: 0, refused: 1, revenue: nil))
        #expect(ended.store.counts == [16, 10, 10, 10, 10])
    }

    /// The closing summary: orders, served, refused, revenue when prices are
    /// declared, and where the stock was saved.
    @Test func theClosingSummary() throws {
        let book = try canonicalBook()
        let session = CounterSession(book: book, ["2", "1", "n", "q"])
        #expect(session.closing == "Day's summary: 2 orders, 1 served, 1 refused.\n")
        let compilation = compile(yaml: """
            fruits: { kiwi: }
            stock: { kiwi: 3 }
            menu:
              kiwi-juice: { price: 9223372036854775807, recipe: { kiwi: 1 } }
            """)
        let priced = try #require(compilation.book)
        var counter = InteractiveCounter(book: priced, store: FruitStore(book: priced), input: { nil }, output: { _ in })
        _ = counter.run()
        #expect(counter.closingText(savedTo: "day.yaml") == "Day's summary: 0 orders, 0 served, 0 refused, revenue 0.\nStock saved to 'day.yaml'.\n")
        let lines = ["1", "1", "1", "1", "1", "q"]
        var next = lines[...]
        counter = InteractiveCounter(book: priced, store: FruitStore(book: priced), input: { next.popFirst() }, output: { _ in })
        _ = counter.run()
        // The fourth order is refused; "1" and "q" at its question are asked again, and end of input ends the day.
        #expect(counter.closingText(savedTo: nil) == "Day's summary: 4 orders, 3 served, 1 refused, revenue 27670116110564327421.\n")
    }

    @Test func ordersByNumberIdAndLabelAreServed() throws {
        let book = try canonicalBook()
        let session = CounterSession(book: book, ["2", "kiwi-juice", "  딸바쥬스\t"])
        #expect(session.transcript == openingScreen + hint + """
            > 2
            바나나쥬스 is ready. Enjoy!
            stock:
              🍓  딸기      strawberry  10
              🍌  바나나    banana       8
              🍍  파인애플  pineapple   10
              🥝  키위      kiwi        10
              🥭  망고      mango       10
            > kiwi-juice
            키위쥬스 is ready. Enjoy!
            stock:
              🍓  딸기      strawberry  10
              🍌  바나나    banana       8
              🍍  파인애플  pineapple   10
              🥝  키위      kiwi         7
              🥭  망고      mango       10
            >   딸바쥬스\\u{9}
            딸바쥬스 is ready. Enjoy!
            stock:
              🍓  딸기      strawberry   0
              🍌  바나나    banana       7
              🍍  파인애플  pineapple   10
              🥝  키위      kiwi         7
              🥭  망고      mango       10
            >\u{20}

            """)
        #expect(session.store.counts == [0, 7, 10, 7, 10])
        #expect(session.unread.isEmpty)
    }

    @Test func refusedOrderOffersTheEditorAndIsServedAfterRestocking() throws {
        let book = try canonicalBook()
        // "n" at "Make ... now?" (issue 11) leaves the order to be typed again, as before.
        let session = CounterSession(book: book, ["1", "Y", "strawberry +6", "", "n", "strawberry-juice", "quit"])
        #expect(session.transcript == openingScreen + hint + """
            > 1
            딸기쥬스 needs more fruit:
              strawberry: need 16, have 10
            Not enough fruit. Edit the stock? [y/N] Y
            Edit the stock: FRUIT +N adds, FRUIT -N takes, FRUIT =N sets (FRUIT is an id or a label).
            An empty line closes the editor.
            stock:
              🍓  딸기      strawberry  10
              🍌  바나나    banana      10
              🍍  파인애플  pineapple   10
              🥝  키위      kiwi        10
              🥭  망고      mango       10
            stock> strawberry +6
            strawberry: 10 -> 16
            stock>\u{20}
            stock:
              🍓  딸기      strawberry  16
              🍌  바나나    banana      10
              🍍  파인애플  pineapple   10
              🥝  키위      kiwi        10
              🥭  망고      mango       10
            Make strawberry-juice now? [Y/n] n
            > strawberry-juice
            딸기쥬스 is ready. Enjoy!
            stock:
              🍓  딸기      strawberry   0
              🍌  바나나    banana      10
              🍍  파인애플  pineapple   10
              🥝  키위      kiwi        10
              🥭  망고      mango       10
            > quit

            """)
        #expect(session.store.counts == [0, 10, 10, 10, 10])
    }

    @Test func anyAnswerButYesReturnsToTheMenuPromptWithNothingTaken() throws {
        let book = try canonicalBook()
        // An answer that is neither yes nor no is asked again (issue 11), not taken as no.
        let session = CounterSession(book: book, ["5", "5", "", "5", "n", "5", "yep", "no", "q"])
        #expect(session.transcript == openingScreen + hint + """
            > 5
            딸바쥬스 is ready. Enjoy!
            stock:
              🍓  딸기      strawberry   0
              🍌  바나나    banana       9
              🍍  파인애플  pineapple   10
              🥝  키위      kiwi        10
              🥭  망고      mango       10
            > 5
            딸바쥬스 needs more fruit:
              strawberry: need 10, have 0
            Not enough fruit. Edit the stock? [y/N]\u{20}
            > 5
            딸바쥬스 needs more fruit:
              strawberry: need 10, have 0
            Not enough fruit. Edit the stock? [y/N] n
            > 5
            딸바쥬스 needs more fruit:
              strawberry: need 10, have 0
            Not enough fruit. Edit the stock? [y/N] yep
            Answer y or n. Edit the stock? [y/N] no
            > q

            """)
        #expect(session.store.counts == [0, 9, 10, 10, 10])
    }

    @Test func theEditorNeverLetsStockGoBelowZeroOrOverflow() throws {
        let book = try canonicalBook()
        let store = FruitStore(counts: [10, Int.max - 1, 10, 10, 10])
        let session = CounterSession(book: book, store: store, [
            "edit",
            "kiwi -11",
            "kiwi =-1",
            "키위=-99999999999999999999",
            "banana +2",
            "banana +99999999999999999999",
            "mango +0",
            "mango -0",
            "kiwi -10",
            "딸기=0",
            "pineapple = 3",
            "망고+5",
            "strawbery +6",
            "durian +1",
            "kiwi",
            "kiwi +1.5",
            "+5",
            "kiwi\u{7} =\u{0}",
            "",
            "exit",
        ])
        #expect(session.transcript == """
            stock:
              🍓  딸기      strawberry                   10
              🍌  바나나    banana      9223372036854775806
              🍍  파인애플  pineapple                    10
              🥝  키위      kiwi                         10
              🥭  망고      mango                        10

            menu:
              1  딸기쥬스      sold out
              2  바나나쥬스    ready
              3  키위쥬스      ready
              4  파인애플쥬스  ready
              5  딸바쥬스      ready
              6  망고쥬스      ready
              7  망고키위쥬스  ready

            Type a menu number, id or label to order, or 'help'.
            > edit
            Edit the stock: FRUIT +N adds, FRUIT -N takes, FRUIT =N sets (FRUIT is an id or a label).
            An empty line closes the editor.
            stock:
              🍓  딸기      strawberry                   10
              🍌  바나나    banana      9223372036854775806
              🍍  파인애플  pineapple                    10
              🥝  키위      kiwi                         10
              🥭  망고      mango                        10
            stock> kiwi -11
            Refused: taking 11 would leave kiwi below 0; it stays at 10.
            stock> kiwi =-1
            Refused: stock can never go below 0; kiwi stays at 10.
            stock> 키위=-99999999999999999999
            Refused: stock can never go below 0; kiwi stays at 10.
            stock> banana +2
            Refused: banana cannot hold more than 9223372036854775807; it stays at 9223372036854775806.
            stock> banana +99999999999999999999
            Refused: the amount is larger than 9223372036854775807; banana stays at 9223372036854775806.
            stock> mango +0
            Refused: add or take at least 1; mango stays at 10.
            stock> mango -0
            Refused: add or take at least 1; mango stays at 10.
            stock> kiwi -10
            kiwi: 10 -> 0
            stock> 딸기=0
            strawberry: 10 -> 0
            stock> pineapple = 3
            pineapple: 10 -> 3
            stock> 망고+5
            mango: 10 -> 15
            stock> strawbery +6
            Unknown fruit 'strawbery': did you mean 'strawberry'?
            stock> durian +1
            Unknown fruit 'durian'. The fruits are: strawberry, banana, pineapple, kiwi, mango.
            stock> kiwi
            Write FRUIT +N, FRUIT -N or FRUIT =N, such as 'kiwi +5'. An empty line closes the editor.
            stock> kiwi +1.5
            Write FRUIT +N, FRUIT -N or FRUIT =N, such as 'kiwi +5'. An empty line closes the editor.
            stock> +5
            Write FRUIT +N, FRUIT -N or FRUIT =N, such as 'kiwi +5'. An empty line closes the editor.
            stock> kiwi\\u{7} =\\u{0}
            Write FRUIT +N, FRUIT -N or FRUIT =N, such as 'kiwi +5'. An empty line closes the editor.
            stock>\u{20}
            stock:
              🍓  딸기      strawberry                    0
              🍌  바나나    banana      9223372036854775806
              🍍  파인애플  pineapple                     3
              🥝  키위      kiwi                          0
              🥭  망고      mango                        15
            > exit

            """)
        #expect(session.store.counts == [0, Int.max - 1, 3, 0, 15])
    }

    @Test func unknownInputSuggestsOrPointsToHelp() throws {
        let book = try canonicalBook()
        let session = CounterSession(book: book, [
            "mango-jiuce",
            "딸바주스",
            "hepl",
            "xyzzy\u{1b}[31m",
            "99",
            "0",
            "99999999999999999999999",
            "strawberry",
            String(repeating: "ab", count: 50),
            "   ",
            "QUIT",
        ])
        #expect(session.transcript == openingScreen + hint + """
            > mango-jiuce
            Unknown order 'mango-jiuce': did you mean 'mango-juice'?
            > 딸바주스
            Unknown order '딸바주스': did you mean '딸바쥬스'?
            > hepl
            Unknown order 'hepl': did you mean 'help'?
            > xyzzy\\u{1b}[31m
            Unknown order 'xyzzy\\u{1b}[31m'. Type 'help' to see how to order.
            > 99
            There is no '99' on the menu; choose 1 to 7.
            > 0
            There is no '0' on the menu; choose 1 to 7.
            > 99999999999999999999999
            There is no '99999999999999999999999' on the menu; choose 1 to 7.
            > strawberry
            'strawberry' is a fruit, not a menu item: did you mean 'strawberry-juice' (딸기쥬스) or 'strawberry-banana-juice' (딸바쥬스)? Type 'edit' to change the stock.
            > \(String(repeating: "ab", count: 50))
            Unknown order '\(String(repeating: "ab", count: 20))...'. Type 'help' to see how to order.
            >\u{20}\u{20}\u{20}\u{20}
            > QUIT

            """)
        #expect(session.store == FruitStore(book: book))
    }

    /// A partial or misspelt name gets the menu items it may mean (`MenuSearch`),
    /// by id and by label; a whole name within reach still gets the one.
    @Test func partialAndMisspeltNamesGetTheNearestItems() throws {
        let book = try canonicalBook()
        let session = CounterSession(book: book, ["strawbery", "mango", "Kiwii", "망고", "pine", "juice", "mango-jiuce", "q"])
        #expect(session.transcript == openingScreen + hint + """
            > strawbery
            Unknown order 'strawbery': did you mean 'strawberry-juice' (딸기쥬스) or 'strawberry-banana-juice' (딸바쥬스)?
            > mango
            'mango' is a fruit, not a menu item: did you mean 'mango-juice' (망고쥬스) or 'mango-kiwi-juice' (망고키위쥬스)? Type 'edit' to change the stock.
            > Kiwii
            Unknown order 'Kiwii': did you mean 'kiwi-juice' (키위쥬스) or 'mango-kiwi-juice' (망고키위쥬스)?
            > 망고
            '망고' is a fruit, not a menu item: did you mean 'mango-juice' (망고쥬스) or 'mango-kiwi-juice' (망고키위쥬스)? Type 'edit' to change the stock.
            > pine
            Unknown order 'pine': did you mean 'pineapple-juice' (파인애플쥬스)?
            > juice
            Unknown order 'juice': did you mean 'strawberry-juice' (딸기쥬스), 'banana-juice' (바나나쥬스), 'kiwi-juice' (키위쥬스), 'pineapple-juice' (파인애플쥬스) or 'strawberry-banana-juice' (딸바쥬스)?
            > mango-jiuce
            Unknown order 'mango-jiuce': did you mean 'mango-juice'?
            > q

            """)
        #expect(session.store == FruitStore(book: book))
        #expect(session.day.orders == 0)
    }

    /// Substitutes at the counter: a served order says what stood in, and a
    /// refusal names the substitute that ran short and the fruit it stood in for.
    @Test func theCounterSaysWhatStoodIn() throws {
        let compilation = compile(yaml: SubstitutesInReportsTests.yaml)
        let book = try #require(compilation.book, "\(compilation.diagnostics)")
        let session = CounterSession(book: book, ["strawberry-juice", "strawberry-juice", "strawberry-juice", "n"])
        #expect(session.transcript.contains("strawberry-juice is ready. Enjoy!\nMade with frozen-strawberry 4 for strawberry.\n"))
        #expect(session.transcript.contains(
            "strawberry-juice needs more fruit:\n  strawberry: need 6, have 0\n  frozen-strawberry for strawberry: need 6, have 1\n"))
        #expect(session.day.served == 2 && session.day.refused == 1)
        #expect(session.store.counts == [0, 1, 9])
    }

    @Test func helpStockAndMenuCommands() throws {
        let book = try canonicalBook()
        let session = CounterSession(book: book, ["6", "help", "Stock", "menu", "q"])
        let afterMango = """
            stock:
              🍓  딸기      strawberry  10
              🍌  바나나    banana      10
              🍍  파인애플  pineapple   10
              🥝  키위      kiwi        10
              🥭  망고      mango        7

            """
        #expect(session.transcript == openingScreen + hint + """
            > 6
            망고쥬스 is ready. Enjoy!
            \(afterMango)> help
            To order, type a menu number, id or label, such as '1', 'strawberry-juice' or '딸기쥬스'.
            When there is not enough fruit, answer 'y' to edit the stock.
            Commands:
              menu   show the stock and the menu
              stock  show the stock
              edit   edit the stock
              help   show this help
              quit   close the counter (also 'exit', 'q' or Ctrl-D)
            > Stock
            \(afterMango)> menu
            \(afterMango)
            menu:
              1  딸기쥬스      sold out
              2  바나나쥬스    ready
              3  키위쥬스      ready
              4  파인애플쥬스  ready
              5  딸바쥬스      ready
              6  망고쥬스      ready
              7  망고키위쥬스  ready

            > q

            """)
        #expect(session.store.counts == [10, 10, 10, 10, 7])
    }

    @Test(arguments: ["quit", "exit", "q", "Quit", " q "])
    func quitStopsReadingAndReturnsTheStock(_ word: String) throws {
        let book = try canonicalBook()
        let session = CounterSession(book: book, ["2", word, "2"])
        #expect(session.store.counts == [10, 8, 10, 10, 10])
        #expect(session.unread == ["2"])
        #expect(session.transcript.hasSuffix("> \(word)\n"))
    }

    @Test func endOfInputAtTheQuestionQuits() throws {
        let book = try canonicalBook()
        let session = CounterSession(book: book, ["1"])
        #expect(session.transcript == openingScreen + hint + """
            > 1
            딸기쥬스 needs more fruit:
              strawberry: need 16, have 10
            Not enough fruit. Edit the stock? [y/N]\u{20}

            """)
        #expect(session.store == FruitStore(book: book))
    }

    @Test func endOfInputInTheEditorQuitsKeepingTheEdits() throws {
        let book = try canonicalBook()
        let session = CounterSession(book: book, ["1", "yes", "banana -4"])
        #expect(session.transcript == openingScreen + hint + """
            > 1
            딸기쥬스 needs more fruit:
              strawberry: need 16, have 10
            Not enough fruit. Edit the stock? [y/N] yes
            Edit the stock: FRUIT +N adds, FRUIT -N takes, FRUIT =N sets (FRUIT is an id or a label).
            An empty line closes the editor.
            stock:
              🍓  딸기      strawberry  10
              🍌  바나나    banana      10
              🍍  파인애플  pineapple   10
              🥝  키위      kiwi        10
              🥭  망고      mango       10
            stock> banana -4
            banana: 10 -> 6
            stock>\u{20}

            """)
        #expect(session.store.counts == [10, 6, 10, 10, 10])
    }

    @Test func endOfInputAtOnceQuits() throws {
        let book = try canonicalBook()
        let session = CounterSession(book: book, [])
        #expect(session.transcript == openingScreen + hint + ">\u{20}\n")
        #expect(session.store == FruitStore(book: book))
    }

    /// Prices, a fruit with no emoji and no label, and a menu item with no label.
    @Test func pricesAndPlainNamesKeepTheColumnsAligned() throws {
        let compilation = compile(yaml: """
            version: 1
            fruits:
              mango: { label: 망고, emoji: 🥭 }
              lime:
            stock:
              mango: 4
            recipes:
              base: { mango: 1, lime: 1 }
            menu:
              mango-lime:
                label: 망고라임
                price: 4500
                recipe: { base: 1, mango: 1 }
              lime-soda:
                recipe: { lime: 2 }
              mango-shot:
                label: 망고샷
                price: 12000
                recipe: { mango: 1 }
            """)
        #expect(compilation.diagnostics.isEmpty, "\(compilation.spots)")
        let book = try #require(compilation.book)
        let session = CounterSession(book: book, ["3", "mango-lime", "", "edit", "lime =2", "", "망고라임"])
        #expect(session.transcript == """
            stock:
              🥭  망고  mango  4
                  lime         0

            menu:
              1  망고라임    4500  sold out
              2  lime-soda         sold out
              3  망고샷     12000  ready

            Type a menu number, id or label to order, or 'help'.
            > 3
            망고샷 is ready. Enjoy!
            stock:
              🥭  망고  mango  3
                  lime         0
            > mango-lime
            망고라임 needs more fruit:
              lime: need 1, have 0
            Not enough fruit. Edit the stock? [y/N]\u{20}
            > edit
            Edit the stock: FRUIT +N adds, FRUIT -N takes, FRUIT =N sets (FRUIT is an id or a label).
            An empty line closes the editor.
            stock:
              🥭  망고  mango  3
                  lime         0
            stock> lime =2
            lime: 0 -> 2
            stock>\u{20}
            stock:
              🥭  망고  mango  3
                  lime         2
            > 망고라임
            망고라임 is ready. Enjoy!
            stock:
              🥭  망고  mango  1
                  lime         1
            >\u{20}

            """)
        #expect(session.store.counts == [1, 1])
    }

    /// Megabyte lines and undecodable bytes are answered like any other input.
    @Test func hugeAndBinaryInputIsAnsweredAndChangesNothing() throws {
        let book = try canonicalBook()
        let nines = String(repeating: "9", count: 1 << 20)
        let letters = String(repeating: "x", count: 1 << 20)
        let binary = String(decoding: [0xFF, 0x00, 0x1B, 0x5B, 0x32, 0x4A, 0xC3], as: UTF8.self)
        let session = CounterSession(book: book, [
            nines, letters, binary, "edit", "kiwi +" + nines, "kiwi =-" + nines, letters + " +1", binary + " -1", binary, "", "q",
        ])
        let nines40 = String(repeating: "9", count: 40)
        let letters40 = String(repeating: "x", count: 40)
        let stock = """
            stock:
              🍓  딸기      strawberry  10
              🍌  바나나    banana      10
              🍍  파인애플  pineapple   10
              🥝  키위      kiwi        10
              🥭  망고      mango       10

            """
        #expect(session.transcript == openingScreen + hint + """
            > \(nines)
            There is no '\(nines40)...' on the menu; choose 1 to 7.
            > \(letters)
            Unknown order '\(letters40)...'. Type 'help' to see how to order.
            > \u{FFFD}\\u{0}\\u{1b}[2J\u{FFFD}
            Unknown order '\u{FFFD}\\u{0}\\u{1b}[2J\u{FFFD}'. Type 'help' to see how to order.
            > edit
            Edit the stock: FRUIT +N adds, FRUIT -N takes, FRUIT =N sets (FRUIT is an id or a label).
            An empty line closes the editor.
            \(stock)stock> kiwi +\(nines)
            Refused: the amount is larger than 9223372036854775807; kiwi stays at 10.
            stock> kiwi =-\(nines)
            Refused: stock can never go below 0; kiwi stays at 10.
            stock> \(letters) +1
            Unknown fruit '\(letters40)...'. The fruits are: strawberry, banana, pineapple, kiwi, mango.
            stock> \u{FFFD}\\u{0}\\u{1b}[2J\u{FFFD} -1
            Unknown fruit '\u{FFFD}\\u{0}\\u{1b}[2J\u{FFFD}'. The fruits are: strawberry, banana, pineapple, kiwi, mango.
            stock> \u{FFFD}\\u{0}\\u{1b}[2J\u{FFFD}
            Write FRUIT +N, FRUIT -N or FRUIT =N, such as 'kiwi +5'. An empty line closes the editor.
            stock>\u{20}
            \(stock)> q

            """)
        #expect(session.store == FruitStore(book: book))
    }

    /// A book may have fruit and no menu yet; the counter still runs and edits stock.
    @Test func emptyMenu() throws {
        let compilation = compile(yaml: "fruits:\n  kiwi:\nstock:\n  kiwi: 1\n")
        #expect(compilation.diagnostics.isEmpty, "\(compilation.spots)")
        let book = try #require(compilation.book)
        let session = CounterSession(book: book, ["1", "help", "edit", "kiwi +1", "", "q"])
        #expect(session.transcript == """
            stock:
              kiwi  1

            menu: (empty)

            Type a menu number, id or label to order, or 'help'.
            > 1
            There is no '1' on the menu: the menu is empty.
            > help
            The menu is empty.
            Commands:
              menu   show the stock and the menu
              stock  show the stock
              edit   edit the stock
              help   show this help
              quit   close the counter (also 'exit', 'q' or Ctrl-D)
            > edit
            Edit the stock: FRUIT +N adds, FRUIT -N takes, FRUIT =N sets (FRUIT is an id or a label).
            An empty line closes the editor.
            stock:
              kiwi  1
            stock> kiwi +1
            kiwi: 1 -> 2
            stock>\u{20}
            stock:
              kiwi  2
            > q

            """)
        #expect(session.store.counts == [2])
    }
}

/// `StockEditor.parse` reads the operator and number from the right of a line.
@Suite struct CounterStockEditorParseTests {
    typealias Edit = StockEditor.Edit

    @Test func wellFormedLines() {
        #expect(StockEditor.parse("kiwi +5") == Edit(name: "kiwi", operation: .add, amount: .value(5)))
        #expect(StockEditor.parse("kiwi+5") == Edit(name: "kiwi", operation: .add, amount: .value(5)))
        #expect(StockEditor.parse("dragon-fruit -2") == Edit(name: "dragon-fruit", operation: .take, amount: .value(2)))
        #expect(StockEditor.parse("kiwi=007") == Edit(name: "kiwi", operation: .set, amount: .value(7)))
        #expect(StockEditor.parse("passion fruit = 3") == Edit(name: "passion fruit", operation: .set, amount: .value(3)))
        #expect(StockEditor.parse("kiwi =-0") == Edit(name: "kiwi", operation: .set, amount: .value(0)))
        #expect(StockEditor.parse("kiwi = - 4") == Edit(name: "kiwi", operation: .set, amount: .negative))
        #expect(StockEditor.parse("kiwi =-99999999999999999999") == Edit(name: "kiwi", operation: .set, amount: .negative))
        #expect(StockEditor.parse("kiwi +9223372036854775807") == Edit(name: "kiwi", operation: .add, amount: .value(Int.max)))
        #expect(StockEditor.parse("kiwi +9223372036854775808") == Edit(name: "kiwi", operation: .add, amount: .tooLarge))
    }

    @Test(arguments: ["kiwi", "kiwi 5", "+5", " = 5", "kiwi +", "kiwi +5x", "kiwi +1.5", "kiwi *5", "kiwi +٣", "kiwi +５"])
    func malformedLines(_ line: String) {
        #expect(StockEditor.parse(line[...]) == nil)
    }
}

/// `FruitStore.take(_:by:)`, the editor's `-N`.
@Suite struct CounterFruitStoreTakeTests {
    @Test func takesDownToZeroAndNoFurther() throws {
        var store = FruitStore(counts: [5, 0])
        #expect(try store.take(0, by: 2) == 3)
        #expect(try store.take(0, by: 3) == 0)
        #expect(throws: FruitStore.ChangeError.notEnough(have: 0)) { try store.take(0, by: 1) }
        #expect(throws: FruitStore.ChangeError.notEnough(have: 0)) { try store.take(1, by: Int.max) }
        #expect(store.counts == [0, 0])
    }

    @Test func refusesAmountsBelowOneAndUnknownFruit() throws {
        var store = FruitStore(counts: [5])
        #expect(throws: FruitStore.ChangeError.amountTooSmall(minimum: 1)) { try store.take(0, by: 0) }
        #expect(throws: FruitStore.ChangeError.amountTooSmall(minimum: 1)) { try store.take(0, by: Int.min) }
        #expect(throws: FruitStore.ChangeError.unknownFruit) { try store.take(1, by: 1) }
        #expect(throws: FruitStore.ChangeError.unknownFruit) { try store.take(-1, by: 1) }
        #expect(store.counts == [5])
    }
}
