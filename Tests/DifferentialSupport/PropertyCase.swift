/// One property-test case: a random book and a short script, both fixed by the
/// seed, and what the model says running it gives.
///
/// Cases are small on purpose (5–80 lines) so a thousand of them per property
/// run in seconds; the long scripts are the differential tests' job. A book
/// that libyaml cannot read (`opensAFileWithDocumentEnd`) is drawn again from
/// the same generator, so every case's book compiles.
package struct PropertyCase: Sendable {
    /// How many seeds each property runs over; a test holds it at 1,000 or more.
    package static let count = 1_000
    package static let seeds: [UInt64] = Array(1...UInt64(count))

    /// Mixed into the seed so that property case N is not differential case N
    /// with a shorter script: the two suites then cover different books.
    static let salt: UInt64 = 0x7072_6F70_6572_7479  // "property"

    package let seed: UInt64
    package let book: GeneratedBook
    /// The books drawn before `book` and left out because a file opens with `...`.
    package let redrawn: [GeneratedBook]
    package let script: GeneratedScript
    package let expected: ModelRun
    /// Each menu item's need as the model expands it, by id.
    package let expectedNeeds: [String: [String: Int]]

    package init(seed: UInt64) {
        self.seed = seed
        var rng = SplitMix64(seed: seed ^ Self.salt)
        var book = BookGenerator.generate(using: &rng)
        var redrawn: [GeneratedBook] = []
        while book.opensAFileWithDocumentEnd {
            redrawn.append(book)
            book = BookGenerator.generate(using: &rng)
        }
        self.book = book
        self.redrawn = redrawn
        script = PropertyScriptGenerator.generate(for: book, lineCount: rng.int(in: 5...80), using: &rng)
        var model = ReferenceRunner(book: book)
        expectedNeeds = model.needs
        expected = model.run(script.lines)
    }

    /// Everything needed to rebuild and rerun the case by hand: the seed, the
    /// book's files and the numbered script. Cases are small, so it is short.
    package var reproduction: String {
        let numbered = script.lines.enumerated().map { "\($0.offset + 1)\t\($0.element)" }.joined(separator: "\n")
        return "PropertyCase(seed: \(seed))\n--- book ---\n\(book.yaml)\n--- script ---\n\(numbered)"
    }
}

extension GeneratedBook {
    /// Whether some file's first line that is not blank or a comment is `...`.
    ///
    /// YAML 1.2 allows a document-end marker before any document, but libyaml
    /// (and PyYAML) stop at it with "did not find expected node content".
    /// `BookGenerator` writes exactly that for about one book in a hundred: an
    /// empty document (a lone comment) put first in a file with no leading
    /// `---`, joined to the next by `...` and `---`. The differential tests'
    /// seeds never draw it, and their generator must keep its output, so the
    /// property cases draw again instead; a property test holds this test
    /// equal to "does not compile" over a thousand books.
    package var opensAFileWithDocumentEnd: Bool {
        files.contains { file in
            let first = file.text.split(separator: "\n").first { line in
                !line.allSatisfy { $0 == " " || $0 == "\t" } && !line.hasPrefix("#")
            }
            return first == "..."
        }
    }
}
