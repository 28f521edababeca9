@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics
/// Resolves ingredient names, checks for cycles and flattens every recipe into
/// whole fruits, then assembles the `RecipeBook`.
///
/// Recipes and menu items are "blends" here: anything made from ingredients,
/// the graph's inner nodes (fruits are its leaves), numbered in declaration order.
/// Both walks keep explicit stacks, so a chain of 10,000 nested recipes cannot
/// overflow the call stack.
struct Linker {
    enum Target {
        case fruit(Int)
        case blend(Int)
    }

    /// One ingredient of a blend, resolved: its amount and what it names.
    /// Its name and place are read back from the declaration, through the
    /// `EdgeTable`, only when a diagnostic needs them.
    ///
    /// One word for the target, not an optional enum with the ingredient's
    /// number beside it: the looked-up edges, one per ingredient, are after
    /// the declarations the largest thing a lint holds, and 16 bytes an edge
    /// rather than 32 keep the peak within issue 27's bound of the commit
    /// before it (docs/benchmarks.md, peak RSS: lint-clean 75.7 -> 71.2 MB,
    /// cf0d643 68.7; 1,000,000 items 610 -> about 562 MB, cf0d643 549).
    struct Edge: Sendable {
        let amount: Int
        /// The target's index times two, plus one for a blend; -1 for a
        /// name nothing declares (only while resolving). An index is a
        /// count of declarations, far below `Int.max / 2`.
        private let tagged: Int

        init(target: Target, amount: Int) {
            switch target {
            case .fruit(let fruit): tagged = fruit << 1
            case .blend(let blend): tagged = blend << 1 | 1
            }
            self.amount = amount
        }

        private init(unknownWithAmount amount: Int) {
            tagged = -1
            self.amount = amount
        }

        /// An ingredient whose name nothing declares: not an edge of the graph.
        static let unknown = Edge(unknownWithAmount: 0)

        var isUnknown: Bool { tagged < 0 }

        /// What the ingredient names. Only read from the `EdgeTable`, which
        /// holds no unknown edge (`resolve` keeps them out).
        var target: Target {
            guard tagged >= 0 else { return .fruit(0) }
            return tagged & 1 == 0 ? .fruit(tagged >> 1) : .blend(tagged >> 1)
        }
    }

    /// Every blend's edges in one flat array, blend by blend: one
    /// allocation for the whole book instead of one per recipe and menu item.
    struct EdgeTable: Sendable {
        private var edges: [Edge] = []
        /// Where each blend's edges start in `edges`; one extra entry at the end.
        private var starts: [Int] = [0]
        /// Each edge's ingredient number (`BookDeclarations.ingredients`);
        /// empty for a table that is the looked-up edges as they stand,
        /// where edge `i` is ingredient `i`.
        private var ingredients: [Int] = []

        /// The number of blends.
        package var count: Int { starts.count - 1 }

        /// The number of edges of all blends.
        var edgeCount: Int { edges.count }

        /// Blend `node`'s edges, in ingredient order (indices start at `startIndex`).
        subscript(node: Int) -> ArraySlice<Edge> { edges[starts[node]..<starts[node + 1]] }

        /// Where blend `node`'s edges are, for `edge(at:)`.
        func edgeRange(of node: Int) -> Range<Int> { starts[node]..<starts[node + 1] }

        func edge(at index: Int) -> Edge { edges[index] }

        /// The number of the ingredient the edge at `index` was resolved from.
        func ingredient(at index: Int) -> Int { ingredients.isEmpty ? index : ingredients[index] }

        /// An empty table.
        init() {}

        /// A table of `edges` as they stand: blend `i`'s from `starts[i]`
        /// up to `starts[i + 1]`.
        init(edges: [Edge], starts: [Int]) {
            self.edges = edges
            self.starts = starts
        }

        /// Adds the edge of ingredient number `ingredient` to the blend being
        /// filled, the one after the last closed.
        mutating func append(_ edge: Edge, ingredient: Int) {
            edges.append(edge)
            ingredients.append(ingredient)
        }

        /// Ends the blend being filled: the next edge belongs to the next one.
        mutating func closeBlend() { starts.append(edges.count) }

