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
        // Nodes are read in place (`nodes[key].value`), never copied out: a
        // copy retains and releases its strings, for every key of the book.
        while index + 1 < items.endIndex {
            let key = items[index], value = items[index + 1]
            index += 2
            if nodes[key].kind == .scalar {
                if (nodes[key].value == "<<" && nodes[key].style == .plain && nodes[key].tag == nil) || nodes[key].tag == mergeTag {
                    if let first = merge?.key {
                        reportRepeat(key, first: first, merge: true)
                        repeats.append(.init(mapping: mapping, key: key, value: value, first: first))
                    } else {
                        merge = (key, value)
                    }
                    continue
                }
                if let first = seen.first(key, nodes: nodes, in: resolved) {
                    reportRepeat(key, first: first, merge: false)
                    repeats.append(.init(mapping: mapping, key: key, value: value, first: first))
                    continue
                }
                seen.insert(key, nodes: nodes)
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
                    if nodes[key].kind == .scalar {
                        if seen.first(key, nodes: nodes, in: resolved) != nil { continue }
                        seen.insert(key, nodes: nodes)
                    }
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
        let text = nodes[key].value, firstText = nodes[first].value
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

private let mergeTag = "tag:yaml.org,2002:merge"

/// Small mappings are checked for repeated keys by a linear scan: hashing costs
/// more than comparing a handful of short strings.
private let linearScanLimit = 16

/// The scalar keys of one mapping seen so far: a scan over the mapping's own
/// keys when it is small, a dictionary when it is large.
struct KeySet {
    private var table: [String: YAMLNode.ID]?

    /// `pairs`: how many key/value pairs the mapping has, merges aside.
    init(pairs: Int) {
        table = pairs > linearScanLimit ? Dictionary(minimumCapacity: pairs) : nil
    }

    /// The first key node with `key`'s text among the pairs in `resolved`.
    func first(_ key: YAMLNode.ID, nodes: [YAMLNode], in resolved: [YAMLNode.ID]) -> YAMLNode.ID? {
        if let table { return table[nodes[key].value] }
        var index = 0
        while index < resolved.count {
            let other = resolved[index]
            if nodes[other].kind == .scalar && nodes[other].value == nodes[key].value { return other }
            index += 2
        }
        return nil
    }

    mutating func insert(_ key: YAMLNode.ID, nodes: [YAMLNode]) {
        table?[nodes[key].value] = key
    }
}
