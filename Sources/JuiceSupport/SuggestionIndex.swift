import Synchronization

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
///
/// That lazy build is the only state, and it sits behind a lock, so one index
/// can be shared between threads: the first query builds the tables while
/// any other waits, and every query then searches its own reference to them,
/// outside the lock.
public final class SuggestionIndex: Sendable {
    /// Lists up to this size are scanned.
    static let scanLimit = 2_000

    /// The names suggested from, in order of preference.
    package let names: [String]
    /// Bits of a variant key that hold the name's index: enough for every
    /// name. The rest hold the top of the variant's hash.
    private let ownerBits: Int
    /// Where a key's group starts: the hash's top 32 bits (or fewer, past
    /// 2^32 names). The keys are sorted by these bits only, four passes of
    /// the radix sort rather than six; a name whose variant shares them
    /// without sharing the whole hash is dropped by the full check a query
    /// already makes, and with 32 bits there is about one such name in
    /// ten thousand queries.
    private var groupShift: UInt64 { UInt64(max(32, ownerBits)) }
    /// Built by the first query; nil until then.
    private let tables = Mutex<Tables?>(nil)

    /// What the first query builds.
    private struct Tables: Sendable {
        /// Each name as scalars.
        var scalars: [[Unicode.Scalar]]
        /// Each variant as one number, its hash's top bits then the name's
        /// index, sorted: equal hashes sit together, and sorting plain
        /// integers (by radix) is far cheaper than sorting pairs. Empty for a
        /// list short enough to scan.
        var variants: [UInt64]
    }

    /// Suggestions among `names`, in this order of preference on ties.
    public init(_ names: [String]) {
        self.names = names
        ownerBits = max(1, Int.bitWidth - max(names.count - 1, 1).leadingZeroBitCount)
    }

    /// `did you mean 'x'?` when a close name exists.
    public func didYouMean(_ name: String) -> String? {
        closest(to: name).map(Suggestion.didYouMean(suggesting:))
    }

    /// The closest name within `Suggestion.threshold`, the earliest on a tie.
    public func closest(to name: String) -> String? {
        closestMatch(to: name)?.name
    }

    /// The closest name, as `closest(to:)` picks it, and whether no other
    /// name is as close (`Suggestion.closestMatch`). A large list's index
    /// finds every one-edit name but not every two-edit one, so there a
    /// two-edit suggestion is never called sole: a tie may be unseen.
    public func closestMatch(to name: String) -> (name: String, isSole: Bool)? {
        guard var search = Suggestion.Search(for: name), !names.isEmpty else { return nil }
        let target = Array(name.unicodeScalars)
        let (scalars, variants) = prepared()
        func consider(_ index: Int) { search.consider(names[index], scalars[index], rank: index) }
        if names.count <= Self.scanLimit {
            for index in names.indices { consider(index) }
        } else {
            // The index keeps only the top of each hash, so a group can hold
            // names whose variant merely shares those bits; each is checked
            // against the full hash before it counts, which keeps the answer
            // exactly what full hashes give (crafted ids cannot smuggle in a
            // name that is not one edit away).
            var seen = Set<Int>()
            let ownerMask: UInt64 = (1 << UInt64(ownerBits)) - 1
            for hash in Self.variantHashes(target) {
                let group = hash >> groupShift
                var position = Self.lowerBound(group << groupShift, in: variants)
                while position < variants.count, variants[position] >> groupShift == group {
                    let owner = Int(variants[position] & ownerMask)
                    position += 1
                    guard !seen.contains(owner), Self.variantHashes(scalars[owner]).contains(hash) else { continue }
                    seen.insert(owner)
                    consider(owner)
                }
            }
        }
        return search.best.map { ($0.name, $0.isSole && (names.count <= Self.scanLimit || $0.distance <= 1)) }
    }

    /// The tables, built by the first query that needs them.
    private func prepared() -> (scalars: [[Unicode.Scalar]], variants: [UInt64]) {
        tables.withLock { tables in
            if let tables { return (tables.scalars, tables.variants) }
            let built = build()
            tables = built
            return (built.scalars, built.variants)
        }
    }