        mutating func reserve(blends: Int, edges total: Int) {
            starts.reserveCapacity(blends + 1)
            edges.reserveCapacity(total)
            ingredients.reserveCapacity(total)
        }
    }

    /// The declaration the edge at `index` of `edges` was resolved from.
    func declaration(ofEdge index: Int, in edges: EdgeTable) -> IngredientDeclaration {
        declarations.ingredients[edges.ingredient(at: index)]
    }

    /// How many steps of a cycle the message and notes spell out.
    static let cycleStepsShown = 12

    package let declarations: BookDeclarations
    package var diagnostics: [Diagnostic] = []
    /// Names nothing declares, reported at the end of the link
    /// (`Linker+UnknownNames.swift`).
    var unknownNames: [UnknownName] = []
    /// Which part of the book each lint check looked at; `analyse` fills it
    /// in, and a later pass adds to it.
    var coverage = CheckCoverage.noAnalysis
    /// What the link leaves for a later pass, when asked (`leavingFacts`).
    var facts: LinkFacts?
    private(set) var allIDs: SuggestionIndex?
    /// The last link's index, used again when the book's ids are the same.
    private let previousIDs: SuggestionIndex?

    /// A linker for `declarations`; `reusing` is an earlier link's
    /// suggestion index, kept when the ids have not changed since.
    init(declarations: BookDeclarations, reusing previous: SuggestionIndex? = nil) {
        self.declarations = declarations
        previousIDs = previous
    }

    /// Links the book; `analysis` runs the lint analyses but for the rules
    /// in `rulesOff`, whose diagnostics would only be thrown away. With
    /// `leavingFacts`, the analysis leaves `facts` for a later pass (the
    /// opening-stock and cost rules, `BookAnalysisPass`); without, those
    /// rules are not judged.
    mutating func link(analysis: Bool, rulesOff: Set<Rule> = [], assemble wantsBook: Bool = true, leavingFacts: Bool = false) -> RecipeBook? {
        let edges = resolve()
        let opening = resolveStock()
        let openingStock = opening.fruits
        // Each blend's kind, kept in its file's array: read once here
        // for every walk and for the assembly.
        let kinds = declarations.blends.kinds
        // Only a book that lists substitutes pays for them (SubstituteResolver).
        var substitutes = declarations.declaresSubstitutes ? SubstituteResolver(declarations: declarations) : nil
        let resolved = substitutes?.resolve()
        diagnostics += substitutes?.diagnostics ?? []
        // The walk for the unused checks needs only the edges, and the substitutes of what it reaches.
        let reach = analysis && !(rulesOff.contains(.unusedFruit) && rulesOff.contains(.unusedRecipe))
            ? SubstituteResolver.reaching(resolved, Self.reach(edges: edges, kinds: kinds, fruits: declarations.fruits.count)) : nil
        let (order, onCycle) = orderAndReportCycles(edges)
        // Without a book to assemble, only never-makeable reads the needs of
        // what nothing else uses, and only the fruits the stock cannot cover;
        // with substitutes it needs all of an item's fruit, since a fruit
        // serves its own need before it stands in for another.
        let needs = flatten(edges, order: order, skip: onCycle, shortOnly: wantsBook || resolved != nil ? nil : openingStock)
        if analysis {
            analyse(kinds: kinds, reach: reach, rulesOff: rulesOff)
            if leavingFacts {
                facts = facts(edges: edges, kinds: kinds, needs: needs, opening: opening, rulesOff: rulesOff, substitutes: resolved)
            } else {
                for rule in LinkFacts.passRules { coverage.skip(rule) }
            }
        }
        reportUnknownNames()
        return wantsBook ? assemble(edges: edges, kinds: kinds, needs: needs, opening: opening, substitutes: resolved) : nil
    }

    // MARK: Names

