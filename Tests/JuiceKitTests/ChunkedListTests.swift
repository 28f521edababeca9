import Testing
@_spi(Internals) @testable import JuiceSupport
@testable import JuiceSource
@testable import JuiceBook
@testable import JuiceCommandLine

/// The book keeps each file's fruit and ingredient lists as they were
/// handed in (`ChunkedList`), and the join of a large file's pieces checks keys
/// with a set that may only ever err towards "seen" (`PossiblySeenHashes`).
@Suite struct SegmentsTests {
    @Test func segmentsReadAsOneList() {
        var list = ChunkedList<Int>(copyBelow: 4)
        list.append(contentsOf: [])
        list.append(contentsOf: [0, 1])         // short: copied into a list of its own
        list.append(contentsOf: [2])            // short: onto the end of that one
        list.append(contentsOf: [3, 4, 5, 6])   // kept as it is
        list.append(contentsOf: [7])            // short, after a kept one: a new list
        list.append(contentsOf: Array(8..<20))  // kept
        #expect(list.count == 20)
        #expect(list.segmentCount == 4)
        #expect(Array(list) == Array(0..<20))
        #expect((0..<20).map { list[$0] } == Array(0..<20))
        #expect(list.map { $0 * 2 } == (0..<20).map { $0 * 2 })
        #expect(list.enumerated().allSatisfy { $0.offset == $0.element })
        let starts = (0..<list.segmentCount).map { list.segment($0).first }
        #expect(starts == [0, 3, 7, 8])
        #expect(list.segment(2).elements == [7])
    }

    @Test func anEmptyListHasNoElements() {
        let list = ChunkedList<String>(copyBelow: 0)
        #expect(list.isEmpty)
        #expect(Array(list).isEmpty)
        #expect(list.map { $0 }.isEmpty)
    }

    @Test func aRepeatedHashIsSeen() {
        var seen = PossiblySeenHashes()
        let first = (0..<10_000).map { seen.insert($0 &* 7_919) }
        let again = (0..<10_000).map { seen.insert($0 &* 7_919) }
        #expect(first.allSatisfy { $0 })
        #expect(again.allSatisfy { !$0 })
        // 0 is stored as 1: the two are taken for one, which is safe.
        var zero = PossiblySeenHashes()
        let (zeroAdded, oneAdded) = (zero.insert(0), zero.insert(1))
        #expect(zeroAdded && !oneAdded)
    }

    /// Hashes that all start their probe at one slot make a run longer
    /// than a probe may go: from there on the answer is "maybe seen",
    /// never a wrong "not seen", and nothing walks the whole run.
    @Test func aLongProbeAnswersMaybeSeen() {
        var seen = PossiblySeenHashes()
        seen.reserve(1 << 12)  // 8,192 slots: a probe starts at bits 32-44 of hash × multiplier
        // The multiplier's inverse modulo 2^64, by Newton's iteration.
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var inverse = multiplier
        for _ in 0..<6 { inverse = inverse &* (2 &- multiplier &* inverse) }
        #expect(multiplier &* inverse == 1)
        // Hashes whose product has bits 32-44 all zero: every probe starts at slot 0.
        let clashing = (1...200).map { Int(bitPattern: UInt(UInt64($0) << 45 &* inverse)) }
        let answers = clashing.map { seen.insert($0) }
        #expect(answers.filter { $0 }.count == ProbeLimit.unseeded)
        #expect(answers.prefix(ProbeLimit.unseeded).allSatisfy { $0 })
        let again = clashing.map { seen.insert($0) }
        #expect(again.allSatisfy { !$0 })
    }
}

/// Fruits repeated in one file and across files: the book keeps the first
/// of each id, numbers the rest of the fruits densely, and points each
/// repeat's note at the first, wherever its fruit list is kept.
@Suite struct BookDeclarationsSegmentTests {
    static func collector(_ text: String, path: String) -> DeclarationCollector {
        var worker = DeclarationCollector.Worker()
        return worker.collect(SourceFile(path: path, bytes: Array(text.utf8)))
    }

    /// A `fruits:` section declaring `ids`, one a line from line 2 on.
    static func fruits(_ ids: [String]) -> String {
        "fruits:\n" + ids.map { "  \($0):\n" }.joined()
    }