    /// A large list's tables: each name split into scalars, its variants
    /// hashed into keys, and the keys sorted by group. One pass on this
    /// thread; the core runs on one thread (ARCHITECTURE.md).
    private func build() -> Tables {
        let count = names.count
        guard count > Self.scanLimit else { return Tables(scalars: names.map { Array($0.unicodeScalars) }, variants: []) }
        let shift = groupShift
        var keys: [UInt64] = []
        keys.reserveCapacity(count * 12)
        var scalars: [[Unicode.Scalar]] = []
        scalars.reserveCapacity(count)
        for index in 0..<count {
            let name = Array(names[index].unicodeScalars)
            Self.forEachVariantHash(name) { hash in keys.append((hash >> shift) << shift | UInt64(index)) }
            scalars.append(name)
        }
        Self.radixSort(&keys, fromBit: Int(shift))
        return Tables(scalars: scalars, variants: keys)
    }

    /// Sorts by the bits from `lowestBit` up, in 8-bit digits, least
    /// significant first: a few linear passes instead of a comparison sort's
    /// log factor over a million keys. Bits below `lowestBit` (below its
    /// digit) are left in any order: the index needs keys grouped by hash,
    /// not the names within a group ordered.
    static func radixSort(_ keys: inout [UInt64], fromBit lowestBit: Int = 0) {
        guard keys.count > 1 else { return }
        var scratch = [UInt64](repeating: 0, count: keys.count)
        var counts = [Int](repeating: 0, count: 256)
        var shift = UInt64(lowestBit / 8 * 8)
        while shift < 64 {
            keys.withUnsafeBufferPointer { source in
                scratch.withUnsafeMutableBufferPointer { target in
                    counts.withUnsafeMutableBufferPointer { counts in
                        for digit in 0..<256 { counts[digit] = 0 }
                        for key in source { counts[Int(truncatingIfNeeded: key >> shift) & 0xFF] += 1 }
                        var total = 0
                        for digit in 0..<256 {
                            let count = counts[digit]
                            counts[digit] = total
                            total += count
                        }
                        for key in source {
                            let digit = Int(truncatingIfNeeded: key >> shift) & 0xFF
                            target[counts[digit]] = key
                            counts[digit] += 1
                        }
                    }
                }
            }
            swap(&keys, &scratch)
            shift += 8
        }
    }

    private static func lowerBound(_ key: UInt64, in variants: [UInt64]) -> Int {
        var low = 0, high = variants.count
        while low < high {
            let middle = (low + high) / 2
            if variants[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The hashes of a name and of each one-character deletion of it.
    /// FNV-1a: fixed across runs, and collisions only cost a distance check.
    static func variantHashes(_ scalars: [Unicode.Scalar]) -> [UInt64] {
        var hashes: [UInt64] = []
        hashes.reserveCapacity(scalars.count + 1)
        forEachVariantHash(scalars) { hashes.append($0) }
        return hashes
    }

    /// `variantHashes` without an array: building the index calls it for
    /// every id of the book, and two arrays per id were a third of the build.
    ///
    /// FNV-1a reads a name front to back, so the hash without scalar `i`
    /// starts from the state after the first `i` scalars: those states are
    /// kept (on the stack), and each variant hashes only what follows its
    /// gap, half the steps of hashing every variant whole. The build was a
    /// third of the link on the book of 10,000 misspellings (perf).
    static func forEachVariantHash(_ scalars: [Unicode.Scalar], _ body: (UInt64) -> Void) {
        let prime: UInt64 = 0x0000_0100_0000_01B3
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: scalars.count + 1) { prefixes in
            var value: UInt64 = 0xcbf2_9ce4_8422_2325
            prefixes[0] = value
            for (index, scalar) in scalars.enumerated() {
                value = (value ^ UInt64(scalar.value)) &* prime
                prefixes[index + 1] = value
            }
            body(value)
            for skipped in scalars.indices {
                var variant = prefixes[skipped]
                for index in scalars.indices[(skipped + 1)...] {
                    variant = (variant ^ UInt64(scalars[index].value)) &* prime
                }
                body(variant)
            }
        }
    }
}
