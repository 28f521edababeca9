import Testing
@testable import JuiceSource
@testable import JuiceBook

/// A worker's collectors read each ingredient's name as written, with the
/// hash the book's namespace (`NameTable`) is probed with, file after file.
@Suite struct IngredientNameTests {
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
        #expect(kept.blends.map(\.label) == ["Mango Juice With A Long Label", nil])
        #expect(dropped.fruits.allSatisfy { $0.label == nil && $0.emoji == nil })
        #expect(dropped.blends.allSatisfy { $0.label == nil })
        let problems = kept.diagnostics.map { "\($0.rule.id) \($0.range.start.line):\($0.range.start.column)" }
        #expect(problems == ["invalid-type 3:18", "invalid-type 9:12"])
        #expect(dropped.diagnostics.map { "\($0.rule.id) \($0.range.start.line):\($0.range.start.column)" } == problems)
    }
}
