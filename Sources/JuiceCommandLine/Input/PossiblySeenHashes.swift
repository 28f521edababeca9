@_spi(Internals) import JuiceSupport
/// Hash values seen so far, for a check where "maybe seen" is a safe answer.
///
/// The join of a large file's pieces asks, for each of the file's 100,000
/// keys, whether another piece had the same key's hash. A "yes" only sends
/// the file back to a whole read, which finds every repeated key exactly, so
/// this set may say "maybe seen" whenever it likes. That lets it be a table
/// of bare hashes: no seeded rehash of each value (`Set<Int>` runs SipHash on
/// every insert and again on every growth, which was 6 of the 30 ms the main
/// thread spent pieceJoin and merging the 100,000-fruit book), and no defence
/// against crafted hashes beyond giving up: a probe that runs long answers
/// "maybe seen" rather than walk on, so no input makes it slow.
struct PossiblySeenHashes {
    /// Open addressing with linear probing; 0 marks an empty slot, so a hash
    /// of 0 is stored as 1 (a clash that only costs a whole read).
    private var slots: [Int] = Array(repeating: 0, count: 64)
    private var count = 0
    /// Set once a hash found no slot: then nothing is known for sure.
    private var spoiled = false

    /// Room for `total` hashes in all without growing on the way.
    mutating func reserve(_ total: Int) {
        if !spoiled, total * 2 > slots.count { rehash(into: Self.size(for: total)) }
    }

    /// Adds `hash`; false when it may have been added before (it was, or
    /// the probe for it ran too long).
    mutating func insert(_ hash: Int) -> Bool {
        if !spoiled, (count + 1) * 2 > slots.count { rehash(into: slots.count * 2) }
        if spoiled { return false }
        let stored = hash == 0 ? 1 : hash
        let mask = slots.count - 1
        var index = Self.start(stored, mask)
        // A probe past `ProbeLimit.unseeded` slots answers "maybe seen".
        for _ in 0..<ProbeLimit.unseeded {
            let slot = slots[index]
            if slot == 0 {
                slots[index] = stored
                count += 1
                return true
            }
            if slot == stored { return false }
            index = (index + 1) & mask
        }
        return false
    }

    /// Where a probe starts: the hash's high bits after a multiply, which
    /// spreads hashes that differ only in their high bits.
    @inline(__always)
    private static func start(_ hash: Int, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(hash)) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    private static func size(for total: Int) -> Int {
        var size = 64
        while size < total * 2, size < Int.max / 4 { size *= 2 }
        return size
    }

    /// Moves every hash into a table of `size` slots. One that finds no
    /// slot within the probe bound spoils the set: from then on every answer
    /// is "maybe seen", which is always safe.
    private mutating func rehash(into size: Int) {
        var larger = [Int](repeating: 0, count: size)
        let mask = size - 1
        for hash in slots where hash != 0 {
            var index = Self.start(hash, mask)
            var probes = 0
            while larger[index] != 0 {
                probes += 1
                guard probes < ProbeLimit.unseeded else {
                    spoiled = true
                    return
                }
                index = (index + 1) & mask
            }
            larger[index] = hash
        }
        slots = larger
    }
}
