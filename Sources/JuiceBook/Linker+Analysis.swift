import JuiceSource
import JuiceDiagnostics
/// The checks that find no error but something a shop should know: fruit and
/// recipes nothing uses. What the opening stock can make and what a serving
/// costs are the engine's to say, after linking (`BookAnalysisPass`).
///
/// They run on the linker's resolved graph rather than on a `RecipeBook`.
extension Linker {
    /// Runs the linker's own analyses (`unused-fruit`, `unused-recipe`)
    /// whose rule is not in `rulesOff`. A rule that is off is not checked at
    /// all: a book can yield a diagnostic per fruit, and building 100,000 of
    /// them only to drop them was most of the run. The opening-stock and
    /// cost rules are a later pass's (`BookAnalysisPass`, `LinkFacts`).
    ///
    /// `kinds` are the blends' kinds, read once for every walk; `reach`
    /// is the walk from the menu items, made by `link` when an unused
    /// check runs (`reach(edges:kinds:fruits:)`).
    mutating func analyse(kinds: [DeclarationKind], reach: Reach?, rulesOff: Set<Rule>) {
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
    }

    /// What a later pass reads (`LinkFacts`), recorded where the linker's
    /// own analyses end: its diagnostics go there, after the unknown names
    /// noted so far, which `reportUnknownNames` puts in their places before.
    func facts(
        edges: EdgeTable, kinds: [DeclarationKind], needs: NeedTable, opening: OpeningStock, rulesOff: Set<Rule>,
        substitutes: [[RecipeBook.Substitute]]?
    ) -> LinkFacts {
        // Where servings are kept, one order takes what its plan from the
        // opening servings says, not its flattened need: the pass plans it
        // from the lists, as the cost rules cost them.
        let lists = opening.keepsServings || declarations.declaresCost
            ? RecipeLists(declarations, edges, kinds: kinds, servings: opening.servings) : nil
        // Costs need every edge: judged only once the book has no errors.
        // Only the cost rules read it, so only they pay for the look.
        let judgesCosts = declarations.declaresCost && !LinkFacts.costRules.allSatisfy(rulesOff.contains)
        return LinkFacts(
            declarations: declarations, needs: needs, rulesOff: rulesOff, kinds: kinds, lists: lists, openingStock: opening.fruits,
            keepsServings: opening.keepsServings,
            isClean: judgesCosts && unknownNames.isEmpty && !(declarations.diagnostics + diagnostics).containsErrors,
            diagnosticIndex: diagnostics.count + unknownNames.count, substitutes: substitutes
        )
    }

    /// Runs a later layer's pass on what the link left (`facts`), once the
    /// link is done: its diagnostics go where the linker's own analyses
    /// ended, so the list is the one the linker gave when it ran them itself.
    mutating func run(_ pass: any BookAnalysisPass) {
        guard let facts = facts.take() else { return }
        // Most often the place is the end (no unknown name came after it):
        // the pass then appends to the list itself, rather than to a second
        // list copied in (100,000 `missing-stock` infos on lint-unused).
        guard facts.diagnosticIndex != diagnostics.count else {
            return pass.analyse(facts, into: &diagnostics, coverage: &coverage)
        }
        var found: [Diagnostic] = []
        pass.analyse(facts, into: &found, coverage: &coverage)
        diagnostics.insert(contentsOf: found, at: facts.diagnosticIndex)
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
}
