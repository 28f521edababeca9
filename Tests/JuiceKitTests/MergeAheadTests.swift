import Foundation
import Testing
@testable import JuiceBook
@testable import JuiceCommandLine

/// A large book file's pieces are merged into the book as they are read
/// (`RecipeWorkspace.mergeAhead`), before the file's unit is finished. The
/// result must be what reading every file whole, one by one, gives: when the
/// pieces are taken, when a later piece sends the file back to a whole read
/// after earlier ones were merged, and for the files after it.
@Suite struct MergeAheadTests {
    /// About 660 KB, cut into pieces on two cores or more. The first file
    /// in path order; `b-more.yaml` follows it.
    static func bigFile(repeatingKey: Bool) -> String {
        var text = "version: 1\nfruits:\n  apple:\n  kiwi: { label: Kiwi }\n  shared-id:\nstock:\n  apple: 50\n  kiwi: 40\nmenu:\n"
        for item in 0..<9_000 {
            let fruit = item == 4_321 ? "kiwwi" : "kiwi"
            text += "  juice-\(item):\n    label: Juice number \(item)\n    recipe: { apple: 2, \(fruit): 1 }\n"
        }
        // An id the fruits already took, at the far end of the file.
        text += "  shared-id:\n    recipe: { apple: 1 }\n"
        if repeatingKey { text += "  juice-17:\n    recipe: { apple: 1 }\n" }
        return text
    }

    static let laterFile = """
        menu:
          juice-5:
            recipe: { kiwi: 1 }
          later-juice:
            recipe: { juice-9: 1, mango: 1 }
        """

    func load(_ folder: String, parallelAbove: Int) throws -> LoadedBook {
        try ParallelBookLoader(parallelAbove: parallelAbove).load(BookLoadRequest(
            paths: [folder], analysis: true, assemblesBook: true, keepsText: false
        ))
    }

    @Test(arguments: [false, true])
    func piecesMergedAheadGiveWhatWholeFilesGive(repeatingKey: Bool) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ahead-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.bigFile(repeatingKey: repeatingKey).write(toFile: folder + "/a-big.yaml", atomically: true, encoding: .utf8)
        try Self.laterFile.write(toFile: folder + "/b-more.yaml", atomically: true, encoding: .utf8)

        var cut = try load(folder, parallelAbove: 0).workspace
        var whole = try load(folder, parallelAbove: .max).workspace
        let bigPath = try #require(cut.paths.first)
        // Cut into pieces only where there is more than one core; the file
        // with a repeated key falls back to one whole read.
        if ParallelFiles.cores > 1 {
            #expect((cut.unit(at: bigPath)?.parts.count ?? 0) > 1 || repeatingKey)
            #expect(cut.unit(at: bigPath)?.parts.count == 1 || !repeatingKey)
        }
        #expect(whole.unit(at: bigPath)?.parts.count == 1)

        let (mine, theirs) = (cut.snapshot(), whole.snapshot())
        #expect(mine.diagnostics == theirs.diagnostics)
        #expect(mine.index.definitions == theirs.index.definitions)
        #expect(mine.index.references == theirs.index.references)
        let spots = mine.diagnostics.filter { $0.severity == .error }.map { Spot($0.rule, $0.range.file, $0.range.start.line, $0.range.start.column) }
        let duplicate = Spot(.duplicateDefinition, bigPath, 10 + 3 * 9_000, 3)
        let later = bigPath.replacingOccurrences(of: "a-big.yaml", with: "b-more.yaml")
        if repeatingKey {
            #expect(spots.contains(Spot(.duplicateKey, bigPath, 12 + 3 * 9_000, 3)))
        } else {
            #expect(spots == [
                Spot(.unknownFruit, bigPath, 10 + 3 * 4_321 + 2, 25), duplicate,
                Spot(.duplicateDefinition, later, 2, 3), Spot(.unknownFruit, later, 5, 27),
            ])
        }
    }
}
