@_spi(Internals) import JuiceSupport
import JuiceDiagnostics
/// Merge keys and repeated keys: how a mapping's pairs become its final
/// key/value list. Facts about YAML, so they are resolved and reported here.
extension DocumentBuilder {
    /// Puts a mapping's final key/value list in `resolved`: `<<` merges
    /// applied, repeated keys dropped after being reported and kept in
    /// `repeats`, so that their values can still be checked.
    ///
    /// Explicit keys win over merged ones, and an earlier merge source wins over
    /// a later one, as the YAML 1.1 merge-key spec says. A mapping has one
    /// merge key: a second is a repeated key, as ruamel reports it, and both
    /// `<<` and any key tagged `!!merge` are merge keys, as in PyYAML and ruamel.
    mutating func resolveMapping(_ items: ArraySlice<YAMLNode.ID>) {
        resolved.removeAll(keepingCapacity: true)
        var merge: (key: YAMLNode.ID, value: YAMLNode.ID)?
        var seen = KeySet(pairs: items.count / 2)
        var index = items.startIndex
        // The id `store` gives this mapping once it is resolved.
        let mapping = nodes.count
        while index + 1 < items.endIndex {
            let key = items[index], value = items[index + 1]
            index += 2
            if nodes[key].kind == .scalar {
                if isMergeKey(key) {
                    if let first = merge?.key {
                        reportRepeat(key, first: first, merge: true)
                        repeats.append(.init(mapping: mapping, key: key, value: value, first: first))
                    } else {
                        merge = (key, value)
                    }
                    continue
                }
                if let first = seen.firstOrInsert(key, in: self) {
                    reportRepeat(key, first: first, merge: false)
                    repeats.append(.init(mapping: mapping, key: key, value: value, first: first))
                    continue
                }
            }
            resolved.append(key)
            resolved.append(value)
        }
        if let source = merge?.value {
            hasMerges = true
            let sourceNode = nodes[source]
            let mappings = sourceNode.kind == .sequence ? Array(children[sourceNode.childStart..<sourceNode.childStart + sourceNode.childCount]) : [source]
            for candidate in mappings {
                let candidateNode = nodes[candidate]
                guard candidateNode.kind == .mapping else {
                    if !skippingDocument {
                        let anchor = aliases.last { $0.alias == candidate }?.anchor
                        diagnostics.append(Diagnostic(
                            .invalidType, at: range(candidateNode.start, candidateNode.end),
                            "a '<<' merge needs a mapping or a sequence of mappings, found \(candidateNode.kindDescription)",
                            notes: anchor.map { [.init(range: range(nodes[$0].start, nodes[$0].end), message: "the alias stands for the node anchored here")] } ?? []
                        ))
                    }
                    continue
                }
                var pair = candidateNode.childStart
                while pair + 1 < candidateNode.childStart + candidateNode.childCount {
                    let key = children[pair], value = children[pair + 1]
                    pair += 2
                    if nodes[key].kind == .scalar, seen.firstOrInsert(key, in: self) != nil { continue }
                    resolved.append(key)
                    resolved.append(value)
                }
            }
        }
    }

    /// Reports `key` as a repeat of `first`; not in a dropped document, whose
    /// problems past the one that dropped it are not reported.
    mutating func reportRepeat(_ key: YAMLNode.ID, first: YAMLNode.ID, merge: Bool) {
        if skippingDocument { return }
        let text = self.text(of: key), firstText = self.text(of: first)
        let firstRange = range(nodes[first].start, nodes[first].end)
        if merge && text != firstText {
            diagnostics.append(Diagnostic(
                .duplicateKey, at: range(nodes[key].start, nodes[key].end),
                "duplicate merge key '\(text)'",
                notes: [.init(range: firstRange, message: "the first merge key, '\(firstText)', is here")],
                help: "merge several mappings with one key: '<<: [*a, *b]'"
            ))
            return
        }
        diagnostics.append(Diagnostic(
            .duplicateKey, at: range(nodes[key].start, nodes[key].end),
            "duplicate key '\(text)'",
            notes: [.init(range: firstRange, message: "'\(text)' first appears here")],
            help: merge ? "merge several mappings with one key: '<<: [*a, *b]'" : "remove one of them, or merge their contents"
        ))
    }
}

