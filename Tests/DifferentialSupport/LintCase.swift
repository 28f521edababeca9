/// One lint-stability case: a recipe book spread over several files, with
/// some faults written in, fixed by the seed.
///
/// A quarter of the multi-file books are `BookGenerator`'s own files, in all
/// its YAML styles; their diagnostics are the lint-only warnings and infos
/// (`missing-stock`, `unused-fruit`, `never-makeable`). The rest are the same
/// kind of book laid out by `PlainBookWriter` over 2–4 files with 0–3 faults.
package struct LintCase: Sendable {
    package static let count = PropertyCase.count
    package static let seeds: [UInt64] = Array(1...UInt64(count))

    /// Keeps lint case N from being property case N's book.
    static let salt: UInt64 = 0x6C69_6E74_5F63_6173  // "lint_cas"

    package let seed: UInt64
    package let files: [GeneratedBook.File]
    package let faults: [BookFault]

    package init(seed: UInt64) {
        self.seed = seed
        var rng = SplitMix64(seed: seed ^ Self.salt)
        let book = BookGenerator.generate(using: &rng)
        if book.files.count > 1 && rng.chance(1, in: 4) {
            files = book.files
            faults = []
            return
        }
        var drawn: [BookFault] = []
        let faultCount = rng.chance(1, in: 5) ? 0 : rng.int(in: 1...3)
        for _ in 0..<faultCount {
            let fault = rng.pick(BookFault.allCases)
            if !drawn.contains(fault) { drawn.append(fault) }
        }
        (files, faults) = PlainBookWriter.write(book, faults: drawn, using: &rng)
    }

    /// Whether some fault always makes the book invalid.
    package var expectsErrors: Bool { faults.contains(where: \.isError) }

    /// All the files as one text, for failure messages.
    package var yaml: String {
        files.map { "# ==> \($0.path) <==\n\($0.text)" }.joined(separator: "\n")
    }

    /// The seed, the faults and the files: enough to rebuild the case by hand.
    package var reproduction: String {
        let written = faults.isEmpty ? "none" : faults.map(\.description).joined(separator: ", ")
        return "LintCase(seed: \(seed)), faults: \(written)\n\(yaml)"
    }
}