    /// Every id in the book, for "did you mean"; made at the first unknown
    /// name, so a clean book never builds it.
    mutating func suggestions() -> SuggestionIndex {
        if let allIDs { return allIDs }
        // An editor relinks after every keystroke, and most keystrokes leave
        // the ids as they were: building the index again was a sixth of a
        // relink of a 100,000-item book with one misspelling (perf). The ids
        // are compared where they are kept: building their list only to
        // compare it cost 13 M instructions an edit that met an unknown
        // name (callgrind, 100,000 ids).
        if let previousIDs, declarations.idsEqual(previousIDs.names) {
            allIDs = previousIDs
            return previousIDs
        }
        let made = SuggestionIndex(declarations.everyID)
        allIDs = made
        return made
    }

    /// Every ingredient of the book as an edge, by its number, or
    /// `Edge.unknown` for a name nothing declares. The names were hashed when
    /// they were read; the amounts are read here too, so that `resolve` reads
    /// only these edges in order, not the declarations again.
    private func lookUpIngredients() -> [Edge] {
        var edges: [Edge] = []
        edges.reserveCapacity(declarations.ingredients.count)
        for list in 0..<declarations.ingredients.segmentCount {
            // Segments come in order, so an edge's place is its ingredient's number.
            let (_, ingredients) = declarations.ingredients.segment(list)
            for index in ingredients.indices {
                let ingredient = ingredients[index]
                guard let definition = declarations.definitions.value(for: ingredient.name, hash: ingredient.nameHash) else {
                    edges.append(.unknown)
                    continue
                }
                let target: Target = definition.kind == .fruit ? .fruit(definition.index) : .blend(definition.index)
                edges.append(Edge(target: target, amount: ingredient.amount))
            }
        }
        return edges
    }

    /// The edge table, blend by blend, from the looked-up edges.
    ///
    /// On a clean book (every name known, and the blends' ingredients
    /// all of the book's, one blend after another) the looked-up array
    /// is the table, and only where each blend starts is worked out.
    /// Otherwise each blend's known edges are copied, in order, and its
    /// unknown names are kept for the report. Blends are read in place,
    /// by index: copying each one out would retain and release its strings,
    /// 100,000 times over in a big book.
    private mutating func resolve() -> EdgeTable {
        let found = lookUpIngredients()
        defer { resolveLeftOut() }
        if let starts = Self.startsInPlace(declarations.blends, edgeCount: found.count),
           !found.contains(where: \.isUnknown) {
            return EdgeTable(edges: found, starts: starts)
        }
        var edges = EdgeTable()
        edges.reserve(blends: declarations.blends.count, edges: found.count)
        for blend in declarations.blends.indices {
            let range = declarations.blends.ingredients(of: blend)
            for number in range where found.indices.contains(number) {
                let edge = found[number]
                guard !edge.isUnknown else {
                    deferUnknown(declarations.ingredients[number], in: range)
                    continue
                }
                edges.append(edge, ingredient: number)
            }
            edges.closeBlend()
        }
        return edges
    }

    /// Where each blend's edges start in the looked-up array, plus its
    /// end, when its ingredients are all of them, one blend after
    /// another (a blend with none starts where the next one does); nil
    /// when any are not, such as a repeat's, which the book leaves out.
    private static func startsInPlace(_ blends: BookDeclarations.BlendList, edgeCount: Int) -> [Int]? {
        var starts: [Int] = []
        starts.reserveCapacity(blends.count + 1)
        var position = 0
        var inPlace = true
        blends.forEachIngredients { range in
            guard inPlace, range.isEmpty || range.lowerBound == position else {
                inPlace = false
                return
            }
            starts.append(position)
            position += range.count
        }
        guard inPlace, position == edgeCount else { return nil }
        starts.append(position)
        return starts
    }

