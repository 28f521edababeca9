import DifferentialSupport
import Testing
@testable import JuiceSource
@testable import JuiceBook
@testable import JuiceCommandLine
@testable import JuiceEngine

/// A large book file collected in pieces on several cores must give exactly
/// what the whole file gives. Over seeded one-file books full of the things
/// that break a cut made by looking at line starts (quoted and flow scalars
/// over several lines, block scalars, anchors, merges, repeated keys and
/// sections, second documents, tabs, CR and U+2028 line breaks, a BOM), cut
/// into small pieces, the unit made from the pieces lints the same as the
/// unit of the whole file, in every format, with the same book and index.
/// A failure names the seed; `PiecesBook.text(seed:)` gives its file.
@Suite struct LargeFileCutTests {
    static let caseCount = 800

    @Test func piecesGiveWhatTheWholeFileGives() {
        var joined = 0, fellBack = 0, failures = 0
        for seed in 1...UInt64(Self.caseCount) {
            var random = SplitMix64(seed: seed)
            let bytes = PiecesBook.bytes(&random)
            let file = SourceFile(path: "book.yaml", bytes: bytes)
            guard let plan = LargeFileCut(bytes: bytes, cores: 2, minimumBytes: 0, pieceBytes: random.int(in: 30...300)) else {
                continue
            }
            var worker = DeclarationCollector.Worker()
            let pieces = plan.pieces.indices.map { worker.collect(piece: $0, of: plan, in: file) }
            if Self.joined(pieces, plan) == nil { fellBack += 1 } else { joined += 1 }
            var cut = RecipeWorkspace(analysis: true, pass: OpeningStockAnalysis(), book: true), whole = RecipeWorkspace(analysis: true, pass: OpeningStockAnalysis(), book: true)
            cut.load(WorkspaceUnit(bookFile: file, plan: plan, pieces: pieces))
            whole.load(WorkspaceUnit(bookFile: file))
            let (mine, theirs) = (cut.snapshot(), whole.snapshot())
            let same = mine.diagnostics == theirs.diagnostics && sameBook(mine.book, theirs.book)
                && mine.suppressions == theirs.suppressions
                && mine.index.definitions == theirs.index.definitions && mine.index.references == theirs.index.references
                && WorkspaceEditSequenceTests.renderings(mine, [file]) == WorkspaceEditSequenceTests.renderings(theirs, [file])
            if !same {
                failures += 1
                Issue.record("seed \(seed): the pieces (\(plan.pieces.count)) differ from the whole file")
                if failures > 3 { break }
            }
        }
        #expect(failures == 0)
        // Both ways are taken often: the check is not vacuous either way.
        #expect(joined >= Self.caseCount / 5)
        #expect(fellBack >= Self.caseCount / 5)
    }

    /// Substitute references come after every ingredient reference of the
    /// file, whether the file is read whole or in pieces (found by the fuzz
    /// target `recipe-bytes` on a seed with substitutes).
    @Test(arguments: [30, 48, 64, 120])
    func aBookWithSubstitutesCutsAsTheWhole(pieceBytes: Int) throws {
        let text = "version: 2\nfruits:\n  mango:\n    substitutes:\n      frozen-mang: 1\n      papaya: 2\n  frozen-mango:\n"
            + "stock:\n  mango: 1\n  frozen-mango: 1\nmenu:\n  mango-juice:\n    recipe: { mango: 1 }\n"
        let file = SourceFile(path: "book.yaml", bytes: Array(text.utf8))
        let plan = try #require(LargeFileCut(bytes: file.bytes, cores: 2, minimumBytes: 0, pieceBytes: pieceBytes))
        var worker = DeclarationCollector.Worker()
        let pieces = plan.pieces.indices.map { worker.collect(piece: $0, of: plan, in: file) }
        var cut = RecipeWorkspace(analysis: true, pass: OpeningStockAnalysis()), whole = RecipeWorkspace(analysis: true, pass: OpeningStockAnalysis())
        cut.load(WorkspaceUnit(bookFile: file, plan: plan, pieces: pieces))
        whole.load(WorkspaceUnit(bookFile: file))
        let (mine, theirs) = (cut.snapshot(), whole.snapshot())
        #expect(mine.diagnostics == theirs.diagnostics)
        #expect(mine.index.definitions == theirs.index.definitions)
        #expect(mine.index.references.map(\.role) == theirs.index.references.map(\.role))
        #expect(mine.index.references == theirs.index.references)
    }

    /// The line that starts each piece is where libyaml puts it.
    @Test func aCleanBookIsCutAtEntries() throws {
        var text = "version: 1\nfruits:\n  apple:\n  kiwi: { label: Kiwi }\nstock:\n  apple: 3\n  kiwi: 4\nmenu:\n"
        for item in 0..<40 { text += "  juice-\(item):\n    label: Juice \(item)\n    recipe: { apple: 1, kiwi: 2 }\n" }
        let bytes = Array(text.utf8)
        let plan = try #require(LargeFileCut(bytes: bytes, cores: 2, minimumBytes: 0, pieceBytes: 300))
        #expect(plan.pieces.count > 3)
        #expect(plan.pieces.first?.kind == .head)
        #expect(plan.pieces.dropFirst().allSatisfy { $0.kind == .entries(section: "menu", indent: 2) })
        let second = plan.pieces[1]
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false)[second.firstLine - 1].hasPrefix("  juice-"))
        var worker = DeclarationCollector.Worker()
        let file = SourceFile(path: "book.yaml", bytes: bytes)
        let pieces = plan.pieces.indices.map { worker.collect(piece: $0, of: plan, in: file) }
        #expect(pieces.allSatisfy { $0.fits })
        let parts = try #require(Self.joined(pieces, plan))
        #expect(parts.count == plan.pieces.count)
        #expect(parts.map(\.blends.count).reduce(0, +) == 40)
        #expect(parts.last?.blends.last?.range.start == SourcePosition(line: 9 + 3 * 39, column: 3))
    }

    static func joined(_ pieces: [DeclarationCollector.Piece], _ plan: LargeFileCut) -> [DeclarationCollector]? {
        var pieceJoin = DeclarationCollector.PieceJoin(plan: plan)
        for piece in pieces { pieceJoin.add(piece) }
        return pieceJoin.finish()
    }

    /// A file below the size, or in UTF-16, is read whole.
    @Test func smallAndUTF16FilesAreNotCut() {
        let text = Array("menu:\n  a: { recipe: { b: 1 } }\n".utf8)
        #expect(LargeFileCut(bytes: text, cores: 2) == nil)
        #expect(LargeFileCut(bytes: text, cores: 1, minimumBytes: 0, pieceBytes: 1) == nil)
        #expect(LargeFileCut(bytes: [0xFF, 0xFE] + text, cores: 2, minimumBytes: 0, pieceBytes: 1) == nil)
    }
}

