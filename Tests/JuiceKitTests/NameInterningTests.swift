import Testing
@_spi(Internals) @testable import JuiceSupport
@testable import JuiceSource
@testable import JuiceDiagnostics
@_spi(Internals) @testable import JuiceYAML
@testable import JuiceBook
@testable import JuiceEngine
@testable import JuiceSimulation
@testable import JuiceLint
@testable import JuiceLanguageServer

/// Ingredient names are made once per distinct name and found again by
/// their bytes (`NameTable.intern`, `DeclarationCollector.ingredientName`).
@Suite struct NameInterningTests {
    /// Interns `text` with `hash`, counting how often a value was made.
    private func intern(_ text: String, hash: Int? = nil, limit: Int = 100, in table: inout NameTable<Int>, made: inout Int) -> (name: String, value: Int)? {
        var text = text
        return text.withUTF8 { bytes in
            table.intern(utf8: bytes, hash: hash ?? NameTable<Int>.utf8Hash(bytes), limit: limit) { name in
                made += 1
                return name.utf8.count
            }
        }
    }

    @Test func aNameIsMadeOnceAndFoundByItsBytes() throws {
        var table = NameTable<Int>()
        var made = 0
        let first = try #require(intern("mango", in: &table, made: &made))
        let again = try #require(intern("mango", in: &table, made: &made))
        let other = try #require(intern("kiwi", in: &table, made: &made))
        #expect(first.name == "mango" && first.value == 5)
        #expect(again.name == "mango" && again.value == 5)
        #expect(other.name == "kiwi" && other.value == 4)
        #expect(made == 2)
        #expect(table.count == 2)
    }

    /// Names with the same hash are still told apart by their bytes; past
    /// the probe bound, a name is not interned (the caller makes its own),
    /// however the hashes were chosen.
    @Test func collidingNamesStayApartAndLongProbesGiveUp() throws {
        var table = NameTable<Int>()
        var made = 0
        for index in 0..<NameTable<Int>.longestProbe {
            let interned = try #require(intern("name-\(index)", hash: 7, in: &table, made: &made))
            #expect(interned.name == "name-\(index)")
        }
        #expect(intern("name-3", hash: 7, in: &table, made: &made)?.name == "name-3")
        #expect(intern("one-too-many", hash: 7, in: &table, made: &made) == nil)
        #expect(made == NameTable<Int>.longestProbe)
    }

    @Test func pastTheLimitNewNamesAreNotStoredButOldOnesAreFound() {
        var table = NameTable<Int>()
        var made = 0
        #expect(intern("apple", limit: 2, in: &table, made: &made) != nil)
        #expect(intern("pear", limit: 2, in: &table, made: &made) != nil)
        #expect(intern("plum", limit: 2, in: &table, made: &made) == nil)
        #expect(intern("apple", limit: 2, in: &table, made: &made)?.name == "apple")
        #expect(table.count == 2)
    }

    /// The names a worker's collectors read come out as written, with the
    /// hash the book's namespace uses, file after file.
    @Test func ingredientsKeepTheirNamesAndHashesAcrossFiles() {
        var worker = DeclarationCollector.Worker()
        let names = ["apple", "mango", "café", "apple", "passion-fruit-with-a-long-name"]
        var collected: [DeclarationCollector] = []
        for file in 0..<3 {
            let recipe = names.enumerated().map { "    \($0.element)\($0.offset >= 3 ? "-\(file)" : ""): \($0.offset + 1)" }
            let text = "recipes:\n  r\(file):\n" + recipe.joined(separator: "\n") + "\n"
            collected.append(worker.collect(SourceFile(path: "f\(file).yaml", bytes: Array(text.utf8))))
        }
        for (file, collector) in collected.enumerated() {
            let expected = names.enumerated().map { $0.element + ($0.offset >= 3 ? "-\(file)" : "") }
            #expect(collector.ingredients.map(\.name) == expected)
            #expect(collector.ingredients.map(\.nameHash) == expected.map(\.hashValue))
            #expect(collector.ingredients.map(\.amount) == [1, 2, 3, 4, 5])
            #expect(collector.ingredientNames == nil)
        }
    }
}

/// A lint's loader has labels and emoji checked but not kept
/// (`DeclarationCollector.keepsLabels`): the same problems are reported
/// either way.
@Suite struct LabelKeepingTests {
    private static let text = """
        fruits:
          mango: { label: Mango, emoji: "🥭" }
          kiwi: { label: [not, text] }
        menu:
          mango-juice:
            label: Mango Juice With A Long Label
            recipe: { mango: 2 }
          kiwi-juice:
            label: ~
            recipe: { kiwi: 1 }

        """

    private func collect(keepingLabels: Bool) -> DeclarationCollector {
        var worker = DeclarationCollector.Worker()
        worker.keepsLabels = keepingLabels
        return worker.collect(SourceFile(path: "book.yaml", bytes: Array(Self.text.utf8)))
    }

    @Test func labelsAreCheckedEitherWayAndKeptOnlyWhenAsked() {
        let kept = collect(keepingLabels: true), dropped = collect(keepingLabels: false)
        #expect(kept.fruits.map(\.label) == ["Mango", nil])
        #expect(kept.fruits.map(\.emoji) == ["🥭", nil])
        #expect(kept.composites.map(\.label) == ["Mango Juice With A Long Label", nil])
        #expect(dropped.fruits.allSatisfy { $0.label == nil && $0.emoji == nil })
        #expect(dropped.composites.allSatisfy { $0.label == nil })
        let problems = kept.diagnostics.map { "\($0.rule.id) \($0.range.start.line):\($0.range.start.column)" }
        #expect(problems == ["invalid-type 3:18", "invalid-type 9:12"])
        #expect(dropped.diagnostics.map { "\($0.rule.id) \($0.range.start.line):\($0.range.start.column)" } == problems)
    }
}
