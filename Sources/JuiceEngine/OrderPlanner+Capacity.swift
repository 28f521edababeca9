
/// How many orders of one item a stock serves in a row: the planner's
/// decision asked over and over, without making each order.
extension OrderPlanner {
    /// How many orders of menu item `menu` in a row `counts` (by fruit) and
    /// `servings` (by recipe) serve, at most `limit`, and the stock they
    /// leave (nil when `withStock` is false); a count of nil when an order
    /// takes no fruit at all, however many.
    ///
    /// Without substitutes, `n` orders in a row take what one decision for
    /// `n` takes (the batch rule's running totals; a plain book's need × n),
    /// so the count is the most `n` that fits. With substitutes, the orders
    /// that fit without one come first, the same way; after that each
    /// order is decided on the stock the one before left.
    func capacity(
        _ menu: Int, counts: [Int], servings: [Int], limit: Int = Int.max, draft: inout Draft
    ) -> Int? {
        capacityAndStock(menu, counts: counts, servings: servings, limit: limit, draft: &draft).count
    }

    func capacityAndStock(
        _ menu: Int, counts: [Int], servings: [Int], limit: Int = Int.max, draft: inout Draft
    ) -> (count: Int?, after: FruitStore?) {
        guard limit > 0 else { return (0, nil) }
        let plain: Int?
        if let batches {
            plain = batches.capacity(menu: menu, stock: counts, onHand: servings, limit: limit, scratch: &draft.scratch)
        } else {
            plain = flatCapacity(menu, counts: counts, limit: limit)
        }
        guard declaresSubstitutes, let plain else { return (plain, nil) }
        var store = FruitStore(counts: counts, servings: servings)
        var none: [Int] = []
        if plain > 0, decide(menu, times: plain, counts: counts, servings: servings, substituting: false, into: &draft) {
            apply(draft, to: &store, counting: &none)
        }
        var served = plain
        var steps = 0
        while served < limit {
            guard decide(menu, times: 1, counts: store.counts, servings: store.servings, substituting: true, into: &draft) else { break }
            if batches == nil {
                // What one order takes stays the same while every fruit it
                // takes has that much left (which fruit serves, and which
                // substitute stands in, only change when one runs low), so
                // that many orders are taken at once: a stock of 10^18
                // frozen strawberries is not counted one order at a time.
                let taken = fruitTaken(draft, from: store.counts)
                var jump = limit - served
                for fruit in taken where fruit.amount > 0 { jump = min(jump, store.counts[fruit.fruit] / fruit.amount) }
                jump = max(jump, 1)
                for fruit in taken { store.counts[fruit.fruit] -= fruit.amount * jump }  // at most its stock
                served += jump
            } else {
                // Batches change what the next order takes; one at a time,
                // up to a bound that keeps a hover or a report prompt.
                steps += 1
                guard steps <= Self.maximumSubstitutedSteps else { break }
                apply(draft, to: &store, counting: &none)
                served += 1
            }
        }
        return (served, store)
    }

    /// How many orders in a row a capacity count goes past its first
    /// substitute one at a time in a book that keeps servings: past it,
    /// the count is a lower bound.
    static let maximumSubstitutedSteps = 1_000_000

    /// The least, over an item's flattened need, of stock ÷ need, at most
    /// `limit`; nil when it needs no fruit.
    func flatCapacity(_ menu: Int, counts: [Int], limit: Int) -> Int? {
        guard needs.spans.indices.contains(menu) else { return nil }
        var best: Int?
        for index in needs.spans[menu] {
            let need = needs.parts[index]
            guard need.amount > 0 else { continue }
            let have = counts.indices.contains(need.fruit) ? counts[need.fruit] : 0
            best = min(best ?? limit, have / need.amount)
        }
        return best
    }
}
