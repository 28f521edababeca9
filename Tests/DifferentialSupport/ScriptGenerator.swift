/// A random order script, and which of its lines were written to be invalid.
package struct GeneratedScript: Sendable {
    package var lines: [String]
    /// 1-based numbers of the lines the generator meant to be skipped. The
    /// reference model works this out again from the text; the two must agree.
    package var invalidLines: [Int]
    /// Which kinds of invalid line were written, by name, for the coverage test.
    package var invalidKinds: Set<String>

    /// The script as a file. `juice-run` must read it the same whether lines
    /// end in `\n` or `\r\n` and whether the last line has an ending.
    package func text(lineEnding: String = "\n", finalLineEnding: Bool = true) -> String {
        lines.joined(separator: lineEnding) + (finalLineEnding ? lineEnding : "")
    }
}

/// Writes order scripts against a generated book: orders (`MENU-ID`,
/// `MENU-ID xN` with N 1–5), restocks (`restock FRUIT N`, N 1–20), comments,
/// blank lines, trailing comments and odd spacing, and (when asked) invalid
/// lines of every kind the grammar rejects.
///
/// Restocks mostly go to the fruits the menu uses most, in proportion, and
/// orders ask for more fruit than restocks bring: stock then hovers near zero
/// for every fruit instead of piling up in the unpopular ones, so orders are
/// served and refused alike and refusals often name several fruits.
///
/// Nothing here uses `set` or `stock` as a first word: those are becoming
/// commands, and a line meant to be invalid must stay invalid.
package enum ScriptGenerator {
    package static func generate(
        for book: GeneratedBook, lineCount: Int, invalidLines: Bool = true, using rng: inout SplitMix64
    ) -> GeneratedScript {
        let menu = book.menuIDs
        let fruits = book.fruits
        let demand = ReferenceShop(book: book).demand
        var script = GeneratedScript(lines: [], invalidLines: [], invalidKinds: [])
        for number in 1...lineCount {
            let roll = rng.int(in: 1...100)
            let line: String
            if roll <= 30 || (roll > 92 && !invalidLines) {
                let item = rng.pick(menu)
                line = dress(rng.chance(1, in: 2) ? [item] : [item, "x\(rng.int(in: 1...5))"], using: &rng)
            } else if roll <= 70 {
                let fruit = rng.chance(3, in: 4) ? weightedPick(fruits, weights: demand, using: &rng) : rng.pick(fruits)
                line = dress(["restock", fruit, String(rng.int(in: 1...20))], using: &rng)
            } else if roll <= 92 {
                line = rng.pick(["", "   ", "\t", "# a comment", "   # an indented comment", "#", "## restock \(rng.pick(fruits)) 5"])
            } else {
                let (kind, words) = invalidWords(book, using: &rng)
                line = dress(words, using: &rng)
                script.invalidLines.append(number)
                script.invalidKinds.insert(kind)
            }
            script.lines.append(line)
        }
        return script
    }

    /// An item drawn with probability proportional to its weight; uniformly when all weigh 0.
    static func weightedPick(_ items: [String], weights: [Int], using rng: inout SplitMix64) -> String {
        let total = weights.reduce(0, +)
        guard total > 0 else { return rng.pick(items) }
        var ticket = rng.int(in: 1...total)
        for (item, weight) in zip(items, weights) {
            if ticket <= weight { return item }
            ticket -= weight
        }
        return items[items.count - 1]
    }

    /// Every way a line can be wrong, each named. All of them must be skipped.
    static func invalidWords(_ book: GeneratedBook, using rng: inout SplitMix64) -> (String, [String]) {
        let item = rng.pick(book.menuIDs)
        let fruit = rng.pick(book.fruits)
        var choices: [(String, [String])] = [
            ("unknown id", ["no-such-juice"]),
            ("typo", [item + "s"]),
            ("fruit ordered", [fruit]),
            ("x0", [item, "x0"]),
            ("bare x", [item, "x"]),
            ("count without x", [item, "3"]),
            ("three words", [item, "x2", "x3"]),
            ("leading zero count", [item, "x01"]),
            ("negative count", [item, "x-1"]),
            ("plus count", [item, "x+2"]),
            ("count over the limit", [item, "x1000001"]),
            ("restock alone", ["restock"]),
            ("restock without amount", ["restock", fruit]),
            ("restock 0", ["restock", fruit, "0"]),
            ("restock unknown fruit", ["restock", "no-such-fruit", "5"]),
            ("restock negative", ["restock", fruit, "-3"]),
            ("restock fraction", ["restock", fruit, "2.5"]),
            ("restock leading zero", ["restock", fruit, "007"]),
            ("restock extra word", ["restock", fruit, "5", "more"]),
            ("restock a menu item", ["restock", item, "3"]),
            ("capitalised restock", ["Restock", fruit, "3"]),
        ]
        if !book.recipeIDs.isEmpty {
            choices.append(("recipe ordered", [rng.pick(book.recipeIDs)]))
        }
        return rng.pick(choices)
    }

    /// Joins words with varied spacing, sometimes indented or followed by a
    /// comment, with or without a space before the `#`.
    static func dress(_ words: [String], using rng: inout SplitMix64) -> String {
        var line = ""
        for (index, word) in words.enumerated() {
            if index > 0 { line += rng.chance(1, in: 6) ? rng.pick(["  ", "\t", " \t "]) : " " }
            line += word
        }
        if rng.chance(1, in: 10) { line = rng.pick([" ", "  ", "\t"]) + line }
        switch rng.int(in: 1...10) {
        case 1: line += "  # \(rng.pick(["for table 3", "again", "restock 9 soon", "x5"]))"
        case 2: line += "#no space"
        case 3: line += " \t"
        default: break
        }
        return line
    }
}
