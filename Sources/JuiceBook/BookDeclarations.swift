@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics
/// Every file's declarations merged in file order: the book's one namespace of
/// fruits, recipes and menu items, and its stock entries.
///
/// Files are collected independently (`DeclarationCollector`), often in
/// parallel; merging them here, one after another in the order given, is
/// what makes the result the same as reading the book top to bottom: the
/// first declaration of an id stands, and each later one is reported with a
/// note pointing at the first, wherever it was.
struct BookDeclarations: Sendable {
    typealias Definition = DeclarationCollector.Definition

    package var diagnostics: [Diagnostic] = []
    /// Each id's first declaration.
    var definitions = NameTable<Definition>()
    /// Each fruit that stands, in the order declared. A file's (or a
    /// piece's) fruits stay in its collector's array when every one of them
    /// stands, as they nearly always do (`ChunkedList`).
    private(set) var fruits = ChunkedList<FruitDeclaration>(copyBelow: Self.copyBelow)
    /// Each recipe and menu item that stands, in the order declared, kept
    /// as fruits are.
    private(set) var blends = BlendList()
    /// Every blend's ingredients, numbered one blend after another
    /// through the whole book (`BlendDeclaration.ingredients` holds such
    /// numbers), including those of blends dropped as repeats. They stay
    /// in each file's own array, as its collector made it: copying a book's
    /// hundreds of thousands into one array cost more than all the rest of
    /// the merge.
    private(set) var ingredients = ChunkedList<IngredientDeclaration>(copyBelow: 0)
    var stock: [StockDeclaration] = []
    /// Every stock entry that counts, valid or not, by fruit name.
    private(set) var stockRanges: [String: SourceRange] = [:]
    /// Set when a stock file replaced the book's stock: where a fruit it
    /// leaves out is reported (its `stock:` key, or an empty range at its
    /// start when it has none).
    private(set) var stockFile: SourceRange?
    /// Recipes and menu items checked but left out of the book (repeats,
    /// duplicate definitions): the linker still resolves their names.
    private(set) var leftOut: [LeftOutDeclaration] = []
    private(set) var leftOutStock: [LeftOutStockEntry] = []
    /// Ids declared only where they do not count (`DeclarationCollector.uncountedIDs`).
    private(set) var uncountedIDs: Set<String> = []
    /// Fruits whose stock is unknown rather than missing: stocked where it
    /// does not count, or by an entry whose amount could not be read.
    private(set) var uncountedStock: Set<String> = []
    /// Whether a recipe that stands declared a `yield:`.
    private(set) var declaresYield = false
    /// Whether a fruit declared a `cost:`.
    private(set) var declaresCost = false
    /// Whether any fruit lists substitutes: a book without them skips their pass.
    private(set) var declaresSubstitutes = false
    /// Whether stock entries may have been lost unseen.
    private(set) var stockIncomplete = false

    /// Where the declaration an id names was written.
    func range(of definition: Definition) -> SourceRange {
        definition.kind == .fruit ? fruits[definition.index].range : blends[definition.index].range
    }

    /// A file's fruits are copied, rather than kept in its own array, when
    /// fewer than this: a book of many small files keeps few arrays.
    /// (Blends are always kept, with their file's first ingredient.)
    static let copyBelow = 1024

    /// Every fruit's id, then every blend's: the list a "did you mean"
    /// index is built from.
    var everyID: [String] {
        fruits.map(\.id) + blends.ids
    }

    /// Whether `names` equals `everyID`, compared in place.
    func idsEqual(_ names: [String]) -> Bool {
        guard names.count == fruits.count + blends.count else { return false }
        return fruits.fieldsEqual(\.id, names[..<fruits.count]) && blends.idsEqual(names[fruits.count...])
    }

    /// Room for `total` ids in all, before the first file is merged.
    mutating func expect(ids total: Int) {
        if total > definitions.count { definitions.reserve(total - definitions.count) }
    }

    /// How many ids' slots `merge` reads ahead of inserting them
    /// (`NameTable.warm`): 4,096 cache lines, which stay in cache until used.
    static let warmedAhead = 4096

    /// Adds the next file's declarations.
    mutating func merge(_ file: consuming DeclarationCollector) {
        let firstDiagnostic = diagnostics.count
        diagnostics += file.diagnostics
        let base = ingredients.count
        ingredients.append(contentsOf: file.ingredients)
        definitions.reserve(file.declarations.count)
        // The file's fruits and blends that stand join the book after
        // the loop, each kind at once, in the file's own arrays when all of
        // them stand.
        var keptFruits = Kept(first: fruits.count)
        var keptBlends = Kept(first: blends.count)
        for (position, entry) in file.declarations.enumerated() {
            if position % Self.warmedAhead == 0 {
                definitions.warm(file.declarations[position..<min(position + Self.warmedAhead, file.declarations.count)].lazy.map(\.idHash))
            }
            let declared = entry.definition
            let isFruit = declared.kind == .fruit
            let id = isFruit ? file.fruits[declared.index].id : file.blends[declared.index].id
            let definition = Definition(kind: declared.kind, index: isFruit ? keptFruits.next : keptBlends.next)
            guard let first = definitions.insertIfAbsent(id, hash: entry.idHash, definition) else {
                if isFruit { keptFruits.keep(declared.index) } else { keptBlends.keep(declared.index) }
                continue
            }
            if isFruit { keptFruits.leaveOut() } else { keptBlends.leaveOut() }
            let range = file.range(of: declared)
            // The first may be this file's, not yet in the book.
            let firstRange = if first.kind == .fruit, let index = keptFruits.fileIndex(of: first.index) {
                file.fruits[index].range
            } else if first.kind != .fruit, let index = keptBlends.fileIndex(of: first.index) {
                file.blends[index].range
            } else {
                self.range(of: first)
            }
            diagnostics.append(Diagnostic(
                .duplicateDefinition, at: range, "'\(id)' is already defined as a \(first.kind.rawValue)",
                notes: [.init(range: firstRange, message: "'\(id)' is first defined here")],
                help: "fruits, recipes and menu items share one namespace; rename one of them"
            ))
            // Its body was checked as if it stood alone; what was found
            // there says why it is not in the book.
            let note = Diagnostic.Note(
                range: range,
                message: "'\(id)' here duplicates the definition at \(firstRange.file):\(firstRange.start); it is checked, but left out of the book"
            )
            for index in entry.diagnostics { diagnostics[firstDiagnostic + index].notes.append(note) }
            if !isFruit {
                var blend = file.blends[declared.index]
                blend.ingredients = blend.ingredients.lowerBound + base..<blend.ingredients.upperBound + base
                leftOut.append(.init(blend: blend, notes: [note]))
            }
        }
        declaresYield = declaresYield || file.declaresYield
        declaresCost = declaresCost || file.declaresCost
        declaresSubstitutes = declaresSubstitutes || file.declaresSubstitutes
        fruits.append(contentsOf: keptFruits.standing(file.fruits))
        blends.append(contentsOf: keptBlends.standing(file.blends), ingredientBase: base)
        mergeLeftOut(file, base: base)
        mergeStock(file)
    }

