/// Writes a generated book in plain block style over 2–4 files, with faults.
///
/// `BookGenerator`'s own writer is private and must keep its exact output for
/// the differential seeds, so faults are not added there. This writer works
/// from the book's plain data instead: it applies each fault to the data (or
/// notes where to write an extra line), then gives every entry to a random
/// file. File names are drawn so that sorted path order, the order the tools
/// read files in, often differs from the order they are listed in.
package struct PlainBookWriter {
    private var fruits: [String]
    private var stock: [String: Int]
    private var blends: [GeneratedBook.Blend]
    /// Entries written twice, the second time in another file.
    private var duplicated: [Entry] = []
    /// Fruits whose stock line is written twice, in different files.
    private var restated: [String] = []
    /// Blend ids whose menu entry gets a misspelt `prize:` key.
    private var misspeltKey: Set<String> = []
    /// Fruit ids whose declaration line ends in a suppression comment, and the rule it names.
    private var suppressions: [String: String] = [:]
    private var brokenFile = false

    private enum Entry: Hashable {
        case fruit(String)
        case stock(String)
        case blend(Int)
    }

    /// The files, and the faults that were written (a fault with no place to go is left out).
    package static func write(
        _ book: GeneratedBook, faults: [BookFault], using rng: inout SplitMix64
    ) -> (files: [GeneratedBook.File], faults: [BookFault]) {
        var writer = PlainBookWriter(fruits: book.fruits, stock: book.openingStock, blends: book.blends)
        let written = faults.filter { writer.apply($0, using: &rng) }
        return (writer.layOut(using: &rng), written)
    }

    private init(fruits: [String], stock: [String: Int], blends: [GeneratedBook.Blend]) {
        self.fruits = fruits
        self.stock = stock
        self.blends = blends
    }

    // MARK: Faults

    /// Writes `fault` into the data; false when the book offers no place for it
    /// (an earlier fault may have emptied the only candidate).
    private mutating func apply(_ fault: BookFault, using rng: inout SplitMix64) -> Bool {
        switch fault {
        case .unknownFruit:
            guard let (index, position) = pickIngredient(where: { fruits.contains($0.id) }, using: &rng) else { return false }
            blends[index].ingredients[position].id += "o"
        case .zeroAmount:
            guard let (index, position) = pickIngredient(where: { _ in true }, using: &rng) else { return false }
            blends[index].ingredients[position].amount = 0
        case .negativeStock:
            stock[rng.pick(fruits)] = -rng.int(in: 1...9)
        case .emptyRecipe:
            blends[rng.int(in: 0...(blends.count - 1))].ingredients = []
        case .cycle:
            // A blend's blend ingredient gets the blend back as an
            // ingredient: a -> b -> a. With none to hand, one contains itself.
            var pairs: [(user: Int, inner: Int)] = []
            for (user, blend) in blends.enumerated() {
                for ingredient in blend.ingredients {
                    if let inner = blends.firstIndex(where: { $0.id == ingredient.id }) { pairs.append((user, inner)) }
                }
            }
            if pairs.isEmpty {
                let index = rng.int(in: 0...(blends.count - 1))
                blends[index].ingredients.append(.init(id: blends[index].id, amount: 1))
            } else {
                let (user, inner) = rng.pick(pairs)
                blends[inner].ingredients.append(.init(id: blends[user].id, amount: 1))
            }
        case .duplicateAcrossFiles:
            duplicated.append(rng.chance(1, in: 2) ? .fruit(rng.pick(fruits)) : .blend(rng.int(in: 0...(blends.count - 1))))
        case .duplicateStock:
            let fruit = rng.pick(fruits)
            if stock[fruit] == nil { stock[fruit] = rng.int(in: 0...20) }
            restated.append(fruit)
        case .syntaxError:
            brokenFile = true
        case .unknownKey:
            guard let item = blends.first(where: \.isMenuItem) else { return false }
            misspeltKey.insert(item.id)
        case .reservedName:
            let items = blends.indices.filter { blends[$0].isMenuItem }
            guard !items.isEmpty else { return false }
            blends[rng.pick(items)].id = rng.pick(["stock", "set", "restock"])
        case .suppression:
            suppressions[rng.pick(fruits)] = rng.pick(["unused-fruit", "missing-stock", "never-makeable", "unknwn-fruit"])
        }
        return true
    }

    /// A blend and the position of one of its ingredients that satisfies
    /// `condition`, or nil when none does (another fault may have emptied them).
    private func pickIngredient(
        where condition: (GeneratedBook.Ingredient) -> Bool, using rng: inout SplitMix64
    ) -> (Int, Int)? {
        var candidates: [(Int, Int)] = []
        for (index, blend) in blends.enumerated() {
            for (position, ingredient) in blend.ingredients.enumerated() where condition(ingredient) {
                candidates.append((index, position))
            }
        }
        return candidates.isEmpty ? nil : rng.pick(candidates)
    }

    // MARK: Layout

    private func layOut(using rng: inout SplitMix64) -> [GeneratedBook.File] {
        let names = Array(rng.shuffled(["fruits.yaml", "menu.yaml", "more/recipes.yml", "stock.yaml", "a-first.yaml", "z/last.yaml"])
            .prefix(rng.int(in: 2...4)))
        var placed = [[Entry]](repeating: [], count: names.count)
        var home: [Entry: Int] = [:]
        func place(_ entry: Entry, avoiding: Int? = nil, using rng: inout SplitMix64) {
            var file = rng.int(in: 0...(names.count - 1))
            if let avoiding, file == avoiding { file = (file + 1) % names.count }
            placed[file].append(entry)
            if home[entry] == nil { home[entry] = file }
        }
        for fruit in fruits {
            place(.fruit(fruit), using: &rng)
            if stock[fruit] != nil { place(.stock(fruit), using: &rng) }
        }
        for index in blends.indices { place(.blend(index), using: &rng) }
        for entry in duplicated { place(entry, avoiding: home[entry], using: &rng) }
        for fruit in restated { place(.stock(fruit), avoiding: home[.stock(fruit)], using: &rng) }

        let broken = brokenFile ? rng.int(in: 0...(names.count - 1)) : nil
        return names.indices.map { file in
            var text = rng.chance(1, in: 3) ? "version: 1\n" : ""
            text += sections(placed[file], using: &rng)
            if file == broken { text += "---\nmenu: { broken: [\n" }
            return GeneratedBook.File(path: names[file], text: text)
        }
    }

    private func sections(_ entries: [Entry], using rng: inout SplitMix64) -> String {
        var fruitLines: [String] = [], stockLines: [String] = [], recipeLines: [String] = [], menuLines: [String] = []
        for entry in entries {
            switch entry {
            case .fruit(let id):
                let pooled = BookGenerator.fruitPool.first { $0.id == id }
                var line = "  \(id):"
                if let pooled, rng.chance(1, in: 2) { line += " { label: \(pooled.label), emoji: \(pooled.emoji) }" }
                if let rule = suppressions[id] { line += "  # juice-lint disable-line \(rule)" }
                fruitLines.append(line)
            case .stock(let id):
                stockLines.append("  \(id): \(stock[id] ?? 0)")
            case .blend(let index):
                let blend = blends[index]
                let ingredients = "{ " + blend.ingredients.map { "\($0.id): \($0.amount)" }.joined(separator: ", ") + " }"
                if blend.isMenuItem {
                    menuLines.append("  \(blend.id):")
                    if misspeltKey.contains(blend.id) { menuLines.append("    prize: 300") }
                    menuLines.append("    recipe: \(blend.ingredients.isEmpty ? "{}" : ingredients)")
                } else if blend.ingredients.isEmpty {
                    recipeLines.append("  \(blend.id): {}")
                } else if rng.chance(1, in: 2) {
                    recipeLines.append("  \(blend.id): \(ingredients)")
                } else {
                    recipeLines.append("  \(blend.id):")
                    recipeLines += blend.ingredients.map { "    \($0.id): \($0.amount)" }
                }
            }
        }
        var text = ""
        for (key, lines) in [("fruits", fruitLines), ("stock", stockLines), ("recipes", recipeLines), ("menu", menuLines)]
        where !lines.isEmpty {
            text += key + ":\n" + lines.map { $0 + "\n" }.joined()
        }
        return text
    }
}
