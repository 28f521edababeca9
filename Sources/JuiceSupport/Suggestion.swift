/// "Did you mean" suggestions by edit distance.
///
/// Short fixed lists (keys, directives, rule ids, levels) are scanned here. A
/// book's names, which may be 100,000, go through `SuggestionIndex`: it scans
/// the same way up to 2,000 names and uses an index beyond. Both weigh and
/// settle ties in `Search`, so a name gets one answer whichever path asks.
public enum Suggestion {
    /// The largest edit distance worth suggesting for a name of this length:
    /// one edit for short names, two for longer ones, never more than a third of it.
    package static func threshold(forLength length: Int) -> Int {
        switch length {
        case ..<3: return 0
        case ..<6: return 1
        default: return 2
        }
    }

    /// The candidate closest to `name` within the threshold, preferring the
    /// earliest candidate on a tie so output is stable.
    public static func closest<S: Sequence>(to name: String, in candidates: S) -> String? where S.Element == String {
        closestMatch(to: name, in: candidates)?.name
    }

    /// The closest candidate, as `closest(to:in:)` picks it, and whether it
    /// is the only one at its distance: help may name the earliest of a tie,
    /// but a fix replaces a name only with a sole suggestion.
    public static func closestMatch<S: Sequence>(to name: String, in candidates: S) -> (name: String, isSole: Bool)?
    where S.Element == String {
        guard var search = Search(for: name) else { return nil }
        for (rank, candidate) in candidates.enumerated() where candidate != name {
            search.consider(candidate, Array(candidate.unicodeScalars), rank: rank)
        }
        return search.best.map { ($0.name, $0.isSole) }
    }

    /// One "did you mean" search: the closest candidate seen so far. The one
    /// place a distance is judged and a tie settled, for a list scanned here
    /// and for the hits of a large list's index (`SuggestionIndex`), so both
    /// answer alike.
    struct Search {
        private let name: String
        private let target: [Unicode.Scalar]
        private let limit: Int
        /// The closest so far; on a tie, the lowest rank (the earliest in the
        /// list, so output is stable), and not sole if another name tied.
        private(set) var best: (name: String, rank: Int, distance: Int, isSole: Bool)?

        /// Nil when `name` is too short for any suggestion.
        init?(for name: String) {
            self.name = name
            target = Array(name.unicodeScalars)
            limit = threshold(forLength: target.count)
            guard limit > 0 else { return nil }
        }

        /// Weighs `candidate` (as `scalars`), the `rank`th in order of preference.
        mutating func consider(_ candidate: String, _ scalars: [Unicode.Scalar], rank: Int) {
            guard candidate != name else { return }
            // Within the best distance so far, not below it: a tie must be seen.
            let bound = best?.distance ?? limit
            guard abs(scalars.count - target.count) <= bound,
                  let distance = editDistance(target, scalars, atMost: bound)
            else { return }
            if let current = best, current.distance == distance {
                if current.name != candidate { best?.isSole = false }
                if rank < current.rank {
                    best?.rank = rank
                    best?.name = candidate
                }
                return
            }
            best = (candidate, rank, distance, true)
        }
    }

    /// Optimal-string-alignment distance (a swap of neighbours costs one edit),
    /// or nil as soon as it must exceed `bound`.
    ///
    /// Only the band of cells within `bound` of the diagonal is computed: a
    /// cell `|i - j|` off it is at least that far, so every cell outside
    /// reads as `bound + 1` and the answer is what the whole table gives.
    /// With the bound of 2 that every suggestion uses, a row is at most five
    /// cells, whatever the names' lengths; the rows live in one stack buffer.
    /// A script of 2,267 misspelt lines against 434 menu items (a fuzz input
    /// that ran past libFuzzer's 10 s under AddressSanitizer) spent a third
    /// of its instructions here, in three heap arrays per candidate.
    package static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost bound: Int) -> Int? {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) <= bound ? max(a.count, b.count) : nil }
        guard bound >= 0, abs(a.count - b.count) <= bound else { return nil }
        // No distance exceeds the longer length, so a larger bound changes
        // nothing; clamped, `bound + 1` cannot overflow.
        let bound = min(bound, max(a.count, b.count))
        let beyond = bound + 1
        let width = b.count + 1
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * width) { cells -> Int? in
            // Rows i - 2, i - 1 and i, rotated by their offsets into `cells`.
            var (previous2, previous, current) = (0, width, 2 * width)
            for j in 0..<width { cells[previous + j] = min(j, beyond) }
            for i in 1...a.count {
                let low = max(1, i - bound), high = min(b.count, i + bound)
                // The cells just outside the band, which the next rows read.
                cells[current + low - 1] = low == 1 ? min(i, beyond) : beyond
                if high < b.count { cells[current + high + 1] = beyond }
                var rowMinimum = beyond
                for j in low...high {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var value = min(cells[previous + j] + 1, cells[current + j - 1] + 1, cells[previous + j - 1] + cost)
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                        value = min(value, cells[previous2 + j - 2] + 1)
                    }
                    cells[current + j] = value
                    rowMinimum = min(rowMinimum, value)
                }
                if rowMinimum > bound { return nil }
                (previous2, previous, current) = (previous, current, previous2)
            }
            let distance = cells[previous + b.count]
            return distance <= bound ? distance : nil
        }
    }

    /// `did you mean 'x'?` when a close candidate exists.
    public static func didYouMean<S: Sequence>(_ name: String, in candidates: S) -> String? where S.Element == String {
        closest(to: name, in: candidates).map(didYouMean(suggesting:))
    }

    /// `did you mean 'x'?`, the one wording of a suggestion in help.
    public static func didYouMean(suggesting suggestion: String) -> String {
        "did you mean '\(suggestion)'?"
    }
}
