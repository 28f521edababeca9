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
    /// composites generated before it, so the graph has no cycle.
    package struct Composite: Sendable {
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
    /// In generation order: each uses only fruits and earlier composites. The
    /// YAML does not keep this order; it may declare a composite after its user.
    package var composites: [Composite]
    /// Composite ids in the order the YAML declares them.
    package var declaredComposites: [String]
    /// Named so that sorted path order, the order `juice-run` reads them in, is this order.
    package var files: [File]

    package init(
        fruits: [String], openingStock: [String: Int], composites: [Composite],
        declaredComposites: [String]? = nil, files: [File] = []
    ) {
        self.fruits = fruits
        self.openingStock = openingStock
        self.composites = composites
        self.declaredComposites = declaredComposites ?? composites.map(\.id)
        self.files = files
    }

    package var menuIDs: [String] { composites.filter(\.isMenuItem).map(\.id) }
    package var recipeIDs: [String] { composites.filter { !$0.isMenuItem }.map(\.id) }

    /// All the files as one text, for failure messages.
    package var yaml: String {
        files.map { "# ==> \($0.path) <==\n\($0.text)" }.joined(separator: "\n")
    }

    /// How many composites deep the deepest fruit sits under any menu item:
    /// 1 for a menu item made of fruits only.
    package var depth: Int {
        var depths: [String: Int] = [:]
        for composite in composites {
            depths[composite.id] = 1 + (composite.ingredients.compactMap { depths[$0.id] }.max() ?? 0)
        }
        return composites.filter(\.isMenuItem).compactMap { depths[$0.id] }.max() ?? 0
    }

    /// Whether some composite is declared after a composite that uses it.
    package var declaresSomeCompositeAfterItsUser: Bool {
        let position = Dictionary(uniqueKeysWithValues: declaredComposites.enumerated().map { ($1, $0) })
        return composites.contains { user in
            user.ingredients.contains { (position[$0.id] ?? -1) > (position[user.id] ?? Int.max) }
        }
    }

    /// Whether some menu item reaches one fruit both directly and through a
    /// nested composite, so flattening has to add amounts from several levels.
    package var repeatsFruitsAcrossLevels: Bool {
        var inside: [String: Set<String>] = [:]
        for composite in composites {
            inside[composite.id] = composite.ingredients.reduce(into: Set<String>()) { fruits, ingredient in
                fruits.formUnion(inside[ingredient.id] ?? [])
            }
            .union(composite.ingredients.map(\.id).filter { inside[$0] == nil })
        }
        return composites.contains { composite in
            let direct = Set(composite.ingredients.map(\.id).filter { inside[$0] == nil })
            let nested = composite.ingredients.reduce(into: Set<String>()) { $0.formUnion(inside[$1.id] ?? []) }
            return !direct.isDisjoint(with: nested)
        }
    }
}
