import JuiceSource
import JuiceDiagnostics
/// What the linker leaves for a `BookAnalysisPass`: the linked graph's
/// facts that the opening-stock and cost rules read, by the linker's
/// numbering (blends are recipes and menu items in declaration order).
///
/// Made only when a pass will read it, and read once: it holds the flat
/// needs and the blends as the book's lists, which the link made anyway,
/// and the declarations, for names and places in the messages.
package struct LinkFacts: Sendable {
    /// The cost rules, judged only on a book with no error (`isClean`).
    package static let costRules: [Rule] = [.priceBelowCost, .missingCost, .costTooLarge]
    /// The rules a pass judges; without a pass they look at nothing.
    package static let passRules: [Rule] = costRules + [.neverMakeable, .missingStock]

    let declarations: BookDeclarations
    let needs: Linker.NeedTable
    /// Rules not to judge: their diagnostics would only be thrown away.
    package let rulesOff: Set<Rule>
    /// Each blend's kind.
    package let kinds: [DeclarationKind]
    /// The blends as the book's recipes and menu items, made when the book
    /// keeps servings or declares costs; nil otherwise.
    package let lists: RecipeLists?
    /// The opening stock by fruit index.
    package let openingStock: [Int]
    /// Whether some recipe declares a yield or is stocked (`RecipeBook.keepsServings`).
    package let keepsServings: Bool
    /// Whether some fruit declares a `cost:`.
    package var declaresCost: Bool { declarations.declaresCost }
    /// Whether the book had no error and no unknown name when the linker
    /// finished its checks: the cost rules, which need every edge, judge
    /// only then. Looked at only for them (false when some fruit declares
    /// no cost or they are all off): a book can have 200,000 diagnostics.
    package let isClean: Bool
    /// Where in the linker's diagnostics the pass's go, so that the order
    /// is the one the linker's own analyses had.
    let diagnosticIndex: Int
    /// By fruit index, the fruits that may stand in for it, resolved; nil
    /// when the book lists no substitutes.
    package let substitutes: [[RecipeBook.Substitute]]?

    init(
        declarations: BookDeclarations, needs: Linker.NeedTable, rulesOff: Set<Rule>, kinds: [DeclarationKind], lists: RecipeLists?,
        openingStock: [Int], keepsServings: Bool, isClean: Bool, diagnosticIndex: Int, substitutes: [[RecipeBook.Substitute]]? = nil
    ) {
        self.substitutes = substitutes
        self.declarations = declarations
        self.needs = needs
        self.rulesOff = rulesOff
        self.kinds = kinds
        self.lists = lists
        self.openingStock = openingStock
        self.keepsServings = keepsServings
        self.isClean = isClean
        self.diagnosticIndex = diagnosticIndex
    }

    /// Blend `blend`'s flattened need, in fruit order; nil where a cycle or
    /// an overflow left it unknown.
    package func need(of blend: Int) -> ArraySlice<RecipeBook.FruitAmount>? { needs[blend] }

    /// Whether blend `blend`'s flattened need is known.
    package func needIsKnown(_ blend: Int) -> Bool { needs.span(of: blend) != nil }

    package var fruitCount: Int { declarations.fruits.count }
    package func fruitID(_ fruit: Int) -> String { declarations.fruits[fruit].id }
    package func fruitRange(_ fruit: Int) -> SourceRange { declarations.fruits[fruit].range }
    /// Each fruit's cost of one unit, nil where undeclared.
    package func fruitCosts() -> [Int?] { declarations.fruits.map(\.cost) }

    package func blendID(_ blend: Int) -> String { declarations.blends[blend].id }
    package func blendRange(_ blend: Int) -> SourceRange { declarations.blends[blend].range }
    package func blendPrice(_ blend: Int) -> Int? { declarations.blends[blend].price }

    /// Set when a stock file replaced the book's stock: its `stock:` key, or
    /// an empty range at its start when it has none.
    package var stockFile: SourceRange? { declarations.stockFile }
    /// Where fruit `fruit`'s stock entry is, if it has one that counts.
    package func stockEntry(ofFruit fruit: Int) -> SourceRange? { declarations.stockRanges[declarations.fruits[fruit].id] }
    /// Whether fruit `fruit`'s opening stock is unknown because of another
    /// problem, already an error (`BookDeclarations.stockIsUnknown`).
    package func stockIsUnknown(ofFruit fruit: Int) -> Bool { declarations.stockIsUnknown(declarations.fruits[fruit].id) }

    /// By fruit index, whether the fruit's id is invalid: such a fruit gets
    /// no stock advice, since renaming it is the fix, and its invalid-name
    /// error says so.
    package func invalidFruits() -> [Bool] {
        var invalidRanges: Set<SourceRange> = []
        for diagnostic in declarations.diagnostics where diagnostic.rule == .invalidName { invalidRanges.insert(diagnostic.range) }
        return invalidRanges.isEmpty
            ? [Bool](repeating: false, count: declarations.fruits.count)
            : declarations.fruits.map { invalidRanges.contains($0.range) }
    }

    /// Calls `body` with each fruit that has no stock entry, in fruit order:
    /// its index, id and range, and whether its stock is unknown because of
    /// another problem. One pass that reads each fruit's record once: asking
    /// for the id, the range and the unknown stock one by one copied the
    /// record (its strings retained and released) three more times a fruit,
    /// and a book of 100,000 fruits with no stock took 9% more instructions
    /// to lint (1,592.7 M at 6acbf2b, 1,735.5 M; callgrind).
    package func forEachFruitWithoutStockEntry(_ body: (_ index: Int, _ id: String, _ range: SourceRange, _ stockIsUnknown: Bool) -> Void) {
        for (index, fruit) in declarations.fruits.enumerated() where declarations.stockRanges[fruit.id] == nil {
            body(index, fruit.id, fruit.range, declarations.stockIsUnknown(fruit.id))
        }
    }
}
