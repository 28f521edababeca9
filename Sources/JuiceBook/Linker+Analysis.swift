import JuiceSource
import JuiceDiagnostics
/// The checks that find no error but something a shop should know: fruit and
/// recipes nothing uses, menu items the opening stock can never make, fruit
/// with no stock entry.
///
/// They run on the linker's resolved graph rather than on a `RecipeBook`, so
/// the ones that do not depend on the whole graph are reported even when the
/// book has errors elsewhere.
extension Linker {
    /// Runs every analysis whose rule is not in `rulesOff`. A rule that is
    /// off is not checked at all: a book can yield a diagnostic per fruit,
    /// and building 100,000 of them only to drop them was most of the run.
    ///
    /// `kinds` are the blends' kinds, read once for every walk; `reach`
    /// is the walk from the menu items, made by `link` when an unused
    /// check runs (`reach(edges:kinds:fruits:)`).
    mutating func analyse(
        edges: EdgeTable, kinds: [DeclarationKind], reach: Reach?,
        needs: NeedTable, planned: [[RecipeBook.FruitAmount]?]? = nil, lists: RecipeLists? = nil, openingStock: [Int], rulesOff: Set<Rule>
    ) {
        coverage = CheckCoverage()
        for rule in rulesOff { coverage.skip(rule) }
        let unused = [Rule.unusedFruit, .unusedRecipe].filter { !rulesOff.contains($0) }
        // Reachability needs the whole graph: an ingredient dropped for an error
        // (a zero amount, an unreadable recipe) would make its fruit look unused.
        // Report unused things once the book has no errors.
        let reached = reach
        if unused.isEmpty {
            // Neither unused check runs: no walk.
        } else if let reached, unknownNames.isEmpty && !(declarations.diagnostics + diagnostics).containsErrors {
            reportUnused(reached, kinds: kinds, fruits: unused.contains(.unusedFruit), recipes: unused.contains(.unusedRecipe))
        } else {
            coverage.skip(.unusedFruit)
            coverage.skip(.unusedRecipe)
        }
        if let lists, declarations.declaresCost && !Self.costRules.allSatisfy(rulesOff.contains) {
            // Costs need every edge: judged only once the book has no errors.
            if unknownNames.isEmpty && !(declarations.diagnostics + diagnostics).containsErrors {
                reportCosts(lists, rulesOff: rulesOff)
            } else {
                for rule in Self.costRules { coverage.skip(rule) }
            }
        }
        if rulesOff.contains(.neverMakeable) && rulesOff.contains(.missingStock) { return }
        // A fruit whose id is invalid gets no stock advice: renaming it is the
        // fix, and its invalid-name error says so.
        var invalidRanges: Set<SourceRange> = []
        for diagnostic in declarations.diagnostics where diagnostic.rule == .invalidName { invalidRanges.insert(diagnostic.range) }
        let invalidFruit = invalidRanges.isEmpty
            ? [Bool](repeating: false, count: declarations.fruits.count)
            : declarations.fruits.map { invalidRanges.contains($0.range) }
        if !rulesOff.contains(.neverMakeable) {
            reportNeverMakeable(needs: needs, planned: planned, kinds: kinds, openingStock: openingStock, invalidFruit: invalidFruit)
        }
        if !rulesOff.contains(.missingStock) { reportMissingStock(invalidFruit: invalidFruit) }
    }

    /// What the menu items use, directly or through recipes.
    struct Reach: Sendable {
        var usedFruit: [Bool]
        var reached: [Bool]
    }

    /// The walk from every menu item through recipes, with an explicit
    /// stack (a deep book must not exhaust the call stack).
    static func reach(edges: EdgeTable, kinds: [DeclarationKind], fruits: Int) -> Reach {
        var usedFruit = [Bool](repeating: false, count: fruits)
        var reached = [Bool](repeating: false, count: kinds.count)
        var pending = kinds.indices.filter { kinds[$0] == .menuItem }
        for item in pending { reached[item] = true }
        while let node = pending.popLast() {
            // By index: a slice of the table per node would retain and release it.
            for index in edges.edgeRange(of: node) {
                switch edges.edge(at: index).target {
                case .fruit(let fruit) where usedFruit.indices.contains(fruit):
                    usedFruit[fruit] = true
                case .blend(let child) where reached.indices.contains(child) && !reached[child]:
                    reached[child] = true
                    pending.append(child)
                case .fruit, .blend:
                    break
                }
            }
        }
        return Reach(usedFruit: usedFruit, reached: reached)
    }

