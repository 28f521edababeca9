/// A randomly generated recipe book, kept twice: as plain data, which the
/// reference model reads, and as the YAML files written from it, which the
/// engine reads. The differential tests check that both readings agree.
package struct GeneratedBook: Sendable {
    package struct Ingredient: Sendable, Hashable {
        package var id: String
        package var amount: Int

        package init(id: String, amount: Int) {
            self.id = id
            self.amount = amount
        }
    }

    /// An intermediate recipe or a menu item. Its ingredients name fruits or
    /// blends generated before it, so the graph has no cycle.
    package struct Blend: Sendable {
        package var id: String
        package var isMenuItem: Bool
        package var ingredients: [Ingredient]

        package init(id: String, isMenuItem: Bool, ingredients: [Ingredient]) {
            self.id = id
            self.isMenuItem = isMenuItem
            self.ingredients = ingredients
        }
    }

    /// One recipe file: its path relative to the recipe directory, and its text.
    package struct File: Sendable {
        package var path: String
        package var text: String
    }

    /// Fruit ids in the order the YAML declares them (files in order, then
    /// documents, sections and entries as written). That is the order in which
    /// the engine lists a refusal's short fruits.
    package var fruits: [String]
    /// Opening stock of the fruits that have a stock entry; the others have 0.
    package var openingStock: [String: Int]
    /// In generation order: each uses only fruits and earlier blends. The
    /// YAML does not keep this order; it may declare a blend after its user.
    package var blends: [Blend]
    /// Blend ids in the order the YAML declares them.
    package var declaredBlends: [String]
    /// Named so that sorted path order, the order `juice-run` reads them in, is this order.
    package var files: [File]
    /// Each fruit's substitutes (version 2), in order of preference, each
    /// `amount` its ratio; empty unless drawn with `substitutes: true`.
    package var substitutes: [String: [Ingredient]] = [:]

    package init(
        fruits: [String], openingStock: [String: Int], blends: [Blend],
        declaredBlends: [String]? = nil, files: [File] = []
    ) {
        self.fruits = fruits
        self.openingStock = openingStock
        self.blends = blends
        self.declaredBlends = declaredBlends ?? blends.map(\.id)
        self.files = files
    }

    package var menuIDs: [String] { blends.filter(\.isMenuItem).map(\.id) }
    package var recipeIDs: [String] { blends.filter { !$0.isMenuItem }.map(\.id) }

    /// All the files as one text, for failure messages.
    package var yaml: String {
        files.map { "# ==> \($0.path) <==\n\($0.text)" }.joined(separator: "\n")
    }

    /// How many blends deep the deepest fruit sits under any menu item:
    /// 1 for a menu item made of fruits only.
    package var depth: Int {
        var depths: [String: Int] = [:]
        for blend in blends {
            depths[blend.id] = 1 + (blend.ingredients.compactMap { depths[$0.id] }.max() ?? 0)
        }
        return blends.filter(\.isMenuItem).compactMap { depths[$0.id] }.max() ?? 0
    }

    /// Whether some blend is declared after a blend that uses it.
    package var declaresSomeBlendAfterItsUser: Bool {
        let position = Dictionary(uniqueKeysWithValues: declaredBlends.enumerated().map { ($1, $0) })
        return blends.contains { user in
            user.ingredients.contains { (position[$0.id] ?? -1) > (position[user.id] ?? Int.max) }
        }
    }

    /// Whether some menu item reaches one fruit both directly and through a
    /// nested blend, so flattening has to add amounts from several levels.
    package var repeatsFruitsAcrossLevels: Bool {
        var inside: [String: Set<String>] = [:]
        for blend in blends {
            inside[blend.id] = blend.ingredients.reduce(into: Set<String>()) { fruits, ingredient in
                fruits.formUnion(inside[ingredient.id] ?? [])
            }
            .union(blend.ingredients.map(\.id).filter { inside[$0] == nil })
        }
        return blends.contains { blend in
            let direct = Set(blend.ingredients.map(\.id).filter { inside[$0] == nil })
            let nested = blend.ingredients.reduce(into: Set<String>()) { $0.formUnion(inside[$1.id] ?? []) }
            return !direct.isDisjoint(with: nested)
        }
    }
}