/// Seeded one-file books for `LargeFileCutTests`: mostly plain entries,
/// with a few of the constructs a cut must not fall into.
enum PiecesBook {
    static func text(seed: UInt64) -> String {
        var random = SplitMix64(seed: seed)
        return String(decoding: bytes(&random), as: UTF8.self)
    }

    static func bytes(_ random: inout SplitMix64) -> [UInt8] {
        let fruits = (0..<random.int(in: 2...30)).map { "fruit\($0)" }
        let rare = random.int(in: 0...3) // how often the odd constructs appear
        var lines: [String] = []
        if random.chance(1, in: 2) { lines.append("version: 1") }
        var sections = ["fruits", "stock", "recipes", "menu"].filter { _ in !random.chance(1, in: 8) }
        if random.chance(1, in: 6) { sections.append(random.pick(sections + ["menu"])) }
        sections = random.shuffled(sections)
        for section in sections {
            if random.chance(rare, in: 30) { lines.append(random.pick(["---", "notes: |\n  text\n  more: x", "{ odd: 1 }", "...", "\tversion: 1"])) }
            lines.append(section + ":" + (random.chance(1, in: 10) ? "  # the " + section : ""))
            let indent = random.chance(1, in: 8) ? "    " : "  "
            let named = section == "stock" || section == "fruits"
            let order = random.shuffled(fruits)
            for entry in 0..<(named ? random.int(in: 0...fruits.count) : random.int(in: 0...30)) {
                let id = named ? order[entry] : "\(section)-\(random.chance(rare, in: 20) ? 0 : entry)"
                lines.append(indent + entryText(id, section: section, indent: indent, fruits: fruits, rare: rare, &random))
                if random.chance(1, in: 12) {
                    // libyaml also breaks lines at a lone CR and at U+0085, U+2028 and U+2029.
                    lines.append(random.chance(rare, in: 6)
                        ? random.pick([indent + "# a\r" + indent + "# b", indent + "# a\u{2028}b", "#\u{85}c"])
                        : random.pick(["", "# note", indent + "# note", "      # deep"]))
                }
            }
        }
        let newline = random.chance(1, in: 6) ? "\r\n" : "\n"
        var text = lines.joined(separator: "\n").replacingOccurrences(of: "\n", with: newline)
        if random.chance(3, in: 4) { text += newline }
        return (random.chance(1, in: 10) ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
    }

    private static func entryText(
        _ id: String, section: String, indent: String, fruits: [String], rare: Int, _ random: inout SplitMix64
    ) -> String {
        let deeper = indent + "  "
        if random.chance(rare, in: 25) {
            return random.pick([
                id + ": { label: \"over\n" + indent + "two lines\" }",
                id + ": { label: x,\n" + indent + "emoji: y }",
                id + ": &a { label: L }",
                id + ": *a",
                id + ":\n" + deeper + "<<: { label: M }\n" + deeper + "recipe: { " + random.pick(fruits) + ": 1 }",
                id + ":\n" + deeper + "label: |\n" + deeper + "  block\n" + indent + "fake-key: 1",
                id + ": \"quoted\n" + indent + "fake: 2\"",
                id + ": 'x\u{2028}y'",
                id + ": # c\r" + indent + "other: 1",
                id + ":\n" + deeper + "- a",
                "- " + id,
                "\"" + id + "\": 3",
                id + ": { recipe: { " + random.pick(fruits) + ": -1 } }",
                id + ": { recipe: { typo" + random.pick(fruits) + ": 1 } }",
            ])
        }
        switch section {
        case "stock":
            return id + ": \(random.int(in: 0...40))"
        case "fruits":
            return random.chance(1, in: 2) ? id + ": { label: \(id.uppercased()) }" : id + ":\n" + deeper + "label: \(id)"
        default:
            let recipe = random.shuffled(fruits).prefix(random.int(in: 1...3)).map { "\($0): \(random.int(in: 1...5))" }
            if section == "recipes" {
                return random.chance(1, in: 2) ? id + ": { " + recipe.joined(separator: ", ") + " }"
                    : id + ":\n" + recipe.map { deeper + $0 }.joined(separator: "\n")
            }
            if random.chance(1, in: 2) {
                return id + ": { label: L \(id), recipe: { " + recipe.joined(separator: ", ") + " } }"
            }
            return id + ":\n" + deeper + "label: Juice \(id) 신선한\n" + deeper + "recipe:\n"
                + recipe.map { deeper + "  " + $0 }.joined(separator: "\n")
        }
    }
}
