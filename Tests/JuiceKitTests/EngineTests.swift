import Testing
@testable import JuiceBook
@testable import JuiceEngine

/// The engine on the book in `Fixtures/shop.yaml` (see `shopBook()`).
@Suite struct FruitStoreTests {
    @Test func openingStockComesFromTheBook() throws {
        let store = FruitStore(book: try shopBook())
        #expect(store.counts == [5, 2, 1])
        #expect(store[1] == 2)
        #expect(store[99] == 0)
        #expect(store[-1] == 0)
    }

    @Test func restockAddsAndReturnsTheNewCount() throws {
        var store = FruitStore(counts: [5, 0])
        #expect(try store.restock(1, by: 3) == 3)
        #expect(try store.restock(0, by: 1) == 6)
        #expect(store.counts == [6, 3])
    }

    @Test func restockOverflowThrowsAndLeavesStockUnchanged() throws {
        var store = FruitStore(counts: [Int.max, Int.max - 1, 7])
        #expect(throws: FruitStore.ChangeError.overflow) { try store.restock(0, by: 1) }
        #expect(throws: FruitStore.ChangeError.overflow) { try store.restock(1, by: 2) }
        #expect(throws: FruitStore.ChangeError.overflow) { try store.restock(2, by: Int.max) }
        #expect(store.counts == [Int.max, Int.max - 1, 7])
        // Exactly up to Int.max is fine.
        #expect(try store.restock(1, by: 1) == Int.max)
    }

    @Test(arguments: [0, -1, Int.min])
    func restockBelowOneIsRefused(_ amount: Int) throws {
        var store = FruitStore(counts: [4])
        #expect(throws: FruitStore.ChangeError.amountTooSmall(minimum: 1)) { try store.restock(0, by: amount) }
        #expect(store.counts == [4])
    }

    @Test(arguments: [-1, 2, Int.max])
    func unknownFruitIndexIsRefused(_ fruit: Int) throws {
        var store = FruitStore(counts: [4, 4])
        #expect(throws: FruitStore.ChangeError.unknownFruit) { try store.restock(fruit, by: 1) }
        #expect(throws: FruitStore.ChangeError.unknownFruit) { try store.set(fruit, to: 1) }
        #expect(store.counts == [4, 4])
    }

    @Test func setAcceptsZeroAndRefusesNegatives() throws {
        var store = FruitStore(counts: [4, 4])
        try store.set(0, to: 0)
        try store.set(1, to: Int.max)
        #expect(store.counts == [0, Int.max])
        #expect(throws: FruitStore.ChangeError.amountTooSmall(minimum: 0)) { try store.set(0, to: -1) }
        #expect(store.counts == [0, Int.max])
    }

    @Test func shortagesListEveryShortFruit() {
        let store = FruitStore(counts: [1, 5, 0])
        let needs = [
            RecipeBook.FruitAmount(fruit: 0, amount: 2),
            RecipeBook.FruitAmount(fruit: 1, amount: 5),
            RecipeBook.FruitAmount(fruit: 2, amount: 1),
        ]
        #expect(store.shortages(for: needs) == [
            Shortage(fruit: 0, need: 2, have: 1),
            Shortage(fruit: 2, need: 1, have: 0),
        ])
        #expect(FruitStore(counts: [2, 5, 1]).shortages(for: needs).isEmpty)
    }
}

@Suite struct JuiceMakerTests {
    @Test func servingTakesExactlyTheFlattenedNeeds() throws {
        let book = try shopBook()
        var maker = JuiceMaker(book: book)
        let juice = try #require(book.menuIndex("mango-juice"))
        #expect(maker.make(juice) == .served)
        // [5, 2, 1] - (mango 2, lime 1)
        #expect(maker.store.counts == [3, 2, 0])
    }

    @Test func refusalTakesNothing() throws {
        let book = try shopBook()
        var maker = JuiceMaker(book: book)
        let juice = try #require(book.menuIndex("mango-juice"))
        #expect(maker.make(juice) == .served)
        // Mango would be enough (3 >= 2), but lime is out: nothing is taken.
        #expect(maker.make(juice) == .refused([Shortage(fruit: 2, need: 1, have: 0)]))
        #expect(maker.store.counts == [3, 2, 0])
    }

    @Test func refusalListsEveryShortFruitInFruitOrder() throws {
        let book = try shopBook()
        var maker = JuiceMaker(book: book, store: FruitStore(counts: [1, 0, 1]))
        // smoothie needs mango 2, kiwi 1, lime 3; every one is short.
        #expect(maker.make("smoothie") == .refused([
            Shortage(fruit: 0, need: 2, have: 1),
            Shortage(fruit: 1, need: 1, have: 0),
            Shortage(fruit: 2, need: 3, have: 1),
        ]))
        #expect(maker.store.counts == [1, 0, 1])
    }

    @Test func makeByID() throws {
        var maker = JuiceMaker(book: try shopBook())
        #expect(maker.make("kiwi-cup") == .served)
        #expect(maker.make("kiwi-cup") == .served)
        #expect(maker.make("kiwi-cup") == .refused([Shortage(fruit: 1, need: 1, have: 0)]))
        #expect(maker.make("nope") == nil)
        // An intermediate recipe and a fruit are not on the menu.
        #expect(maker.make("base") == nil)
        #expect(maker.make("mango") == nil)
        #expect(maker.store.counts == [5, 0, 1])
    }
}
