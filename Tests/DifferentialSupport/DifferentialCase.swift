/// One differential case: the book and script a seed generates, and what the
/// reference model says running it must give.
package struct DifferentialCase: Sendable {
    /// The seeds both differential suites draw from.
    package static let seeds: [UInt64] = Array(1...20)

    package let seed: UInt64
    package let book: GeneratedBook
    package let script: GeneratedScript
    package let expected: ReferenceRun
    /// Each menu item's need as the model expands it, by id.
    package let expectedNeeds: [String: [String: Int]]

    /// - Parameters:
    ///   - invalidLines: write invalid lines among the valid ones.
    ///   - substitutes: let some fruits list substitutes (version 2).
    package init(seed: UInt64, invalidLines: Bool = true, substitutes: Bool = false) {
        self.seed = seed
        var rng = SplitMix64(seed: seed)
        book = BookGenerator.generate(using: &rng, substitutes: substitutes)
        script = ScriptGenerator.generate(
            for: book, lineCount: 10_000 + rng.int(in: 0...500), invalidLines: invalidLines, using: &rng
        )
        var model = ReferenceShop(book: book)
        expectedNeeds = Dictionary(uniqueKeysWithValues: book.menuIDs.map { ($0, model.need(of: $0)) })
        expected = model.run(script.lines)
    }

    /// The text of a 1-based script line, for failure messages.
    package func line(_ number: Int) -> String {
        script.lines.indices.contains(number - 1) ? "'\(script.lines[number - 1])'" : "(no line \(number))"
    }

    /// Nil when `actual` equals `expected`; otherwise the first difference, with
    /// the seed and the script line, rather than two arrays of 10,000 entries.
    package func difference<T: Equatable & CustomStringConvertible>(
        in what: String, actual: [T], expected: [T], line: (T) -> Int
    ) -> String? {
        guard actual != expected else { return nil }
        let shared = min(actual.count, expected.count)
        let index = (0..<shared).first { actual[$0] != expected[$0] } ?? shared
        func show(_ items: [T]) -> String {
            guard items.indices.contains(index) else { return "nothing (\(items.count) in all)" }
            return "\(items[index]), from script line \(self.line(line(items[index])))"
        }
        return "seed \(seed): \(what) differ at #\(index + 1) (\(actual.count) vs \(expected.count) in all)\n"
            + "  actual:   \(show(actual))\n"
            + "  expected: \(show(expected))"
    }
}