/// Small mappings are checked for repeated keys by a linear scan: hashing costs
/// more than comparing a handful of short strings.
private let linearScanLimit = 16

/// The scalar keys of one mapping seen so far: a scan over the mapping's own
/// keys when it is small, a hash table of node ids when it is large.
/// Keys are compared and hashed as bytes in the text arena, so checking a
/// mapping's keys makes no `String`. Equal bytes are what YAML means by one
/// key; Swift's `==` would also equate two spellings of one accented letter,
/// which stay two keys here (as ids, the linker still finds them one:
/// `docs/recipes.md`).
///
/// The hash is `NameTable.utf8Hash`, a few instructions a key, until a
/// probe runs past `ProbeLimit.unseeded` slots; then the table is hashed again with
/// the standard library's seeded hash, which no file can make collide on
/// purpose. SipHash on every key of every large mapping was a tenth of a
/// worker's time on the 100,000-fruit book. Keys are always compared
/// byte for byte, so the hash only ever decides speed, never the answer.
struct KeySet {
    /// Open addressing: a node id, or -1 for an empty slot; empty while the
    /// keys are few enough to scan. Never more than half full.
    private var slots: [Int] = []
    private var count = 0
    /// Set once a probe ran long: the table uses the seeded hash from then on.
    private var seeded = false

    /// `pairs`: how many key/value pairs the mapping has, merges aside.
    init(pairs: Int) {
        if pairs > linearScanLimit { slots = Self.emptySlots(for: pairs) }
    }

    /// The first key node with `key`'s text among those seen so far, or nil
    /// after adding `key` as seen. Keys are seen as they join
    /// `builder.resolved`; while they are few, they are found by scanning it.
    /// Merges can add any number of keys to a small mapping: past the scan's
    /// limit the keys move to a table, which doubles as it fills.
    mutating func firstOrInsert(_ key: YAMLNode.ID, in builder: DocumentBuilder) -> YAMLNode.ID? {
        if slots.isEmpty {
            let resolved = builder.resolved
            var index = 0
            while index < resolved.count {
                let other = resolved[index]
                if builder.nodes[other].kind == .scalar && builder.sameText(other, key) { return other }
                index += 2
            }
            count += 1
            if count <= linearScanLimit { return nil }
            slots = Self.emptySlots(for: count)
            index = 0
            while index < resolved.count {
                let other = resolved[index]
                if builder.nodes[other].kind == .scalar { place(other, in: builder) }
                index += 2
            }
            place(key, in: builder)
            return nil
        }
        let mask = slots.count - 1
        var slot = hash(key, in: builder) & mask
        var probes = 0
        while slots[slot] >= 0 {
            let other = slots[slot]
            if builder.sameText(other, key) { return other }
            slot = (slot + 1) & mask
            probes += 1
            if probes == ProbeLimit.unseeded && !seeded {
                seeded = true
                rehash(into: slots.count, in: builder)
                return firstOrInsert(key, in: builder)
            }
        }
        count += 1
        if count * 2 > slots.count {
            rehash(into: Self.size(for: count), in: builder)
            place(key, in: builder)
        } else {
            slots[slot] = key
        }
        return nil
    }

    private func hash(_ key: YAMLNode.ID, in builder: DocumentBuilder) -> Int {
        seeded ? builder.textHash(of: key) : builder.withText(of: key) { NameTable<Int>.utf8Hash($0) }
    }

    private mutating func place(_ key: YAMLNode.ID, in builder: DocumentBuilder) {
        let mask = slots.count - 1
        var slot = hash(key, in: builder) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = key
    }

    private mutating func rehash(into size: Int, in builder: DocumentBuilder) {
        let old = slots
        slots = Array(repeating: -1, count: size)
        for other in old where other >= 0 { place(other, in: builder) }
    }

    /// Room for `keys` keys at most a quarter full, so probes stay short.
    private static func emptySlots(for keys: Int) -> [Int] {
        Array(repeating: -1, count: size(for: keys))
    }

    private static func size(for keys: Int) -> Int {
        var size = 32
        while size < keys * 4 { size *= 2 }
        return size
    }
}
