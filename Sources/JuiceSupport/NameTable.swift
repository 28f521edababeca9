#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Names to values, probed with a hash the caller computed beforehand.
///
/// The book's namespace is filled on the one thread that merges files and
/// read once per ingredient by the linker: hundreds of thousands of probes.
/// A `Dictionary` hashes the name again on every one of them and on every
/// resize. Here the hash is `String.hashValue` (Swift's per-process seeded
/// SipHash, so crafted ids cannot make probing quadratic), computed once, by
/// the worker that read the name, in parallel with the other files, and
/// stored with the declaration. A slot keeps the whole hash and the entry's
/// number: the names are read only when the hashes match, and growing moves
/// slots without hashing anything.
///
/// The order-script parser uses the same table keyed by bytes: it looks a
/// line's words up straight from the script's bytes, with no `String` made
/// per line, so its names are stored and probed with `utf8Hash` and
/// compared byte for byte. A table's hashes all come from one function:
/// `String.hashValue` for a table probed with strings (names equal as Swift
/// compares strings), `utf8Hash` for one probed with bytes (names equal as
/// bytes). The script's table is built from the book's ids, not from the
/// script, so the unseeded hash gives the script no way to make probes slow.
///
/// The order-script parser's own table (`ByteTable`) was folded in here.
/// `SuggestionIndex` keeps a third index by hash, a sorted array of variant
/// hashes: it maps one key to many names and is searched by range, which a
/// table of one value per name does not do, so it stays as it is.
@_spi(Internals) public struct NameTable<Value: Sendable>: Sendable {
    /// A stored name's hash and its number, in 8 bytes: the low half of the
    /// hash, which is where a probe starts in any table of up to 2^32 slots
    /// and is compared before the name is, and the entry's number plus one.
    ///
    /// Not the whole hash and an `Int` entry: the namespace's slots are,
    /// with the declarations, what a lint of a 100,000-fruit book peaks on
    /// (4 MB of 16-byte slots), and 8 bytes keep that peak within issue 27's
    /// bound of the commit before it (docs/benchmarks.md, peak RSS:
    /// lint-unused with both rules off 43.8 -> 41.0 MB, cf0d643 39.1;
    /// shape-fruits20k 51.7 -> 48.4, cf0d643 48.2).
    @usableFromInline struct Slot: Sendable {
        @usableFromInline var tag: UInt32
        /// The entry's number plus one; 0 when unused.
        @usableFromInline var stored: UInt32
        @inlinable init(hash: Int, entry: Int) {
            tag = Self.tag(hash)
            stored = UInt32(truncatingIfNeeded: entry &+ 1)
        }
        @inlinable static var empty: Slot { Slot(hash: 0, entry: -1) }
        /// Index into `names` and `values`; -1 when unused.
        @inlinable var entry: Int { Int(stored) - 1 }
        @inlinable var isUsed: Bool { stored != 0 }
        @inlinable static func tag(_ hash: Int) -> UInt32 { UInt32(truncatingIfNeeded: hash) }
    }

    /// The most names a table holds: entries are numbered in 32 bits, and
    /// a table of at most twice as many slots probes from the hash's low
    /// half. Past it, `insertIfAbsent` stores nothing; no book comes near
    /// (the names alone would take 32 GB).
    public static var maximumCount: Int { Int(Int32.max) }

    /// Open addressing with linear probing; a power-of-two count, at most half full.
    @usableFromInline var slots: [Slot] = Array(repeating: .empty, count: 16)
    @usableFromInline var names: [String] = []
    @usableFromInline var values: [Value] = []
    /// For a byte-keyed table, every name's UTF-8 in one array, and where
    /// each starts (one extra entry marks the end): probes compare with one
    /// comparison into it rather than reach each `String`'s own storage (which
    /// for a short id means copying it out of the `String` first).
    @usableFromInline var utf8Store: [UInt8] = []
    @usableFromInline var utf8Offsets: [Int] = [0]

    /// How many names are stored.
    @inlinable public var count: Int { names.count }

    /// The value stored for `name`, whose `hashValue` is `hash`.
    @inlinable public func value(for name: String, hash: Int) -> Value? {
        let mask = slots.count - 1
        let tag = Slot.tag(hash)
        var index = hash & mask
        while case let slot = slots[index], slot.isUsed {
            if slot.tag == tag && names[slot.entry] == name { return values[slot.entry] }
            index = (index + 1) & mask
        }
        return nil
    }

    /// The value stored for `name`, hashing it here.
    public func value(for name: String) -> Value? {
        value(for: name, hash: name.hashValue)
    }

    /// The value stored for the name whose UTF-8 is `bytes`, in a table
    /// filled with `utf8Hash`es; `hash` is `utf8Hash(bytes)`.
    @inlinable public func value(utf8 bytes: UnsafeBufferPointer<UInt8>, hash: Int) -> Value? {
        let mask = slots.count - 1
        let tag = Slot.tag(hash)
        var index = hash & mask
        while case let slot = slots[index], slot.isUsed {
            if slot.tag == tag && storedName(slot.entry, equals: bytes) { return values[slot.entry] }
            index = (index + 1) & mask
        }
        return nil
    }

    /// The table for `names`, keyed by their bytes: each name maps to its
    /// index, and a repeated name keeps its first.
    public init(utf8Names names: [String]) where Value == Int {
        for (index, name) in names.enumerated() {
            var name = name
            let hash = name.withUTF8 { Self.utf8Hash($0) }
            if insertIfAbsent(name, hash: hash, index) == nil {
                utf8Store.append(contentsOf: name.utf8)
                utf8Offsets.append(utf8Store.count)
            }
        }
    }