    private mutating func resolveStock() -> OpeningStock {
        var stock = [Int](repeating: 0, count: declarations.fruits.count)
        var servings = [Int](repeating: 0, count: declarations.blends.count)
        var stocksRecipe = false
        // The fruits' ids are listed for "did you mean" only once an entry
        // names no fruit: listing a book's 100,000 fruits for nothing was
        // most of a clean link of lint-unused (0.85 of 1.1 ms, clock stamps).
        var fruitIDs: [String]?
        for entry in declarations.stock {
            if entry.mayNameRecipe, let definition = declarations.definitions.value(for: entry.fruit), definition.kind == .recipe {
                servings[definition.index] = entry.amount
                stocksRecipe = true
                continue
            }
            guard let index = stockedFruit(entry.fruit, at: entry.range, fruitIDs: &fruitIDs, mayNameRecipe: entry.mayNameRecipe) else { continue }
            stock[index] = entry.amount
        }
        for entry in declarations.leftOutStock {
            _ = stockedFruit(entry.fruit, at: entry.range, fruitIDs: &fruitIDs, notes: entry.notes)
        }
        return OpeningStock(fruits: stock, servings: servings, keepsServings: stocksRecipe || declarations.declaresYield)
    }

    /// The fruit a stock entry names, or nil after reporting that it names
    /// none. A name declared only where it does not count is not reported.
    /// `fruitIDs` is filled at the first report and kept for the next.
    private mutating func stockedFruit(
        _ name: String, at range: SourceRange, fruitIDs: inout [String]?, notes: [Diagnostic.Note] = [], mayNameRecipe: Bool = false
    ) -> Int? {
        let definition = declarations.definitions.value(for: name)
        if let definition, definition.kind == .fruit { return definition.index }
        if definition == nil && declarations.uncountedIDs.contains(name) { return nil }
        if let definition, definition.kind == .menuItem, mayNameRecipe {
            diagnostics.append(Diagnostic(
                .unknownFruit, at: range, "'\(name)' is a menu item; stock names fruits and recipes, and a menu item is made to order",
                notes: notes, help: "stock the fruits or recipes '\(name)' uses instead"
            ))
            return nil
        }
        let message = definition.map { "'\(name)' is a \($0.kind.rawValue), not a fruit; only fruits are stocked" }
            ?? "unknown fruit '\(name)'"
        let ids = fruitIDs ?? declarations.fruits.map(\.id)
        fruitIDs = ids
        diagnostics.append(Diagnostic(
            .unknownFruit, at: range, message, notes: notes,
            help: Suggestion.didYouMean(name, in: ids) ?? "declare it under 'fruits:' first"
        ))
        return nil
    }

    // MARK: Assembly

    private func assemble(
        edges: EdgeTable, kinds: [DeclarationKind], needs: NeedTable, opening: OpeningStock, substitutes: [[RecipeBook.Substitute]]?
    ) -> RecipeBook {
        let blends = declarations.blends
        let local = RecipeLists.localIndices(kinds)
        var recipes: [RecipeBook.Recipe] = []
        var menu: [RecipeBook.MenuItem] = []
        var servings: [Int] = []
        for (index, blend) in blends.enumerated() {
            let ingredients = RecipeLists.ingredients(of: index, edges, kinds: kinds, local: local)
            let label = blend.label?.escapingControlCharacters ?? blend.id
            if blend.kind == .recipe {
                recipes.append(.init(
                    id: blend.id, label: label, yield: blend.yield ?? 1, keeps: blend.keeps, ingredients: ingredients,
                    needs: needs[index].map(Array.init) ?? []
                ))
                servings.append(opening.servings.indices.contains(index) ? opening.servings[index] : 0)
            } else {
                menu.append(.init(
                    id: blend.id, label: label, price: blend.price, ingredients: ingredients, needs: needs[index].map(Array.init) ?? []
                ))
            }
        }
        // Labels and emoji are shown on terminals: a control or bidi character in
        // them could retitle the window or forge lines, so the book keeps them escaped.
        // Counted alongside the list's own `map`, which walks it chunk by chunk.
        var index = -1
        let fruits = declarations.fruits.map { fruit in
            index += 1
            return RecipeBook.Fruit(
                id: fruit.id, label: fruit.label?.escapingControlCharacters ?? fruit.id, emoji: fruit.emoji?.escapingControlCharacters,
                cost: fruit.cost, pack: fruit.pack ?? 1, keeps: fruit.keeps, restock: fruit.restock, substitutes: substitutes?[index] ?? []
            )
        }
        return RecipeBook(
            fruits: fruits, recipes: recipes, menu: menu, openingStock: opening.fruits, openingServings: servings,
            keepsServings: opening.keepsServings
        )
    }
}