    @Test func repeatedFruitsKeepTheFirstAndPointAtIt() throws {
        var declarations = BookDeclarations()
        // A second document repeats 'kiwi' (a repeat within one mapping
        // would be a repeated key instead).
        declarations.merge(Self.collector("fruits:\n  kiwi:\n  apple:\n  pear:\n---\nfruits:\n  kiwi:\n  plum:\n", path: "a.yaml"))
        // A big second file, kept as it is but for its repeat of 'pear'.
        let big = Self.fruits((0..<1_500).map { "fruit-\($0)" } + ["pear", "last-one"])
        declarations.merge(Self.collector(big, path: "b.yaml"))
        // A third, kept whole.
        declarations.merge(Self.collector(Self.fruits((0..<1_200).map { "other-\($0)" }), path: "c.yaml"))

        let ids = declarations.fruits.map(\.id)
        #expect(ids.count == 4 + 1_501 + 1_200)
        #expect(Array(ids.prefix(4)) == ["kiwi", "apple", "pear", "plum"])
        #expect(ids[4] == "fruit-0" && ids[1_504] == "last-one" && ids[1_505] == "other-0")
        for (index, id) in ids.enumerated() {
            let definition = try #require(declarations.definitions.value(for: id))
            #expect(definition.kind == .fruit && definition.index == index)
            #expect(declarations.fruits[index].id == id)
        }

        let repeats = declarations.diagnostics.filter { $0.rule == .duplicateDefinition }
        #expect(repeats.count == 2)
        let kiwi = try #require(repeats.first)
        #expect(kiwi.range.file == "a.yaml" && kiwi.range.start.line == 7 && kiwi.range.start.column == 3)
        #expect(kiwi.notes.first?.range.file == "a.yaml" && kiwi.notes.first?.range.start.line == 2)
        let pear = try #require(repeats.last)
        #expect(pear.range.file == "b.yaml" && pear.range.start.line == 1_502 && pear.range.start.column == 3)
        #expect(pear.notes.first?.range.file == "a.yaml" && pear.notes.first?.range.start.line == 4)
    }

    /// A repeat of a fruit that stands earlier in the same file, after a
    /// fruit of that file was already left out: the first is found among
    /// the file's fruits that are not yet in the book.
    @Test func aRepeatAfterALeftOutFruitFindsItsFirstInTheSameFile() throws {
        var declarations = BookDeclarations()
        declarations.merge(Self.collector("fruits:\n  kiwi:\n", path: "a.yaml"))
        let text = Self.fruits(["kiwi"] + (0..<1_100).map { "fruit-\($0)" }) + "---\n" + Self.fruits(["fruit-7"])
        declarations.merge(Self.collector(text, path: "b.yaml"))
        let repeats = declarations.diagnostics.filter { $0.rule == .duplicateDefinition }
        #expect(repeats.count == 2)
        let last = try #require(repeats.last)
        #expect(last.range.file == "b.yaml" && last.range.start.line == 1_105 && last.range.start.column == 3)
        #expect(last.notes.first?.range.file == "b.yaml" && last.notes.first?.range.start.line == 10)
        #expect(declarations.fruits.count == 1 + 1_100)
        #expect(declarations.fruits[8].id == "fruit-7")
    }

    /// Recipes and menu items stay in their files' arrays, where their
    /// ingredients count from the file's first: read through the book, each
    /// one's ingredients are the book's numbers of its own, whichever file
    /// it came from, and a repeat points at its first in the same file.
    @Test func blendsReadTheirOwnIngredientsFromEveryFile() throws {
        var declarations = BookDeclarations()
        declarations.merge(Self.collector("""
            fruits:
              kiwi:
              apple:
            recipes:
              kiwi-base: { kiwi: 2 }
            menu:
              kiwi-juice:
                recipe: { kiwi-base: 1, apple: 3 }
            """, path: "a.yaml"))
        // 'apple-mix' repeats, after 'kiwi-base' (a recipe of a.yaml) was left out.
        declarations.merge(Self.collector("""
            recipes:
              kiwi-base: { apple: 9 }
              apple-mix: { apple: 1, kiwi: 1 }
            menu:
              mixed:
                recipe: { apple-mix: 2 }
            ---
            menu:
              apple-mix:
                recipe: { kiwi: 5 }
            """, path: "b.yaml"))
        let blends = declarations.blends
        #expect(blends.map(\.id) == ["kiwi-base", "kiwi-juice", "apple-mix", "mixed"])
        #expect(blends.kinds == [.recipe, .menuItem, .recipe, .menuItem])
        let names = blends.indices.map { index in
            blends.ingredients(of: index).map { declarations.ingredients[$0].name }
        }
        #expect(names == [["kiwi"], ["kiwi-base", "apple"], ["apple", "kiwi"], ["apple-mix"]])
        #expect(blends.indices.map { blends[$0].ingredients } == blends.indices.map { blends.ingredients(of: $0) })
        #expect(Array(blends).map(\.ingredients) == blends.indices.map { blends.ingredients(of: $0) })
        #expect(blends.kinds == blends.indices.map { blends[$0].kind })
        var walked: [Range<Int>] = []
        blends.forEachIngredients { walked.append($0) }
        #expect(walked == blends.indices.map { blends.ingredients(of: $0) })

        let repeats = declarations.diagnostics.filter { $0.rule == .duplicateDefinition }
        #expect(repeats.map(\.line) == [2, 9])
        let mix = try #require(repeats.last)
        #expect(mix.file == "b.yaml" && mix.column == 3)
        #expect(mix.notes.first?.range.file == "b.yaml" && mix.notes.first?.range.start.line == 3)
        let definition = try #require(declarations.definitions.value(for: "mixed"))
        #expect(definition.kind == .menuItem && definition.index == 3)
    }
}
