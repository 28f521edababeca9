/// "Did you mean" over a fixed list of names, fast whatever the list's size.
///
/// Small lists are scanned, comparing each name by edit distance. Large ones
/// (a book with 100,000 menu items) would make that quadratic when many names
/// are misspelt, so they get a one-deletion index instead: the name and every
/// way of dropping one character from it are hashed, and a query looks up its
/// own such variants. Two names share a variant when they differ by one
/// insertion, deletion, substitution or swap of neighbours, so every
/// one-edit suggestion is found; each hit is then checked by real edit
/// distance. The index is built on the first query, so a clean book never
/// pays for it.
public final class SuggestionIndex: @unchecked Sendable {
    /// Lists up to this size are scanned.
    static let scanLimit = 2_000

    private let names: [String]
    private lazy var scalars: [[Unicode.Scalar]] = names.map { Array($0.unicodeScalars) }
    /// (variant hash, name index), sorted by hash.
    private lazy var variants: [(hash: UInt64, owner: Int32)] = buildVariants()

    /// Suggestions among `names`, in this order of preference on ties.
    public init(_ names: [String]) {
        self.names = names
    }

    /// `did you mean 'x'?` when a close name exists.
    public func didYouMean(_ name: String) -> String? {
        closest(to: name).map { "did you mean '\($0)'?" }
    }

    /// The closest name within `Suggestion.threshold`, the earliest on a tie.
    public func closest(to name: String) -> String? {
        let target = Array(name.unicodeScalars)
        let limit = Suggestion.threshold(forLength: target.count)
        guard limit > 0, !names.isEmpty else { return nil }
        var best: (index: Int, distance: Int)?
        func consider(_ index: Int) {
            guard names[index] != name else { return }
            let candidate = scalars[index]
            let bound = best?.distance ?? limit
            guard abs(candidate.count - target.count) <= bound,
                  let distance = Suggestion.editDistance(target, candidate, atMost: bound)
            else { return }
            // Lowest distance first, then the earliest name, so output is stable.
            if let current = best, (current.distance, current.index) <= (distance, index) { return }
            best = (index, distance)
        }
        if names.count <= Self.scanLimit {
            for index in names.indices { consider(index) }
        } else {
            var seen = Set<Int32>()
            for hash in Self.variantHashes(target) {
                var position = lowerBound(hash)
                while position < variants.count, variants[position].hash == hash {
                    let owner = variants[position].owner
                    if seen.insert(owner).inserted { consider(Int(owner)) }
                    position += 1
                }
            }
        }
        return best.map { names[$0.index] }
    }

    private func buildVariants() -> [(hash: UInt64, owner: Int32)] {
        var entries: [(hash: UInt64, owner: Int32)] = []
        entries.reserveCapacity(names.count * 12)
        for (index, name) in scalars.enumerated() {
            for hash in Self.variantHashes(name) { entries.append((hash, Int32(truncatingIfNeeded: index))) }
        }
        entries.sort { $0.hash < $1.hash || ($0.hash == $1.hash && $0.owner < $1.owner) }
        return entries
    }

    private func lowerBound(_ hash: UInt64) -> Int {
        var low = 0, high = variants.count
        while low < high {
            let middle = (low + high) / 2
            if variants[middle].hash < hash { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The hashes of a name and of each one-character deletion of it.
    /// FNV-1a: fixed across runs, and collisions only cost a distance check.
    static func variantHashes(_ scalars: [Unicode.Scalar]) -> [UInt64] {
        func hash(skipping skipped: Int) -> UInt64 {
            var value: UInt64 = 0xcbf2_9ce4_8422_2325
            for (index, scalar) in scalars.enumerated() where index != skipped {
                value = (value ^ UInt64(scalar.value)) &* 0x0000_0100_0000_01B3
            }
            return value
        }
        return [hash(skipping: -1)] + scalars.indices.map { hash(skipping: $0) }
    }
}
