// TEMPORARY: stand-in for the counter on helper/counter; deleted at merge.
public struct InteractiveCounter {
    let store: FruitStore
    public init(book: RecipeBook, store: FruitStore, input: @escaping () -> String?, output: @escaping (String) -> Void) {
        self.store = store
    }
    public mutating func run() -> FruitStore { store }
}