    /// An empty table.
    public init() {}

    /// Room for `extra` more names without growing on the way: a large
    /// file's ids are added at once, and each doubling rehashes every slot.
    public mutating func reserve(_ extra: Int) {
        var size = slots.count
        // At most 2^32 slots, which the hash's low half addresses.
        let wanted = min(names.count + min(extra, Self.maximumCount), Self.maximumCount)
        while wanted * 2 > size, size < 1 << 32 { size *= 2 }
        if size > slots.count { rehash(into: size) }
        names.reserve(extra)
        values.reserve(extra)
    }

    /// Reads the slot each of `hashes` starts its probe at, so that the
    /// inserts that follow find their slots in cache.
    ///
    /// A probe must see its slot before the next one starts, so filling a
    /// table larger than the cache waits out one miss per name; these loads
    /// do not depend on one another, and the processor overlaps them. The
    /// language server refills a 100,000-name table (2 MB of slots) on every
    /// edit, where the merge's inserts were the largest share of an edit's
    /// time (perf): with the table sized once, warming took the edit's p95
    /// from 69.5 to 56.9 ms and its p50 from 56.0 to 46.2 ms (medians of 8
    /// alternated sessions, docs/benchmarks.md). Callers warm a few thousand
    /// slots at a time, which stay in cache until used.
    public mutating func warm(_ hashes: some Sequence<Int>) {
        let mask = slots.count - 1
        var sum = 0
        slots.withUnsafeBufferPointer { slots in
            for hash in hashes { sum &+= slots[hash & mask].entry }
        }
        // Stored, so that the loads are not optimised away.
        warmth = sum
    }

    /// What `warm` read, kept only so that its loads stay.
    private var warmth = 0

    /// A hash of UTF-8 bytes read eight at a time, for the short ids a
    /// script names once a line: one multiply per eight bytes rather than
    /// FNV-1a's one per byte, whose chain of dependent multiplies was a fifth
    /// of a quiet replay's time (perf). With `RawBytes.same`, it took
    /// `juice-run --quiet orders-10m.txt` from 0.63 s to 0.55 s (medians of
    /// 5). Free to change: nothing stores it.
    @inlinable public static func utf8Hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(truncatingIfNeeded: bytes.count)
        guard let base = bytes.baseAddress else { return Int(truncatingIfNeeded: value) }
        let raw = UnsafeRawPointer(base)
        if bytes.count >= 8 {
            // Every eight bytes before the last eight, then the last eight,
            // which may overlap them: ids of 9 to 16 bytes all take two reads.
            var offset = 0
            while bytes.count - offset > 8 {
                value = mix(value ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            value = mix(value ^ raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
        } else {
            var tail: UInt64 = 0
            for byte in bytes { tail = tail << 8 | UInt64(byte) }
            value = mix(value ^ tail)
        }
        // The probe uses the low bits, which a multiply fills only from the
        // low bits of its input. Folding the high half down once left the
        // low 24 bits blind to an id's last byte (loaded into the top of the
        // last word): "juice-0001" to "juice-0009" shared a slot, and a
        // large mapping's key check (`KeySet`) ran long probes on the
        // 100-file book. Fold, multiply and fold again, so that every byte
        // reaches the low bits.
        value ^= value >> 32
        value &*= 0xD6E8_FEB8_6659_FD93
        return Int(truncatingIfNeeded: value ^ (value >> 32))
    }

    @inline(__always)
    @inlinable static func mix(_ value: UInt64) -> UInt64 {
        let product = value &* 0x9E37_79B9_7F4A_7C15
        return product ^ (product >> 29)
    }

    @inlinable func storedName(_ entry: Int, equals bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard entry + 1 < utf8Offsets.count else { return false }
        let start = utf8Offsets[entry], length = utf8Offsets[entry + 1] - start
        guard length == bytes.count else { return false }
        return utf8Store.withUnsafeBufferPointer { store in
            guard let base = store.baseAddress, let query = bytes.baseAddress else { return length == 0 }
            return RawBytes.same(UnsafeRawPointer(base + start), UnsafeRawPointer(query), count: length)
        }
    }

    /// Stores `value` unless `name` is already there; returns the value that
    /// was there, which stays.
    @inlinable public mutating func insertIfAbsent(_ name: String, hash: Int, _ value: Value) -> Value? {
        guard names.count < Self.maximumCount else { return nil }
        if (names.count + 1) * 2 > slots.count { grow() }
        let mask = slots.count - 1
        let tag = Slot.tag(hash)
        var index = hash & mask
        while case let slot = slots[index], slot.isUsed {
            if slot.tag == tag && names[slot.entry] == name { return values[slot.entry] }
            index = (index + 1) & mask
        }
        slots[index] = Slot(hash: hash, entry: names.count)
        names.append(name)
        values.append(value)
        return nil
    }

    @usableFromInline mutating func grow() {
        rehash(into: slots.count * 2)
    }

    /// Places every slot again in a table of `size` slots.
    @usableFromInline mutating func rehash(into size: Int) {
        var larger = [Slot](repeating: .empty, count: size)
        let mask = larger.count - 1
        for slot in slots where slot.isUsed {
            var index = Int(slot.tag) & mask
            while larger[index].isUsed { index = (index + 1) & mask }
            larger[index] = slot
        }
        slots = larger
    }
}
