/// One large book file collected in pieces (`BookFilePieces`), on several
/// cores, and joined into what collecting the whole file gives.
extension DeclarationCollector {
    /// What a piece declares, and what the join needs to check that the
    /// piece was read as part of the whole file would have been.
    struct Piece: Sendable {
        var collector: DeclarationCollector
        /// False when anything about the piece is not as the plan assumed,
        /// or when it has any problem to report: the file is then read whole,
        /// so that every problem is found and worded as it always is.
        var fits: Bool
        /// The hashes of the keys this piece adds to one mapping of the
        /// file: the top-level keys of a head or top-level piece, the ids of
        /// an entries piece. Pieces that add the same key to one mapping make
        /// a repeated key, which only the whole file reports; equal hashes
        /// of different keys only cost a whole read.
        var keyHashes: [Int] = []
        /// A head or top-level piece's last key, when its value is a block
        /// mapping the next piece may continue: the key, the column its
        /// entries start at, and the hashes of their ids.
        var openSection: (name: String, column: Int, keyHashes: [Int])?
        /// The file's suppression comments, found by the head's worker.
        var suppressions: [Suppression] = []
    }

    /// Whether nothing was reported and nothing left out.
    var isClean: Bool {
        diagnostics.isEmpty && stockDiagnostics.isEmpty && shadows.isEmpty && shadowStock.isEmpty
            && looseIDs.isEmpty && looseStock.isEmpty && !stockIncomplete
    }

    /// The pieces joined in order, or nil when any piece does not fit or two
    /// pieces repeat a key of one mapping.
    static func joined(_ pieces: consuming [Piece], plan: BookFilePieces) -> DeclarationCollector? {
        guard pieces.count == plan.pieces.count, pieces.allSatisfy(\.fits) else { return nil }
        var topLevel = Set<Int>()
        // One set for every section mapping that is split: keys of different
        // sections are told apart by the section's place in the file.
        var sectionKeys = Set<Int>(minimumCapacity: pieces.reduce(0) { $0 + $1.keyHashes.count + ($1.openSection?.keyHashes.count ?? 0) })
        var open: (name: String, column: Int, number: Int)?
        var sections = 0
        for (piece, planned) in zip(pieces, plan.pieces) {
            switch planned.kind {
            case .head, .topLevel:
                for hash in piece.keyHashes where !topLevel.insert(hash).inserted { return nil }
                open = nil
                if let section = piece.openSection {
                    sections += 1
                    open = (section.name, section.column, sections)
                    for hash in section.keyHashes where !sectionKeys.insert(hash ^ sections).inserted { return nil }
                }
            case .entries(let section, let indent):
                guard let current = open, current.name == section, current.column == indent + 1 else { return nil }
                for hash in piece.keyHashes where !sectionKeys.insert(hash ^ current.number).inserted { return nil }
            }
        }
        var joined = DeclarationCollector()
        joined.declarations.reserveCapacity(pieces.reduce(0) { $0 + $1.collector.declarations.count })
        joined.fruits.reserveCapacity(pieces.reduce(0) { $0 + $1.collector.fruits.count })
        joined.composites.reserveCapacity(pieces.reduce(0) { $0 + $1.collector.composites.count })
        joined.ingredients.reserveCapacity(pieces.reduce(0) { $0 + $1.collector.ingredients.count })
        joined.stock.reserveCapacity(pieces.reduce(0) { $0 + $1.collector.stock.count })
        // Each piece is let go once appended, so the file's declarations are
        // not held twice over while the joined lists fill.
        for index in pieces.indices {
            joined.append(pieces[index].collector)
            pieces[index].collector = DeclarationCollector()
        }
        return joined
    }

    /// Adds a clean piece's declarations after this one's, as if they had
    /// been collected next in one file.
    private mutating func append(_ other: DeclarationCollector) {
        let fruitBase = fruits.count, compositeBase = composites.count, ingredientBase = ingredients.count
        for var declared in other.declarations {
            declared.definition.index += declared.definition.kind == .fruit ? fruitBase : compositeBase
            declarations.append(declared)
        }
        fruits += other.fruits
        for var composite in other.composites {
            composite.ingredients = composite.ingredients.lowerBound + ingredientBase..<composite.ingredients.upperBound + ingredientBase
            composites.append(composite)
        }
        ingredients += other.ingredients
        stock += other.stock
    }
}

extension DeclarationCollector.Worker {
    /// Composes and collects one piece of `file`, as `plan` cut it.
    mutating func collect(piece index: Int, of plan: BookFilePieces, in file: SourceFile) -> DeclarationCollector.Piece {
        let planned = plan.pieces[index]
        var fits = true, documents = 0
        var keyHashes: [Int] = []
        var openSection: (name: String, column: Int, keyHashes: [Int])?
        let collector = withBuffers { composer, collector in
            let (diagnostics, end) = composer.compose(
                piece: file.bytes[planned.bytes], firstLine: planned.firstLine, file: file.path
            ) { document in
                documents += 1
                // Every piece is one block mapping: the whole file's, or a run of one of its sections.
                guard documents == 1, document.status == .complete, document.aliases.isEmpty, !document.hasMerges,
                      let root = document.root, Self.isBlockMapping(document, root)
                else {
                    fits = false
                    return
                }
                let start = document[root].start
                switch planned.kind {
                case .head:
                    fits = start.column == 1
                    collector.collect(document)
                    openSection = Self.openSection(document, root)
                case .topLevel:
                    fits = start.line == planned.firstLine && start.column == 1
                    collector.collect(document)
                    openSection = Self.openSection(document, root)
                case .entries(let section, let indent):
                    fits = start.line == planned.firstLine && start.column == indent + 1
                    _ = collector.collectTopLevel(section, document, root)
                }
                keyHashes = Self.keyHashes(document, root)
            }
            fits = fits && documents == 1 && diagnostics.isEmpty && end?.line == planned.endLine
        }
        fits = fits && collector.isClean
        return .init(
            collector: collector, fits: fits, keyHashes: keyHashes, openSection: openSection,
            suppressions: planned.kind == .head ? Suppression.scan(file) : []
        )
    }

    private static func keyHashes(_ document: YAMLDocument, _ mapping: YAMLNode.ID) -> [Int] {
        var hashes: [Int] = []
        hashes.reserveCapacity(document[mapping].childCount / 2)
        for (key, _) in document.pairs(of: mapping) { hashes.append(document[key].value.hashValue) }
        return hashes
    }

    /// The mapping's last key, when its value is a mapping written in block
    /// style below it, which a next piece of entries may continue.
    private static func openSection(_ document: YAMLDocument, _ mapping: YAMLNode.ID) -> (name: String, column: Int, keyHashes: [Int])? {
        let children = document.children(of: mapping)
        guard children.count >= 2, let value = children.last else { return nil }
        let key = children[children.endIndex - 2]
        guard document[key].kind == .scalar, isBlockMapping(document, value) else { return nil }
        return (document[key].value, document[value].start.column, keyHashes(document, value))
    }

    /// A mapping written in block style starts where its first key does; a
    /// flow mapping starts at its brace. (One that starts with an explicit
    /// `?` key is not taken for block style: that only costs a whole read.)
    private static func isBlockMapping(_ document: YAMLDocument, _ id: YAMLNode.ID) -> Bool {
        let node = document[id]
        guard node.kind == .mapping, let first = document.children(of: id).first else { return false }
        return node.start == document[first].start
    }
}
