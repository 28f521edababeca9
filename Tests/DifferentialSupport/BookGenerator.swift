/// Draws a random, valid recipe book and writes it as YAML in many styles.
///
/// The book: 3–12 fruits, most with an opening stock of 0–50 and some with no
/// stock entry; 0–8 intermediate recipes and 3–15 menu items, interleaved. Each
/// blend has 1–4 distinct ingredients, amounts 1–5, chosen among the fruits
/// and the blends drawn before it, so the graph is acyclic but nests several
/// levels deep, and fruits inside a nested blend are often repeated beside it.
///
/// The YAML is spread over 1–3 files of 1–3 documents, with block and flow
/// styles, shuffled sections and entries (so a blend is often declared after
/// its user), comments, empty documents and sections, `version: 1`, `!!int`
/// amounts and `---` / `...` markers: every form the language allows, none that
/// it rejects.
///
/// With `substitutes: true`, about a third of the fruits also list one or two
/// other fruits as substitutes (version 2, ratios 1–3), drawn after everything
/// else, and a document holding one says `version: 2` where it would have said
/// `version: 1`. Off by default, so a seed draws the same book as before.
package enum BookGenerator {
    /// Each blend's total fruit count stays near this, so refusals and serves
    /// both happen against stocks of 0–50, no amount overflows, and the model's
    /// naive expansion (one call per path) stays small.
    static let sizeCap = 40

    /// id, label, emoji. One id is Hangul, so ids are not assumed to be ASCII.
    static let fruitPool: [(id: String, label: String, emoji: String)] = [
        ("apple", "사과", "🍎"), ("banana", "바나나", "🍌"), ("cherry", "체리", "🍒"),
        ("kiwi", "키위", "🥝"), ("mango", "망고", "🥭"), ("lime", "라임", "🍋"),
        ("pear", "배", "🍐"), ("peach", "복숭아", "🍑"), ("grape", "포도", "🍇"),
        ("melon", "멜론", "🍈"), ("pineapple", "파인애플", "🍍"), ("strawberry", "딸기", "🍓"),
        ("coconut", "코코넛", "🥥"), ("blueberry", "블루베리", "🫐"), ("유자", "Yuzu", "🍋"),
    ]
    static let recipeNames = ["syrup", "base", "puree", "blend", "mash", "cordial", "nectar", "pulp"]
    static let menuNames = ["sunrise", "tropic", "berry-blast", "green", "morning", "sunset", "velvet", "zing"]

    package static func generate(seed: UInt64, substitutes: Bool = false) -> GeneratedBook {
        var rng = SplitMix64(seed: seed)
        return generate(using: &rng, substitutes: substitutes)
    }

    package static func generate(using rng: inout SplitMix64, substitutes drawsSubstitutes: Bool = false) -> GeneratedBook {
        let pool = rng.shuffled(fruitPool)
        let fruits = Array(pool.prefix(rng.int(in: 3...12)))
        var stock: [String: Int] = [:]
        for fruit in fruits where !rng.chance(1, in: 5) {
            stock[fruit.id] = rng.int(in: 0...50)
        }

        let recipeCount = rng.int(in: 0...8)
        let menuCount = rng.int(in: 3...15)
        let kinds = rng.shuffled(Array(repeating: false, count: recipeCount) + Array(repeating: true, count: menuCount))
        var blends: [GeneratedBook.Blend] = []
        var sizes: [String: Int] = fruits.reduce(into: [:]) { $0[$1.id] = 1 }
        var fruitsInside: [String: [String]] = fruits.reduce(into: [:]) { $0[$1.id] = [$1.id] }
        for (number, isMenuItem) in kinds.enumerated() {
            let id = isMenuItem
                ? "\(rng.pick(menuNames))-juice-\(number)"
                : "\(rng.pick(recipeNames))-\(number)"
            let ingredients = drawIngredients(
                fruits: fruits.map(\.id), earlier: blends.map(\.id), sizes: sizes, fruitsInside: fruitsInside, using: &rng
            )
            sizes[id] = ingredients.reduce(0) { $0 + $1.amount * (sizes[$1.id] ?? 0) }
            var inside: [String] = []
            for ingredient in ingredients {
                for fruit in fruitsInside[ingredient.id] ?? [] where !inside.contains(fruit) { inside.append(fruit) }
            }
            fruitsInside[id] = inside
            blends.append(GeneratedBook.Blend(id: id, isMenuItem: isMenuItem, ingredients: ingredients))
        }

        let substitutes = drawsSubstitutes ? drawSubstitutes(fruits: fruits.map(\.id), using: &rng) : [:]
        var writer = BookWriter(fruits: fruits, stock: stock, blends: blends, substitutes: substitutes)
        let files = writer.write(using: &rng)
        var book = GeneratedBook(
            fruits: writer.declaredFruits, openingStock: stock, blends: blends,
            declaredBlends: writer.declaredBlends, files: files
        )
        book.substitutes = substitutes
        return book
    }

    /// For about a third of the fruits, one or two other fruits, ratios 1–3.
    private static func drawSubstitutes(fruits: [String], using rng: inout SplitMix64) -> [String: [GeneratedBook.Ingredient]] {
        var substitutes: [String: [GeneratedBook.Ingredient]] = [:]
        for fruit in fruits where rng.chance(1, in: 3) {
            let others = rng.shuffled(fruits.filter { $0 != fruit })
            let count = min(others.count, rng.int(in: 1...2))
            substitutes[fruit] = others.prefix(count).map { GeneratedBook.Ingredient(id: $0, amount: rng.int(in: 1...3)) }
        }
        return substitutes
    }

    /// 1–4 distinct ingredients. About half are earlier blends, preferring
    /// the latest (which deepens the nesting); a fruit is often one the chosen
    /// blends already hold, so it appears at several levels.
    private static func drawIngredients(
        fruits: [String], earlier: [String], sizes: [String: Int], fruitsInside: [String: [String]],
        using rng: inout SplitMix64
    ) -> [GeneratedBook.Ingredient] {
        var chosen: [GeneratedBook.Ingredient] = []
        var size = 0
        for _ in 0..<rng.int(in: 1...4) {
            let taken = chosen.map(\.id)
            let fitting = earlier.filter { !taken.contains($0) && (sizes[$0] ?? 0) + size <= sizeCap }
            if !fitting.isEmpty && rng.chance(1, in: 2) {
                let id = rng.chance(1, in: 2) ? rng.pick(Array(fitting.suffix(3))) : rng.pick(fitting)
                let unit = sizes[id] ?? 1
                let amount = rng.int(in: 1...max(1, min(5, (sizeCap - size) / unit)))
                chosen.append(.init(id: id, amount: amount))
                size += amount * unit
                continue
            }
            let nested = chosen.flatMap { fruitsInside[$0.id] ?? [] }.filter { !taken.contains($0) }
            let free = fruits.filter { !taken.contains($0) }
            guard !free.isEmpty else { continue }
            let fruit = !nested.isEmpty && rng.chance(2, in: 3) ? rng.pick(nested) : rng.pick(free)
            let amount = rng.int(in: 1...5)
            chosen.append(.init(id: fruit, amount: amount))
            size += amount
        }
        return chosen
    }
}

