import DifferentialSupport
import Testing
@testable import JuiceSource
@testable import JuiceDiagnostics
@testable import JuiceBook
@testable import JuiceEngine

/// The workspace held to the batch compile: over a thousand seeded sequences
/// of random edits (add, change, break, fix and remove files, set and clear
/// the stock file), after every edit the incremental snapshot equals a fresh
/// batch compile of the same files: the diagnostics (also after the lint
/// configuration and suppressions), the book, the index; and after each
/// sequence, the diagnostics rendered in every format.
///
/// A failure names the seed; `EditSequence(seed:)` replays it.
@Suite struct WorkspaceEditSequenceTests {
    static let sequenceCount = 1_000

    @Test func incrementalSnapshotsEqualBatchCompiles() {
        var failures = 0
        var edits = 0
        for seed in 1...UInt64(Self.sequenceCount) {
            var sequence = EditSequence(seed: seed)
            var workspace = RecipeWorkspace(analysis: true, pass: OpeningStockAnalysis(), book: true)
            for step in 0..<EditSequence.length {
                let edit = sequence.edit(&workspace)
                edits += 1
                let incremental = workspace.snapshot()
                let batch = sequence.batch()
                var same = incremental.diagnostics == batch.diagnostics
                    && sameBook(incremental.book, batch.book)
                    && incremental.compilation.fileCount == batch.compilation.fileCount
                    && incremental.suppressions == batch.suppressions
                    && workspace.paths == sequence.paths
                // The index is built on demand; check it at the end of each sequence.
                if same && step == EditSequence.length - 1 {
                    let (mine, theirs) = (incremental.index, batch.index)
                    same = mine.definitions == theirs.definitions && mine.references == theirs.references
                        && mine.suppressions == theirs.suppressions
                }
                if !same {
                    failures += 1
                    Issue.record("seed \(seed), step \(step) (\(edit)): the snapshot differs from a batch compile")
                    break
                }
            }
            let rendered = zip(Self.renderings(workspace.snapshot(), sequence.sources), Self.renderings(sequence.batch(), sequence.sources))
            for (format, (incremental, batch)) in zip(["text", "json", "github", "sarif"], rendered) where incremental != batch {
                failures += 1
                Issue.record("seed \(seed): the \(format) rendering differs from a batch compile's")
            }
            if failures > 3 { break }
        }
        #expect(failures == 0)
        #expect(edits >= Self.sequenceCount * EditSequence.length)
    }

    /// The lint report in the four formats the tools write.
    static func renderings(_ snapshot: WorkspaceSnapshot, _ sources: [SourceFile]) -> [String] {
        let diagnostics = LintConfiguration().finish(snapshot)
        let counts = DiagnosticCounts(files: snapshot.compilation.fileCount, diagnostics: diagnostics)
        let printer = HumanDiagnosticPrinter(files: sources, color: false)
        return [
            diagnostics.map(printer.render).joined(separator: "\n\n") + HumanDiagnosticPrinter.summary(counts),
            JSONDiagnosticPrinter.render(diagnostics, counts: counts),
            GitHubDiagnosticPrinter.render(diagnostics),
            SARIFDiagnosticPrinter.render(diagnostics),
        ]
    }

    /// The edits can tell a wrong workspace apart: one that forgets
    /// removals (the bug this property exists to catch) fails it.
    @Test func aWorkspaceThatIgnoresRemovalsFails() {
        var differs = false
        for seed in 1...UInt64(200) where !differs {
            var sequence = EditSequence(seed: seed)
            var workspace = RecipeWorkspace(analysis: true, pass: OpeningStockAnalysis(), book: true)
            var forgetful = RecipeWorkspace(analysis: true, pass: OpeningStockAnalysis(), book: true)
            for _ in 0..<EditSequence.length {
                var replay = sequence
                _ = sequence.edit(&workspace)
                // The same edit, but a removal leaves the file in place.
                let before = forgetful
                _ = replay.edit(&forgetful)
                for path in Set(before.paths).subtracting(replay.paths) {
                    if let unit = before.unit(at: path) { forgetful.load(unit) }
                }
                if forgetful.snapshot().diagnostics != sequence.batch().diagnostics { differs = true }
            }
        }
        #expect(differs)
    }
}

/// Whether two books hold the same fruits, recipes, menu items (with their
/// ingredients and needs) and opening stock.
func sameBook(_ first: RecipeBook?, _ second: RecipeBook?) -> Bool {
    guard let first, let second else { return first == nil && second == nil }
    return first.fruits == second.fruits && first.recipes == second.recipes && first.menu == second.menu
        && first.openingStock == second.openingStock
}

/// A seeded sequence of edits to a book of several files and, at times, a
/// stock file; it keeps the files' current text, which the batch compile reads.
struct EditSequence {
    static let length = 4

