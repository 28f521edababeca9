/// Writes short order scripts for the property tests: everything
/// `ScriptGenerator` writes, plus the `set FRUIT N` and `stock` commands and
/// the invalid forms of both.
///
/// `ScriptGenerator` must never write `set` or `stock` (the differential tests
/// depend on its exact output for their seeds, and its model has neither), so
/// this is a separate generator that borrows its helpers rather than a change
/// to it. Restocks follow the menu's demand in the same way, so that stock
/// hovers near zero and orders are served and refused alike; `set` mostly
/// writes small counts and often 0, which makes the next orders refusals.
package enum PropertyScriptGenerator {
    package static func generate(
        for book: GeneratedBook, lineCount: Int, using rng: inout SplitMix64
    ) -> GeneratedScript {
        let menu = book.menuIDs
        let fruits = book.fruits
        let demand = ReferenceShop(book: book).demand
        var script = GeneratedScript(lines: [], invalidLines: [], invalidKinds: [])
        for number in 1...max(1, lineCount) {
            let roll = rng.int(in: 1...100)
            let line: String
            if roll <= 36 {
                let item = rng.pick(menu)
                line = ScriptGenerator.dress(rng.chance(1, in: 2) ? [item] : [item, "x\(rng.int(in: 1...5))"], using: &rng)
            } else if roll <= 60 {
                let fruit = rng.chance(3, in: 4)
                    ? ScriptGenerator.weightedPick(fruits, weights: demand, using: &rng) : rng.pick(fruits)
                line = ScriptGenerator.dress(["restock", fruit, String(rng.int(in: 1...20))], using: &rng)
            } else if roll <= 70 {
                let amount = rng.chance(1, in: 4) ? 0 : rng.int(in: 1...30)
                line = ScriptGenerator.dress(["set", rng.pick(fruits), String(amount)], using: &rng)
            } else if roll <= 75 {
                line = ScriptGenerator.dress(["stock"], using: &rng)
            } else if roll <= 88 {
                line = rng.pick(["", "   ", "\t", "# a comment", "#", "# set \(rng.pick(fruits)) 0", "  # stock"])
            } else {
                let (kind, words) = rng.chance(1, in: 3)
                    ? invalidCommandWords(book, using: &rng)
                    : ScriptGenerator.invalidWords(book, using: &rng)
                line = ScriptGenerator.dress(words, using: &rng)
                script.invalidLines.append(number)
                script.invalidKinds.insert(kind)
            }
            script.lines.append(line)
        }
        return script
    }

    /// Every way a `set` or `stock` line can be wrong, each named.
    static func invalidCommandWords(_ book: GeneratedBook, using rng: inout SplitMix64) -> (String, [String]) {
        let fruit = rng.pick(book.fruits)
        let item = rng.pick(book.menuIDs)
        return rng.pick([
            ("set alone", ["set"]),
            ("set without amount", ["set", fruit]),
            ("set negative", ["set", fruit, "-1"]),
            ("set fraction", ["set", fruit, "1.5"]),
            ("set leading zero", ["set", fruit, "05"]),
            ("set unknown fruit", ["set", "no-such-fruit", "4"]),
            ("set a menu item", ["set", item, "2"]),
            ("set extra word", ["set", fruit, "2", "more"]),
            ("set too large", ["set", fruit, "99999999999999999999"]),
            ("stock with a word", ["stock", fruit]),
            ("capitalised set", ["Set", fruit, "2"]),
        ])
    }
}