/// Lays a generated book out as YAML files and writes them.
///
/// Every entry (fruit, stock line, recipe, menu item) goes to a random document;
/// each document writes its sections in a random order and style. What is
/// written is recorded in `declaredFruits`, the order the engine indexes fruits.
private struct BookWriter {
    enum Entry {
        case fruit(Int)
        case stock(Int)
        case blend(Int)
    }

    enum Section: CaseIterable {
        case fruits, stock, recipes, menu

        var key: String {
            switch self {
            case .fruits: return "fruits"
            case .stock: return "stock"
            case .recipes: return "recipes"
            case .menu: return "menu"
            }
        }
    }

    let fruits: [(id: String, label: String, emoji: String)]
    let stock: [String: Int]
    let blends: [GeneratedBook.Blend]
    /// Each fruit's substitutes, by id; a fruit without is written as before.
    let substitutes: [String: [GeneratedBook.Ingredient]]
    private(set) var declaredFruits: [String] = []
    private(set) var declaredBlends: [String] = []

    init(
        fruits: [(id: String, label: String, emoji: String)], stock: [String: Int], blends: [GeneratedBook.Blend],
        substitutes: [String: [GeneratedBook.Ingredient]]
    ) {
        self.fruits = fruits
        self.stock = stock
        self.blends = blends
        self.substitutes = substitutes
    }

