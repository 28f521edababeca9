import JuiceDiagnostics
/// Which part of a book each lint check looked at.
///
/// A suppression comment that silenced nothing is stale only if its rule's
/// check looked where the comment stands. The unused checks wait until a book
/// has no errors, so on a book with errors their silence proves nothing, and
/// calling the comment stale would bring the warning back once the errors are
/// fixed.
public struct CheckCoverage: Sendable, Equatable {
    /// Rules whose check skipped some of the book.
    private var skipped: Set<Rule>
    /// Rules whose check looked at one file only, such as `missing-stock`
    /// at the stock file that replaced the book's stock.
    private var onlyIn: [Rule: String] = [:]

    /// Every check looked at the whole book.
    init() {
        skipped = []
    }

    /// What a compile without the lint analyses covered: none of them.
    static let noAnalysis = CheckCoverage(skipping: [.unusedFruit, .unusedRecipe, .neverMakeable, .missingStock])

    private init(skipping rules: Set<Rule>) {
        skipped = rules
    }

    /// Whether `rule`'s check looked at all of `file`. Rules that are not
    /// lint analyses (the errors, `unused-suppression`) always count as checked.
    public func checked(_ rule: Rule, in file: String) -> Bool {
        if skipped.contains(rule) { return false }
        if let only = onlyIn[rule] { return only == file }
        return true
    }

    /// Records that `rule`'s check skipped some of the book.
    package mutating func skip(_ rule: Rule) {
        skipped.insert(rule)
    }

    /// Records that `rule`'s check looked at `file` only.
    package mutating func restrict(_ rule: Rule, to file: String) {
        onlyIn[rule] = file
    }
}
