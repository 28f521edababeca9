@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics
@_spi(Internals) import JuiceYAML
// What a file declares, as `DeclarationCollector` records it and
// `BookDeclarations` merges it: plain records, apart from the collector that
// reads them out of YAML.

package struct FruitDeclaration: Sendable {
    var id: String
    var range: SourceRange
    var label: String?
    var emoji: String?
    /// Version 2's terms, out of line: nil for a fruit with none, which is
    /// every fruit of a version 1 book.
    private var terms: OutOfLine<FruitTerms>?

    init(id: String, range: SourceRange, label: String? = nil, emoji: String? = nil) {
        self.id = id
        self.range = range
        self.label = label
        self.emoji = emoji
    }

    /// The cost of one unit, in the shop's smallest currency unit (version 2).
    var cost: Int? {
        get { terms?.value.cost }
        set { terms.modify(from: FruitTerms()) { $0.cost = newValue } }
    }

    /// How many units one purchase gives (version 2).
    var pack: Int? {
        get { terms?.value.pack }
        set { terms.modify(from: FruitTerms()) { $0.pack = newValue } }
    }

    /// Days a unit keeps (version 2).
    var keeps: Int? {
        get { terms?.value.keeps }
        set { terms.modify(from: FruitTerms()) { $0.keeps = newValue } }
    }

    /// How the planner restocks it (version 2).
    var restock: RecipeBook.Restock? {
        get { terms?.value.restock }
        set { terms.modify(from: FruitTerms()) { $0.restock = newValue } }
    }

    /// The fruits that may stand in for it, as written (version 2).
    var substitutes: [SubstituteDeclaration] {
        get { terms?.value.substitutes ?? [] }
        set { terms.modify(from: FruitTerms()) { $0.substitutes = newValue } }
    }
}

/// What version 2 adds to a fruit (`FruitDeclaration`).
struct FruitTerms: Sendable {
    var cost: Int?
    var pack: Int?
    var keeps: Int?
    var restock: RecipeBook.Restock?
    var substitutes: [SubstituteDeclaration] = []
}

/// One entry of a fruit's `substitutes:` (version 2), in the order written:
/// the name is resolved by the linker (`SubstituteResolver`), the range is
/// where its diagnostics, definition and rename point.
struct SubstituteDeclaration: Sendable {
    var name: String
    var range: SourceRange
    /// Units of it that replace one missing unit; nil when the ratio is not
    /// a valid one (already reported): the name is still resolved.
    var ratio: Int?
    /// How the name was written, for a fix should it be unknown.
    var spelling: NameSpelling
}

struct IngredientDeclaration: Sendable {
    var name: String
    /// `name.hashValue`, computed here, on the worker, for `NameTable`.
    var nameHash: Int
    var range: SourceRange
    var amount: Int
    /// How the name was written, for a fix should it be unknown.
    var spelling: NameSpelling
}

/// A recipe or a menu item: both have ingredients and can be ingredients.
package struct BlendDeclaration: Sendable {
    var id: String
    var kind: DeclarationKind
    var range: SourceRange
    var label: String?
    var price: Int?
    /// A recipe's long form's terms (version 2), out of line: nil for every
    /// blend that has none.
    private var terms: OutOfLine<BlendTerms>?
    /// This blend's ingredients in the collector's `ingredients`.
    var ingredients: Range<Int> = 0..<0

    init(id: String, kind: DeclarationKind, range: SourceRange, label: String? = nil, price: Int? = nil, ingredients: Range<Int> = 0..<0) {
        self.id = id
        self.kind = kind
        self.range = range
        self.label = label
        self.price = price
        self.ingredients = ingredients
    }

    /// A recipe's servings per batch, where its long form says (version 2).
    var yield: Int? {
        get { terms?.value.yield }
        set { terms.modify(from: BlendTerms()) { $0.yield = newValue } }
    }

    /// Days a recipe's servings keep, where its long form says (version 2).
    var keeps: Int? {
        get { terms?.value.keeps }
        set { terms.modify(from: BlendTerms()) { $0.keeps = newValue } }
    }
}

/// What a recipe's long form adds (`BlendDeclaration`).
struct BlendTerms: Sendable {
    var yield: Int?
    var keeps: Int?
}

struct StockDeclaration: Sendable {
    /// The fruit, or in version 2 the recipe, the entry names.
    var fruit: String
    var range: SourceRange
    var amount: Int
    /// Whether the entry may name a recipe (its file is not version 1).
    var mayNameRecipe: Bool
}

/// A recipe or menu item checked but left out of the book (a repeated
/// key's, or a duplicate definition's): its ingredients' names are still
/// resolved, and each problem carries `notes` saying why it is left out.
struct LeftOutDeclaration: Sendable {
    var blend: BlendDeclaration
    var notes: [Diagnostic.Note]
}

/// A stock entry checked but left out of the book, under a repeated key.
struct LeftOutStockEntry: Sendable {
    var fruit: String
    var range: SourceRange
    var notes: [Diagnostic.Note]
}

/// A stock entry as written. Whether it counts depends on earlier files:
/// a repeated entry is reported as a repeat only, and its amount's
/// problems are not reported, so they wait in `stockDiagnostics` until
/// `merge` knows. (The worker reads every amount; that is cheaper than
/// asking first.)
struct StockEntry: Sendable {
    var fruit: String
    var range: SourceRange
    /// Nil when the amount is not a valid count.
    var amount: Int?
    /// Whether the entry's file lets stock name a recipe (any version but 1).
    var mayNameRecipe: Bool
    /// This entry's problems in `stockDiagnostics`.
    package var diagnostics: Range<Int>
}

/// A fruit, recipe or menu item as declared, and its id's `hashValue`.
package struct Declared: Sendable {
    var definition: DeclarationCollector.Definition
    var idHash: Int
    /// The problems found inside its body, in `diagnostics`: should it
    /// turn out to be a duplicate, `merge` notes that on each of them.
    package var diagnostics: Range<Int> = 0..<0
}

/// A fruit's `restock:` as read: its amounts, and the nodes its checks point at.
struct RestockDeclaration {
    var mapping: YAMLNode.ID
    var key: YAMLNode.ID
    var upTo: (value: Int?, node: YAMLNode.ID)?
    var below: (value: Int?, node: YAMLNode.ID)?
    var lead: Int?
}