    mutating func write(using rng: inout SplitMix64) -> [GeneratedBook.File] {
        let fileCount = rng.int(in: 1...3)
        let documentsPerFile = (0..<fileCount).map { _ in rng.int(in: 1...2) }
        let documentCount = documentsPerFile.reduce(0, +)
        var documents = [[Entry]](repeating: [], count: documentCount)
        for index in fruits.indices {
            documents[rng.int(in: 0...(documentCount - 1))].append(.fruit(index))
            if stock[fruits[index].id] != nil {
                documents[rng.int(in: 0...(documentCount - 1))].append(.stock(index))
            }
        }
        for index in blends.indices {
            documents[rng.int(in: 0...(documentCount - 1))].append(.blend(index))
        }

        var files: [GeneratedBook.File] = []
        var next = 0
        let names = ["1-catalog.yaml", "2-menu.yml", "3-more/extras.yaml"]
        for file in 0..<fileCount {
            var texts: [String] = []
            for _ in 0..<documentsPerFile[file] {
                texts.append(document(documents[next], first: next == 0, using: &rng))
                next += 1
            }
            // An empty document is allowed anywhere: "each is a mapping ..., or empty".
            if rng.chance(1, in: 6) {
                texts.insert("# nothing in this document\n", at: rng.int(in: 0...texts.count))
            }
            var text = rng.chance(1, in: 2) ? "---\n" : ""
            text += texts.joined(separator: rng.chance(1, in: 4) ? "...\n---\n" : "---\n")
            if rng.chance(1, in: 5) { text += "...\n" }
            files.append(GeneratedBook.File(path: names[file], text: text))
        }
        return files
    }

    private mutating func document(_ entries: [Entry], first: Bool, using rng: inout SplitMix64) -> String {
        let indent = String(repeating: " ", count: rng.pick([2, 4]))
        var bySection: [Section: [Entry]] = [:]
        for entry in entries {
            switch entry {
            case .fruit: bySection[.fruits, default: []].append(entry)
            case .stock: bySection[.stock, default: []].append(entry)
            case .blend(let index):
                bySection[blends[index].isMenuItem ? .menu : .recipes, default: []].append(entry)
            }
        }
        var sections = Section.allCases.filter { bySection[$0] != nil }
        if rng.chance(1, in: 3) { sections = rng.shuffled(sections) }
        var lines: [String] = []
        // Version 1 has no substitutes: a document that lists some always says
        // version 2, since an earlier document of its file may say version 1.
        let listsSubstitutes = entries.contains { if case .fruit(let index) = $0 { substitutes[fruits[index].id] != nil } else { false } }
        if rng.chance(1, in: 3) || (first && rng.chance(1, in: 2)) || listsSubstitutes {
            lines.append(listsSubstitutes ? "version: 2" : "version: 1")
        }
        if rng.chance(1, in: 4) { lines.append("# generated by the differential tests") }
        for section in sections {
            var items = bySection[section] ?? []
            switch rng.int(in: 1...4) {
            case 1: items.reverse()
            case 2: items = rng.shuffled(items)
            default: break
            }
            for case .fruit(let index) in items { declaredFruits.append(fruits[index].id) }
            for case .blend(let index) in items { declaredBlends.append(blends[index].id) }
            if rng.chance(1, in: 4) {
                lines.append(flowSection(section, items, using: &rng))
            } else {
                lines.append(section.key + ":")
                for item in items { lines += blockEntry(item, indent: indent, using: &rng) }
            }
        }
        // An empty section is fine; only a section this document does not hold can be one.
        if rng.chance(1, in: 8), let empty = Section.allCases.first(where: { bySection[$0] == nil }) {
            lines.append(empty.key + rng.pick([":", ": {}", ": ~"]))
        }
        return lines.map { $0 + "\n" }.joined()
    }

    // MARK: Block style