    /// Which of one file's fruits, or blends, stand, while the file is
    /// merged: they are numbered in the book from `first` on, in the order
    /// declared, and join it once the file is done.
    private struct Kept {
        let first: Int
        private var count = 0
        /// The file's indices of those that stand, once one was left out;
        /// while nil, every one so far stands, and number `first + k` is the
        /// file's own k.
        private var indices: [Int]?

        init(first: Int) {
            self.first = first
        }

        /// The book's number for the next one that stands.
        var next: Int { first + count }

        mutating func keep(_ index: Int) {
            indices?.append(index)
            count += 1
        }

        mutating func leaveOut() {
            if indices == nil { indices = Array(0..<count) }
        }

        /// The file's index of the book's number `number`, when it is one of
        /// this file's.
        func fileIndex(of number: Int) -> Int? {
            guard number >= first, number < next else { return nil }
            return indices.map { $0[number - first] } ?? number - first
        }

        /// Those of `all`, the file's list, that stand: `all` itself when
        /// every one does.
        func standing<T>(_ all: [T]) -> [T] {
            indices.map { $0.map { all[$0] } } ?? all
        }
    }

    /// What the file checked but left out of the book.
    private mutating func mergeLeftOut(_ file: borrowing DeclarationCollector, base: Int) {
        for var shadow in file.leftOut {
            shadow.blend.ingredients = shadow.blend.ingredients.lowerBound + base..<shadow.blend.ingredients.upperBound + base
            leftOut.append(shadow)
        }
        leftOutStock += file.leftOutStock
        uncountedIDs.formUnion(file.uncountedIDs)
        uncountedStock.formUnion(file.uncountedStock)
        stockIncomplete = stockIncomplete || file.stockIncomplete
    }

    /// Whether the opening stock of `fruit` is unknown because of another
    /// problem, already an error: an entry for it whose amount could not be
    /// read, one that does not count, or entries lost unseen. Then it is
    /// neither missing nor short.
    func stockIsUnknown(_ fruit: String) -> Bool {
        if uncountedStock.isEmpty && !stockIncomplete { return false }
        if stockRanges[fruit] != nil { return uncountedStock.contains(fruit) && !stock.contains { $0.fruit == fruit } }
        return stockIncomplete || uncountedStock.contains(fruit)
    }

    /// A stock file's entries replace every stock entry the book declared.
    mutating func replaceStock(with file: consuming DeclarationCollector) {
        stock = []
        stockRanges = [:]
        stockFile = file.stockSection
        leftOutStock = []
        uncountedStock = []
        stockIncomplete = false
        diagnostics += file.diagnostics
        leftOutStock += file.leftOutStock
        uncountedStock.formUnion(file.uncountedStock)
        stockIncomplete = file.stockIncomplete
        mergeStock(file)
    }

    /// The first entry for a fruit counts, even with an invalid amount; a
    /// repeat is reported as one, and its amount is still checked, as if it
    /// stood alone: its problems carry a note that it is left out.
    private mutating func mergeStock(_ file: borrowing DeclarationCollector) {
        stock.reserve(file.stock.count)
        for entry in file.stock {
            if let first = stockRanges.updateValue(entry.range, forKey: entry.fruit) {
                stockRanges[entry.fruit] = first
                diagnostics.append(Diagnostic(
                    .duplicateDefinition, at: entry.range, "stock for '\(entry.fruit)' is set twice",
                    notes: [.init(range: first, message: "stock for '\(entry.fruit)' is first set here")],
                    help: "keep one stock entry per fruit"
                ))
                let note = Diagnostic.Note(
                    range: entry.range,
                    message: "stock for '\(entry.fruit)' here repeats the entry at \(first.file):\(first.start); it is checked, but left out of the book"
                )
                for var diagnostic in file.stockDiagnostics[entry.diagnostics] {
                    diagnostic.notes.append(note)
                    diagnostics.append(diagnostic)
                }
                continue
            }
            diagnostics += file.stockDiagnostics[entry.diagnostics]
            if let amount = entry.amount {
                stock.append(.init(fruit: entry.fruit, range: entry.range, amount: amount, mayNameRecipe: entry.mayNameRecipe))
            } else {
                uncountedStock.insert(entry.fruit)
            }
        }
    }
}
