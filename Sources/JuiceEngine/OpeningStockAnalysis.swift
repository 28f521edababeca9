import JuiceSupport
import JuiceSource
import JuiceDiagnostics
import JuiceBook
/// The lint analyses that ask the engine, run after linking
/// (`BookAnalysisPass`): menu items the opening stock can never make
/// (`never-makeable`), fruit with no stock entry (`missing-stock`), and the
/// cost rules (`price-below-cost`, `missing-cost`, `cost-too-large`).
///
/// They read what the link left (`LinkFacts`) rather than a `RecipeBook`:
/// a lint assembles no book. What one order takes is the engine's rule: the
/// flattened need, or in a book that keeps servings its plan from the
/// opening servings (`BatchPlanner`); what a serving costs is the
/// `CostTable`'s.
package struct OpeningStockAnalysis: BookAnalysisPass {
    package init() {}

    package func analyse(_ link: LinkFacts, into diagnostics: inout [Diagnostic], coverage: inout CheckCoverage) {
        let rulesOff = link.rulesOff
        if let lists = link.lists, link.declaresCost && !LinkFacts.costRules.allSatisfy(rulesOff.contains) {
            // Costs need every edge: judged only once the book has no errors.
            if link.isClean {
                reportCosts(link, lists, into: &diagnostics)
            } else {
                for rule in LinkFacts.costRules { coverage.skip(rule) }
            }
        }
        if rulesOff.contains(.neverMakeable) && rulesOff.contains(.missingStock) { return }
        // A fruit whose id is invalid gets no stock advice: renaming it is the
        // fix, and its invalid-name error says so.
        let invalidFruit = link.invalidFruits()
        if !rulesOff.contains(.neverMakeable) {
            // Where servings are kept, one order takes what its plan from the
            // opening servings says, not its flattened need.
            let planned = link.keepsServings ? link.lists.map { plannedNeeds($0, link) } : nil
            reportNeverMakeable(link, planned: planned, invalidFruit: invalidFruit, into: &diagnostics, coverage: &coverage)
        }
        if !rulesOff.contains(.missingStock) { reportMissingStock(link, invalidFruit: invalidFruit, into: &diagnostics, coverage: &coverage) }
    }

    /// `planned`, in a book that keeps servings, is each item's plan from
    /// the opening servings (`plannedNeeds`), which replaces its flattened need.
    private func reportNeverMakeable(
        _ link: LinkFacts, planned: [[RecipeBook.FruitAmount]?]?, invalidFruit: [Bool], into diagnostics: inout [Diagnostic],
        coverage: inout CheckCoverage
    ) {
        let kinds = link.kinds, openingStock = link.openingStock
        for index in kinds.indices where kinds[index] == .menuItem {
            let itemNeeds: ArraySlice<RecipeBook.FruitAmount>? = if let planned { planned[index].map { $0[...] } } else { link.need(of: index) }
            guard let itemNeeds else {
                // A cycle or an overflow left this item's need unknown.
                coverage.skip(.neverMakeable)
                continue
            }
            guard itemNeeds.contains(where: { $0.amount > openingStock[$0.fruit] }) else { continue }
            // A fruit whose id is invalid, or whose stock another error hid,
            // is not known to be short: then the check did not judge the item.
            let short = itemNeeds.filter {
                $0.amount > openingStock[$0.fruit] && !invalidFruit[$0.fruit] && !link.stockIsUnknown(ofFruit: $0.fruit)
            }
            guard !short.isEmpty else {
                coverage.skip(.neverMakeable)
                continue
            }
            // Substitutes may cover what the opening stock lacks: the
            // engine's rule says whether they do (docs/recipes.md).
            if let substitutes = link.substitutes {
                var cover = SubstituteCover(fruits: openingStock.count)
                cover.begin()
                for need in itemNeeds { cover.require(need.fruit, need.amount) }
                if cover.cover(stock: openingStock, substitutes: substitutes) { continue }
            }
            let detail = short.map { "\($0.amount) '\(link.fruitID($0.fruit))' (stock \(openingStock[$0.fruit]))" }
            let message = "menu item '\(link.blendID(index))' needs \(detail.joined(separator: ", ")), more than the opening stock holds"
            guard let stockFile = link.stockFile else {
                diagnostics.append(Diagnostic(
                    .neverMakeable, at: link.blendRange(index), message,
                    help: "it can be served only after a restock; raise the stock or lower the recipe if that is not intended"
                ))
                continue
            }
            // The stock came from a file the book does not show: say where.
            let notes = short.map { need -> Diagnostic.Note in
                let fruit = link.fruitID(need.fruit)
                if let entry = link.stockEntry(ofFruit: need.fruit) {
                    return .init(range: entry, message: "'\(fruit)' is stocked here")
                }
                return .init(range: stockFile, message: "'\(stockFile.file)' has no entry for '\(fruit)'")
            }
            diagnostics.append(Diagnostic(
                .neverMakeable, at: link.blendRange(index), message, notes: notes,
                help: "it can be served only after a restock; raise the stock in '\(stockFile.file)' or lower the recipe if that is not intended"
            ))
        }
    }

    /// A fruit with no stock entry, reported where the entry belongs: at the
    /// fruit in the book, or in the stock file that replaced the book's stock.
    private func reportMissingStock(
        _ link: LinkFacts, invalidFruit: [Bool], into diagnostics: inout [Diagnostic], coverage: inout CheckCoverage
    ) {
        if let stockFile = link.stockFile { coverage.restrict(.missingStock, to: stockFile.file) }
        link.forEachFruitWithoutStockEntry { index, fruit, range, stockIsUnknown in
            // An invalid id, or stock another error hid, is not known to be missing.
            if invalidFruit[index] || stockIsUnknown {
                coverage.skip(.missingStock)
                return
            }
            guard let stockFile = link.stockFile else {
                diagnostics.append(Diagnostic(
                    .missingStock, at: range, String("fruit '", fruit, "' has no stock entry, so it starts at 0"),
                    help: String("add '", fruit, ": 0' under 'stock:' to say so explicitly")
                ))
                return
            }
            // An empty range is the file's start: it has no `stock:` key.
            let hasSection = stockFile.start != stockFile.end
            diagnostics.append(Diagnostic(
                .missingStock, at: stockFile,
                "stock file '\(stockFile.file)' has no entry for fruit '\(fruit)', so it starts at 0",
                notes: [.init(range: range, message: "'\(fruit)' is declared here")],
                help: hasSection
                    ? "add '\(fruit): 0' under 'stock:' in '\(stockFile.file)' to say so explicitly"
                    : "add a 'stock:' section with '\(fruit): 0' to '\(stockFile.file)' to say so explicitly"
            ))
        }
    }
}
