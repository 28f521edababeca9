/// Names to values, probed with a hash the caller computed beforehand.
///
/// The book's namespace is filled on the one thread that merges files and
/// read once per ingredient by the linker: hundreds of thousands of probes.
/// A `Dictionary` hashes the name again on every one of them and on every
/// resize. Here the hash is `String.hashValue` (Swift's per-process seeded
/// SipHash, so crafted ids cannot make probing quadratic), computed once, by
/// the worker that read the name, in parallel with the other files, and
/// stored with the declaration. The table only compares hashes: a slot is 16
/// bytes, so a probe costs one cache line, the names are read only when the
/// hashes match, and growing moves slots without hashing anything.
struct NameTable<Value: Sendable>: Sendable {
    private struct Slot {
        var hash: Int
        /// Index into `names` and `values`; `Slot.empty` when unused.
        var entry: Int
        static var empty: Slot { Slot(hash: 0, entry: -1) }
    }

    /// Open addressing with linear probing; a power-of-two count, at most half full.
    private var slots: [Slot] = Array(repeating: .empty, count: 16)
    private var names: [String] = []
    private var values: [Value] = []

    /// The value stored for `name`, whose `hashValue` is `hash`.
    func value(for name: String, hash: Int) -> Value? {
        let mask = slots.count - 1
        var index = hash & mask
        while case let slot = slots[index], slot.entry >= 0 {
            if slot.hash == hash && names[slot.entry] == name { return values[slot.entry] }
            index = (index + 1) & mask
        }
        return nil
    }

    /// The value stored for `name`, hashing it here.
    func value(for name: String) -> Value? {
        value(for: name, hash: name.hashValue)
    }

    /// Stores `value` unless `name` is already there; returns the value that
    /// was there, which stays.
    mutating func insertIfAbsent(_ name: String, hash: Int, _ value: Value) -> Value? {
        if (names.count + 1) * 2 > slots.count { grow() }
        let mask = slots.count - 1
        var index = hash & mask
        while case let slot = slots[index], slot.entry >= 0 {
            if slot.hash == hash && names[slot.entry] == name { return values[slot.entry] }
            index = (index + 1) & mask
        }
        slots[index] = Slot(hash: hash, entry: names.count)
        names.append(name)
        values.append(value)
        return nil
    }

    private mutating func grow() {
        var larger = [Slot](repeating: .empty, count: slots.count * 2)
        let mask = larger.count - 1
        for slot in slots where slot.entry >= 0 {
            var index = slot.hash & mask
            while larger[index].entry >= 0 { index = (index + 1) & mask }
            larger[index] = slot
        }
        slots = larger
    }
}
