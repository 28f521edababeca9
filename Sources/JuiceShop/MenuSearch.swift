@_spi(Internals) import JuiceSupport
import JuiceBook

/// Which menu items a partial or misspelt order may have meant: `mango` →
/// mango-juice and mango-kiwi-juice, `strawbery` → strawberry-juice and
/// strawberry-banana-juice. The one home of this search, for any counter
/// (the terminal's `InteractiveCounter`, a web counter), so that they answer
/// alike.
///
/// Did-you-mean (`SuggestionIndex`) weighs a whole name against whole names,
/// so it cannot find an item from one of its words. Here an order and each
/// item are split into words, case-insensitively: an id on `-`, a label on
/// whitespace, the order on both. Each word of the order must match a word of
/// the item's id or label:
///
/// - the same word (score 0);
/// - the start of one (score 1): `straw` → `strawberry`;
/// - within `Suggestion.threshold` edits of one (score 1 + edits):
///   `strawbery` → `strawberry`.
///
/// A word takes its best match; an item's score is the sum over the order's
/// words, and items come lowest score first, ties in menu order.
public struct MenuSearch: Sendable {
    /// How many items `matches(for:)` gives at most unless told otherwise.
    public static let defaultLimit = 5

    /// Each item's words, lowercased, as scalars, each once.
    private let words: [[[Unicode.Scalar]]]

    /// A search over `book`'s menu, in menu order.
    public init(book: RecipeBook) {
        self.init(items: book.menu.map { (id: $0.id, label: $0.label) })
    }

    /// A search over items named by `id` and `label`; a match is an index into `items`.
    public init(items: [(id: String, label: String)]) {
        words = items.map { item in
            var words: [[Unicode.Scalar]] = []
            for word in Self.split(item.id, onDashes: true) + Self.split(item.label, onDashes: false) where !words.contains(word) {
                words.append(word)
            }
            return words
        }
    }

    /// The indices of the items `query` may mean, best first, at most `limit`;
    /// empty when the query has no word, or no item matches every word of it.
    public func matches(for query: String, limit: Int = defaultLimit) -> [Int] {
        let queryWords = Self.split(query, onDashes: true)
        guard !queryWords.isEmpty, limit > 0 else { return [] }
        var found: [(item: Int, score: Int)] = []
        for (item, itemWords) in words.enumerated() {
            var total = 0
            var matchesAll = true
            for word in queryWords {
                guard let score = Self.score(word, against: itemWords) else {
                    matchesAll = false
                    break
                }
                // At most 3 a word, and no more words than the query's length: no overflow.
                total += score
            }
            if matchesAll { found.append((item, total)) }
        }
        // A stable order: lowest score, then menu order.
        found.sort { ($0.score, $0.item) < ($1.score, $1.item) }
        return found.prefix(limit).map(\.item)
    }

    /// The best score of `word` against any of `itemWords`, or nil when none matches.
    private static func score(_ word: [Unicode.Scalar], against itemWords: [[Unicode.Scalar]]) -> Int? {
        let bound = Suggestion.threshold(forLength: word.count)
        var best: Int?
        for candidate in itemWords {
            let score: Int?
            if candidate == word {
                return 0
            } else if candidate.starts(with: word) {
                score = 1
            } else {
                score = Suggestion.editDistance(word, candidate, atMost: bound).map { 1 + $0 }
            }
            if let score, score < best ?? Int.max { best = score }
        }
        return best
    }

    /// `text` lowercased and cut into words at whitespace, and at `-` when
    /// `onDashes`; empty words are dropped.
    private static func split(_ text: String, onDashes: Bool) -> [[Unicode.Scalar]] {
        text.lowercased()
            .split { $0.isWhitespace || (onDashes && $0 == "-") }
            .map { Array($0.unicodeScalars) }
    }
}
