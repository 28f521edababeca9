extension FruitStore {
    /// Takes `amount` (at least 1) of one fruit and returns the new count.
    ///
    /// Stock never goes below zero: taking more than there is throws
    /// `notEnough` and leaves the stock as it was. This is the stock editor's
    /// `-N`; an order takes its whole need through `JuiceMaker` instead.
    @discardableResult
    public mutating func take(_ fruit: Int, by amount: Int) throws(ChangeError) -> Int {
        guard counts.indices.contains(fruit) else { throw .unknownFruit }
        guard amount >= 1 else { throw .amountTooSmall(minimum: 1) }
        let have = counts[fruit]
        guard amount <= have else { throw .notEnough(have: have) }
        try set(fruit, to: have - amount)
        return have - amount
    }
}