    /// Reports the unused fruit, recipes or both, from the walk.
    private mutating func reportUnused(_ reach: Reach, kinds: [DeclarationKind], fruits: Bool, recipes: Bool) {
        let blends = declarations.blends
        let usedFruit = reach.usedFruit, reached = reach.reached
        for (index, fruit) in declarations.fruits.enumerated() where fruits && !usedFruit[index] {
            diagnostics.append(Diagnostic(
                .unusedFruit, at: fruit.range, String("fruit '", fruit.id, "' is not used by any menu item"),
                help: "use it in a recipe, or remove it from 'fruits'"
            ))
        }
        for index in kinds.indices where recipes && kinds[index] == .recipe && !reached[index] {
            let recipe = blends[index]
            diagnostics.append(Diagnostic(
                .unusedRecipe, at: recipe.range, String("recipe '", recipe.id, "' is not used by any menu item"),
                help: "use it as an ingredient of a menu item, or remove it"
            ))
        }
    }

    /// `planned`, in a book that keeps servings, is each item's plan from
    /// the opening servings (`plannedNeeds`), which replaces its flattened need.
    private mutating func reportNeverMakeable(
        needs: NeedTable, planned: [[RecipeBook.FruitAmount]?]?, kinds: [DeclarationKind], openingStock: [Int], invalidFruit: [Bool]
    ) {
        for index in kinds.indices where kinds[index] == .menuItem {
            let itemNeeds: ArraySlice<RecipeBook.FruitAmount>? = if let planned { planned[index].map { $0[...] } } else { needs[index] }
            guard let itemNeeds else {
                // A cycle or an overflow left this item's need unknown.
                coverage.skip(.neverMakeable)
                continue
            }
            guard itemNeeds.contains(where: { $0.amount > openingStock[$0.fruit] }) else { continue }
            let item = declarations.blends[index]
            // A fruit whose id is invalid, or whose stock another error hid,
            // is not known to be short: then the check did not judge the item.
            let short = itemNeeds.filter {
                $0.amount > openingStock[$0.fruit] && !invalidFruit[$0.fruit]
                    && !declarations.stockIsUnknown(declarations.fruits[$0.fruit].id)
            }
            guard !short.isEmpty else {
                coverage.skip(.neverMakeable)
                continue
            }
            let detail = short.map { "\($0.amount) '\(declarations.fruits[$0.fruit].id)' (stock \(openingStock[$0.fruit]))" }
            let message = "menu item '\(item.id)' needs \(detail.joined(separator: ", ")), more than the opening stock holds"
            guard let stockFile = declarations.stockFile else {
                diagnostics.append(Diagnostic(
                    .neverMakeable, at: item.range, message,
                    help: "it can be served only after a restock; raise the stock or lower the recipe if that is not intended"
                ))
                continue
            }
            // The stock came from a file the book does not show: say where.
            let notes = short.map { need -> Diagnostic.Note in
                let fruit = declarations.fruits[need.fruit].id
                if let entry = declarations.stockRanges[fruit] {
                    return .init(range: entry, message: "'\(fruit)' is stocked here")
                }
                return .init(range: stockFile, message: "'\(stockFile.file)' has no entry for '\(fruit)'")
            }
            diagnostics.append(Diagnostic(
                .neverMakeable, at: item.range, message, notes: notes,
                help: "it can be served only after a restock; raise the stock in '\(stockFile.file)' or lower the recipe if that is not intended"
            ))
        }
    }

    /// A fruit with no stock entry, reported where the entry belongs: at the
    /// fruit in the book, or in the stock file that replaced the book's stock.
    private mutating func reportMissingStock(invalidFruit: [Bool]) {
        if let stockFile = declarations.stockFile { coverage.restrict(.missingStock, to: stockFile.file) }
        for (index, fruit) in declarations.fruits.enumerated() where declarations.stockRanges[fruit.id] == nil {
            // An invalid id, or stock another error hid, is not known to be missing.
            if invalidFruit[index] || declarations.stockIsUnknown(fruit.id) {
                coverage.skip(.missingStock)
                continue
            }
            guard let stockFile = declarations.stockFile else {
                diagnostics.append(Diagnostic(
                    .missingStock, at: fruit.range, String("fruit '", fruit.id, "' has no stock entry, so it starts at 0"),
                    help: String("add '", fruit.id, ": 0' under 'stock:' to say so explicitly")
                ))
                continue
            }
            // An empty range is the file's start: it has no `stock:` key.
            let hasSection = stockFile.start != stockFile.end
            diagnostics.append(Diagnostic(
                .missingStock, at: stockFile,
                "stock file '\(stockFile.file)' has no entry for fruit '\(fruit.id)', so it starts at 0",
                notes: [.init(range: fruit.range, message: "'\(fruit.id)' is declared here")],
                help: hasSection
                    ? "add '\(fruit.id): 0' under 'stock:' in '\(stockFile.file)' to say so explicitly"
                    : "add a 'stock:' section with '\(fruit.id): 0' to '\(stockFile.file)' to say so explicitly"
            ))
        }
    }
}
