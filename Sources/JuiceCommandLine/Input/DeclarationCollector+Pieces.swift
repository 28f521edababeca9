@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics
@_spi(Internals) import JuiceYAML
import JuiceBook
/// One large book file collected in pieces (`LargeFileCut`), on several
/// cores, and joined into what collecting the whole file gives.
extension DeclarationCollector {
    /// What a piece declares, and what the join needs to check that the
    /// piece was read as part of the whole file would have been.
    package struct Piece: Sendable {
        package var collector: DeclarationCollector
        /// False when anything about the piece is not as the plan assumed,
        /// or when it has any problem to report: the file is then read whole,
        /// so that every problem is found and worded as it always is.
        package var fits: Bool
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

    /// The pieces of one file checked as they arrive, in order: the loader
    /// adds each while later pieces are still being read on other cores.
    /// The pieces' declarations are kept as they are, one part each, not
    /// copied into one list: merging the parts one after another is merging
    /// the file (`WorkspaceUnit.parts`). Copying them into one file's lists,
    /// and then the whole file into the book's, was most of what was left
    /// to do after the last piece of a one-file book.
    package struct PieceJoin: Sendable {
        let plan: LargeFileCut
        /// How many pieces were added.
        private(set) var count = 0
        /// The head's suppression comments: the whole file's.
        private(set) var suppressions: [Suppression] = []
        private var parts: [DeclarationCollector] = []
        /// Whether every piece so far was read as the whole file would read it.
        private(set) var fits = true
        private var topLevel = PossiblySeenHashes()
        /// One set for every section mapping that is split: keys of
        /// different sections are told apart by the section's number.
        private var sectionKeys = PossiblySeenHashes()
        private var open: (name: String, column: Int, number: Int)?
        private var sections = 0

        package init(plan: LargeFileCut) {
            self.plan = plan
        }

        /// Whether every piece of the plan was added.
        package var isComplete: Bool { count == plan.pieces.count }

        /// Adds the next piece; once one does not fit, the rest are only counted.
        package mutating func add(_ piece: Piece) {
            guard count < plan.pieces.count else { return }
            let planned = plan.pieces[count]
            count += 1
            if planned.kind == .head { suppressions = piece.suppressions }
            guard fits else { return }
            fits = piece.fits && checkKeys(piece, planned.kind)
            guard fits else {
                parts = []
                return
            }
            parts.append(piece.collector)
        }

        /// The pieces' declarations in order, or nil when a piece did not fit.
        ///
        /// A piece of entries does not see the file's `version:`, so it reads
        /// as version 2; when another piece found `version: 1`, a piece that
        /// used a version 2 key sends the file to a whole read, and stock
        /// entries lose the right to name recipes, as in a whole read.
        consuming func finish() -> [DeclarationCollector]? {
            guard fits && isComplete else { return nil }
            guard parts.contains(where: { $0.languageVersion == 1 }) else { return parts }
            guard !parts.contains(where: \.usesVersionTwo) else { return nil }
            for part in parts.indices { parts[part].readStockAsVersionOne() }
            return parts
        }

        private mutating func checkKeys(_ piece: Piece, _ kind: LargeFileCut.Kind) -> Bool {
            switch kind {
            case .head, .topLevel:
                for hash in piece.keyHashes where !topLevel.insert(hash) { return false }
                open = nil
                if let section = piece.openSection {
                    sections += 1
                    open = (section.name, section.column, sections)
                    for hash in section.keyHashes where !sectionKeys.insert(hash ^ sections) { return false }
                }
            case .entries(let section, let indent):
                guard let current = open, current.name == section, current.column == indent + 1 else { return false }
                for hash in piece.keyHashes where !sectionKeys.insert(hash ^ current.number) { return false }
            }
            return true
        }
    }
}

extension DeclarationCollector.Worker {
    /// Composes and collects one piece of `file`, as `plan` cut it.
    package mutating func collect(piece index: Int, of plan: LargeFileCut, in file: SourceFile) -> DeclarationCollector.Piece {
        let planned = plan.pieces[index]
        var fits = true, documents = 0
        var keyHashes: [Int] = []
        var openSection: (name: String, column: Int, keyHashes: [Int])?
        let collector = withBuffers(bytes: planned.bytes.count) { composer, collector in
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

    /// The keys' `NameTable.utf8Hash`es: unseeded, and a few instructions a
    /// key rather than SipHash's hundred, which is safe here: keys that
    /// hash alike only send the file back to a whole read, and so does a
    /// long probe in the sets that hold them (`PossiblySeenHashes`). (On the 100,000-fruit
    /// book, SipHash here was 27 M of 714 M instructions.)
    private static func keyHashes(_ document: YAMLDocument, _ mapping: YAMLNode.ID) -> [Int] {
        var hashes: [Int] = []
        hashes.reserveCapacity(document[mapping].childCount / 2)
        for (key, _) in document.pairs(of: mapping) { hashes.append(document.withText(of: key) { NameTable<Int>.utf8Hash($0) }) }
        return hashes
    }

    /// The mapping's last key, when its value is a mapping written in block
    /// style below it, which a next piece of entries may continue.
    private static func openSection(_ document: YAMLDocument, _ mapping: YAMLNode.ID) -> (name: String, column: Int, keyHashes: [Int])? {
        let children = document.children(of: mapping)
        guard children.count >= 2, let value = children.last else { return nil }
        let key = children[children.endIndex - 2]
        guard document[key].kind == .scalar, isBlockMapping(document, value) else { return nil }
        return (document.text(of: key), document[value].start.column, keyHashes(document, value))
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

extension WorkspaceUnit {
    /// The unit of a large book file collected in pieces on several cores
    /// (`LargeFileCut`), or, when the pieces do not join into what the
    /// whole file gives, of the file read whole, here.
    package init(bookFile file: SourceFile, plan: LargeFileCut, pieces: consuming [DeclarationCollector.Piece]) {
        var pieceJoin = DeclarationCollector.PieceJoin(plan: plan)
        for piece in pieces { pieceJoin.add(piece) }
        self.init(bookFile: file, joined: pieceJoin)
    }

    /// The same, from pieces joined as they arrived.
    package init(bookFile file: SourceFile, joined pieceJoin: consuming DeclarationCollector.PieceJoin) {
        let suppressions = pieceJoin.suppressions
        guard let parts = pieceJoin.finish() else {
            self.init(bookFile: file)
            return
        }
        self.init(path: file.path, suppressions: suppressions, parts: parts)
    }
}
