@_spi(Internals) import JuiceSupport
import JuiceBook
/// Generates menu orders from a seed, identically on every machine.
///
/// SplitMix64 is small, fast and fully specified, unlike the standard
/// library's generators, so a seed printed on one machine replays the same
/// orders on another. Draws are unbiased (Lemire's multiply-and-reject).
public struct OrderGenerator: Sendable {
    /// Why a `--mix` value was refused; each is a usage error.
    public enum MixError: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        case unknownItem(String, suggestion: String?)
        case badWeight(String)
        case allZero
        /// The same menu item weighed twice, in one `--mix` or across several.
        case duplicate(String)

        public var description: String {
            switch self {
            case .malformed(let part): return "--mix entry '\(part)' is not ID=WEIGHT"
            case .unknownItem(let id, let suggestion):
                return "--mix names unknown menu item '\(id)'" + (suggestion.map { "\n  help: \($0)" } ?? "")
            case .badWeight(let part): return "--mix weight in '\(part)' is not a whole number"
            case .allZero: return "--mix weights add up to 0"
            case .duplicate(let id): return "--mix names '\(id)' twice\n  help: give each menu item one weight"
            }
        }
    }

    private var state: UInt64
    /// Running totals of the weights by menu index; nil for a uniform draw.
    private let cumulative: [UInt64]?
    private let count: Int

    /// - Parameters:
    ///   - menuCount: how many menu items there are (at least 1).
    ///   - weights: by menu index, or nil for uniform.
    public init(seed: UInt64, menuCount: Int, weights: [UInt64]? = nil) {
        state = seed
        count = max(menuCount, 1)
        if let weights {
            var running: UInt64 = 0
            cumulative = weights.map { weight in
                running = running.addingReportingOverflow(weight).overflow ? UInt64.max : running + weight
                return running
            }
        } else {
            cumulative = nil
        }
    }

    /// Parses `ID=WEIGHT,...` into weights by menu index; items left out weigh 0.
    /// An item named twice is an error, not a silent choice between its weights.
    public static func weights(mix: String, book: RecipeBook) throws(MixError) -> [UInt64] {
        var weights = [UInt64](repeating: 0, count: book.menu.count)
        var named = [Bool](repeating: false, count: book.menu.count)
        for part in mix.split(separator: ",", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pieces.count == 2 else { throw .malformed(String(part)) }
            let id = pieces[0].trimmingSpaces
            guard let index = book.menuIndex(id) else {
                throw .unknownItem(id, suggestion: Suggestion.didYouMean(id, in: book.menu.map(\.id)))
            }
            guard !named[index] else { throw .duplicate(id) }
            named[index] = true
            guard case .value(let weight) = WholeNumber(pieces[1].trimmingSpaces) else {
                throw .badWeight(String(part))
            }
            weights[index] = UInt64(weight)
        }
        guard weights.contains(where: { $0 > 0 }) else { throw .allZero }
        return weights
    }

    /// A seed for a run that was given none.
    public static func freshSeed() -> UInt64 { UInt64.random(in: 0...UInt64.max) }

    /// The next order's menu index.
    public mutating func next() -> Int {
        guard let cumulative, let total = cumulative.last, total > 0 else {
            return Int(bounded(UInt64(count)))
        }
        let draw = bounded(total)
        // The first item whose running total passes the draw.
        var low = 0, high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] > draw { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// A uniform draw in [0, 1): the next output's top 53 bits (the
    /// planner's Poisson counts, docs/planning.md).
    public mutating func nextUnit() -> Double {
        Double(nextRaw() >> 11) * 0x1p-53
    }

    private mutating func nextRaw() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<bound without modulo bias.
    private mutating func bounded(_ bound: UInt64) -> UInt64 {
        var product = nextRaw().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold {
                product = nextRaw().multipliedFullWidth(by: bound)
            }
        }
        return product.high
    }
}