    private func blockEntry(_ entry: Entry, indent: String, using rng: inout SplitMix64) -> [String] {
        let comment = rng.chance(1, in: 8) ? "  # note" : ""
        switch entry {
        case .fruit(let index):
            let fruit = fruits[index]
            if let listed = substitutes[fruit.id] {
                let written = flowIngredients(listed, using: &rng)
                if rng.chance(1, in: 2) { return [indent + fruit.id + ": { substitutes: " + written + " }" + comment] }
                return [indent + fruit.id + ":" + comment, indent + indent + "label: " + label(fruit.label, using: &rng),
                        indent + indent + "substitutes:"] + listed.map { indent + indent + indent + $0.id + ": " + amount($0.amount, using: &rng) }
            }
            switch rng.int(in: 1...6) {
            case 1: return [indent + fruit.id + ":" + comment]
            case 2: return [indent + fruit.id + ": {}" + comment]
            case 3: return [indent + fruit.id + ": ~" + comment]
            case 4: return [indent + fruit.id + ": { label: \(label(fruit.label, using: &rng)) }" + comment]
            case 5: return [indent + fruit.id + ": { label: \(label(fruit.label, using: &rng)), emoji: \(fruit.emoji) }" + comment]
            default:
                return [indent + fruit.id + ":" + comment,
                        indent + indent + "label: " + label(fruit.label, using: &rng),
                        indent + indent + "emoji: " + fruit.emoji]
            }
        case .stock(let index):
            let id = fruits[index].id
            return [indent + id + ": " + amount(stock[id] ?? 0, using: &rng) + comment]
        case .blend(let index):
            let blend = blends[index]
            if !blend.isMenuItem {
                if rng.chance(1, in: 2) {
                    return [indent + blend.id + ": " + flowIngredients(blend.ingredients, using: &rng) + comment]
                }
                return [indent + blend.id + ":" + comment]
                    + blend.ingredients.map { indent + indent + $0.id + ": " + amount($0.amount, using: &rng) }
            }
            if rng.chance(1, in: 4) {
                return [indent + blend.id + ": { recipe: " + flowIngredients(blend.ingredients, using: &rng) + " }" + comment]
            }
            var fields: [[String]] = []
            if rng.chance(1, in: 2) { fields.append(["label: " + label("주스 \(index)", using: &rng)]) }
            if rng.chance(1, in: 2) { fields.append(["price: \(rng.int(in: 0...90) * 100)"]) }
            if rng.chance(1, in: 2) {
                fields.append(["recipe: " + flowIngredients(blend.ingredients, using: &rng)])
            } else {
                fields.append(["recipe:"] + blend.ingredients.map { indent + $0.id + ": " + amount($0.amount, using: &rng) })
            }
            return [indent + blend.id + ":" + comment] + rng.shuffled(fields).flatMap { $0.map { indent + indent + $0 } }
        }
    }

    // MARK: Flow style

    /// `key: { a: ..., b: ... }`, sometimes over several lines.
    private func flowSection(_ section: Section, _ items: [Entry], using rng: inout SplitMix64) -> String {
        let entries = items.map { flowEntry($0, using: &rng) }
        if entries.count > 1 && rng.chance(1, in: 2) {
            return section.key + ": { " + entries.joined(separator: ",\n  ") + " }"
        }
        return section.key + ": { " + entries.joined(separator: ", ") + " }"
    }

    private func flowEntry(_ entry: Entry, using rng: inout SplitMix64) -> String {
        switch entry {
        case .fruit(let index):
            let fruit = fruits[index]
            if let listed = substitutes[fruit.id] {
                return fruit.id + ": { emoji: \(fruit.emoji), substitutes: " + flowIngredients(listed, using: &rng) + " }"
            }
            switch rng.int(in: 1...3) {
            case 1: return fruit.id + ": ~"
            case 2: return fruit.id + ": {}"
            default: return fruit.id + ": { label: \(label(fruit.label, using: &rng)), emoji: \(fruit.emoji) }"
            }
        case .stock(let index):
            let id = fruits[index].id
            return id + ": " + amount(stock[id] ?? 0, using: &rng)
        case .blend(let index):
            let blend = blends[index]
            let ingredients = flowIngredients(blend.ingredients, using: &rng)
            guard blend.isMenuItem else { return blend.id + ": " + ingredients }
            let price = rng.chance(1, in: 2) ? "price: \(rng.int(in: 0...90) * 100), " : ""
            return blend.id + ": { " + price + "recipe: " + ingredients + " }"
        }
    }

    private func flowIngredients(_ ingredients: [GeneratedBook.Ingredient], using rng: inout SplitMix64) -> String {
        "{ " + ingredients.map { $0.id + ": " + amount($0.amount, using: &rng) }.joined(separator: ", ") + " }"
    }

    // MARK: Scalars

    /// `!!int 3` is accepted as an amount, so it is written now and then.
    private func amount(_ value: Int, using rng: inout SplitMix64) -> String {
        rng.chance(1, in: 12) ? "!!int \(value)" : String(value)
    }

    private func label(_ text: String, using rng: inout SplitMix64) -> String {
        rng.chance(1, in: 3) ? "\"\(text)\"" : text
    }
}