    private var rng: SplitMix64
    /// Good versions of files, from two generated books with faults: the
    /// second under `other/`, so its ids clash with the first's.
    private let pool: [(path: String, text: String)]
    private(set) var files: [String: [UInt8]] = [:]
    private(set) var stock: SourceFile?

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed ^ 0x7773_5F65_6469_7473)  // "ws_edits"
        let first = LintCase(seed: seed).files.map { ($0.path, $0.text) }
        let second = LintCase(seed: seed + 100_000).files.map { ("other/" + $0.path, $0.text) }
        pool = first + second
    }

    /// The book files' paths, sorted as the workspace links them.
    var paths: [String] {
        files.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The files as the printers read them: book files in path order, then the stock file.
    var sources: [SourceFile] {
        paths.map { SourceFile(path: $0, bytes: files[$0] ?? []) } + [stock].compactMap { $0 }
    }

    /// A fresh batch compile of the files as they are now.
    func batch() -> WorkspaceSnapshot {
        RecipeCompiler.snapshot(
            paths.map { SourceFile(path: $0, bytes: files[$0] ?? []) }, stock: stock,
            analysis: true, pass: OpeningStockAnalysis(), book: true
        )
    }

    /// Draws one edit, applies it to `workspace` and to the files, and says what it was.
    mutating func edit(_ workspace: inout RecipeWorkspace) -> String {
        let existing = paths
        switch rng.int(in: 0...9) {
        case 0...2:
            // Add a file of the pool (or change it back to its good version).
            let file = rng.pick(pool)
            set(file.path, Array(file.text.utf8), in: &workspace)
            return "add \(file.path)"
        case 3 where !existing.isEmpty:
            // Change a file to another file's text.
            let path = rng.pick(existing)
            set(path, Array(rng.pick(pool).text.utf8), in: &workspace)
            return "change \(path)"
        case 4...5 where !existing.isEmpty:
            let path = rng.pick(existing)
            set(path, broken(files[path] ?? []), in: &workspace)
            return "break \(path)"
        case 6 where !existing.isEmpty:
            let path = rng.pick(existing)
            guard let good = pool.first(where: { $0.path == path }) else { return "fix nothing" }
            set(path, Array(good.text.utf8), in: &workspace)
            return "fix \(path)"
        case 7...8 where !existing.isEmpty:
            let path = rng.pick(existing)
            files[path] = nil
            workspace.remove(path: path)
            return "remove \(path)"
        default:
            if stock != nil && rng.chance(1, in: 3) {
                stock = nil
                workspace.replaceStock(with: nil)
                return "clear the stock file"
            }
            let file = SourceFile(path: "stock.yaml", bytes: Array(stockText().utf8))
            stock = file
            workspace.replaceStock(with: file)
            return "set the stock file"
        }
    }

    private mutating func set(_ path: String, _ bytes: [UInt8], in workspace: inout RecipeWorkspace) {
        files[path] = bytes
        workspace.update(path: path, bytes: bytes)
    }

    /// A stock file for some of the pool's fruits, at times with a bad amount,
    /// a repeat or a suppression comment.
    private mutating func stockText() -> String {
        let fruits = ["apple", "banana", "cherry", "kiwi", "mango", "lime", "pear", "유자"]
        var text = rng.chance(1, in: 2) ? "version: 1\n" : ""
        text += "stock:\n"
        for fruit in fruits where rng.chance(2, in: 3) {
            let amount = rng.chance(1, in: 8) ? "-\(rng.int(in: 1...9))" : "\(rng.int(in: 0...50))"
            text += "  \(fruit): \(amount)"
            text += rng.chance(1, in: 8) ? "  # juice-lint disable-line missing-stock\n" : "\n"
        }
        if rng.chance(1, in: 6) { text += "  kiwi: 4\n" }
        return text
    }

    /// The text with one mistake: cut short, an unclosed bracket, a zero
    /// amount, a misspelt name, a trailing broken document or a suppression.
    private mutating func broken(_ bytes: [UInt8]) -> [UInt8] {
        var text = bytes
        switch rng.int(in: 0...5) {
        case 0:
            text = Array(text.prefix(rng.int(in: 0...text.count)))
        case 1:
            text.insert(UInt8(ascii: "["), at: rng.int(in: 0...text.count))
        case 2:
            if let digit = text.indices.filter({ (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(text[$0]) }).last {
                text[digit] = UInt8(ascii: "0")
            }
        case 3:
            if let letter = text.indices.filter({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(text[$0]) }).dropFirst(5).first {
                text.insert(UInt8(ascii: "x"), at: letter)
            }
        case 4:
            text += Array("\n---\nmenu: [unclosed\n".utf8)
        default:
            if let newline = text.firstIndex(of: UInt8(ascii: "\n")) {
                text.insert(contentsOf: Array("  # juice-lint disable-line unused-fruit, unknown-key".utf8), at: newline)
            }
        }
        return text
    }
}
