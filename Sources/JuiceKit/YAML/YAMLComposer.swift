/// Turns a file's bytes into located YAML documents, collecting diagnostics.
///
/// Anchors, aliases and YAML 1.1 `<<` merge keys are resolved here, and duplicate
/// keys are reported here, because they are facts about YAML, not about recipes.
/// The composer keeps an explicit stack, so no input can make it recurse.
enum YAMLComposer {
    struct Result: Sendable {
        /// Every document that was read completely. A document cut short by a
        /// syntax error, an undefined alias or a bound is dropped, so later
        /// stages never see half a mapping; the documents after it still count.
        var documents: [YAMLDocument]
        var diagnostics: [Diagnostic]
    }

    /// Composes every document of one file; `file` is the path diagnostics show.
    static func compose(bytes: [UInt8], file: String) -> Result {
        var builder = Builder(file: file)
        do {
            let parser = try YAMLParser(bytes: bytes)
            while builder.handle(try parser.next()) == .proceed {}
        } catch {
            var diagnostic = Diagnostic(
                .yamlSyntax,
                at: SourceRange(file: file, start: error.position, end: error.position),
                error.message
            )
            if let context = error.context, let at = error.contextPosition, at != error.position {
                diagnostic.notes.append(.init(range: SourceRange(file: file, start: at, end: at), message: context))
            }
            if SourceLines(bytes: bytes).character(at: error.position) == "\t" {
                diagnostic.help = "YAML indents with spaces; replace the tab with spaces"
            }
            builder.diagnostics.append(diagnostic)
        }
        return Result(documents: builder.documents, diagnostics: builder.diagnostics)
    }
}

private let mergeTag = "tag:yaml.org,2002:merge"

/// Small mappings are checked for repeated keys by a linear scan: hashing costs
/// more than comparing a handful of short strings.
private let linearScanLimit = 16

private struct Builder {
    enum Flow { case proceed, stop }

    /// A collection whose end event has not arrived yet. Its children so far
    /// sit at the end of `scratch`, from `firstChild` on.
    struct Open {
        var node: YAMLNode
        var anchor: String?
        var flow: Bool
        var firstChild: Int
    }

    let file: String
    var documents: [YAMLDocument] = []
    var diagnostics: [Diagnostic] = []

    private var nodes: [YAMLNode] = []
    private var children: [YAMLNode.ID] = []
    private var scratch: [YAMLNode.ID] = []
    private var resolved: [YAMLNode.ID] = []
    private var anchors: [String: YAMLNode.ID] = [:]
    private var stack: [Open] = []
    private var root: YAMLNode.ID?
    /// Per file: many small documents must not multiply the budget.
    private var aliasExpansion = 0
    /// Set after a problem that drops the current document: events are
    /// ignored until it ends.
    private var skippingDocument = false

    init(file: String) { self.file = file }

    mutating func handle(_ event: YAMLEvent) -> Flow {
        if skippingDocument {
            switch event {
            case .documentEnd:
                skippingDocument = false
                resetDocument()
            case .streamEnd:
                return .stop
            default:
                break
            }
            return .proceed
        }
        switch event {
        case .streamStart:
            return .proceed
        case .streamEnd:
            return .stop
        case .documentStart:
            resetDocument()
            return .proceed
        case .documentEnd:
            documents.append(YAMLDocument(file: file, nodes: nodes, children: children, root: root))
            resetDocument()
            return .proceed
        case .scalar(let scalar):
            if scalar.byteCount > YAMLLimits.maxScalarBytes {
                dropDocument(Diagnostic(
                    .resourceLimit, at: range(scalar.start, scalar.start),
                    "a scalar of \(scalar.byteCount) bytes is longer than the \(YAMLLimits.maxScalarBytes)-byte limit",
                    help: "keys and values are ids, labels and numbers; keep each under 64 KiB"
                ))
                return .proceed
            }
            let node = YAMLNode(kind: .scalar, value: scalar.value, style: scalar.style, tag: scalar.tag, start: scalar.start, end: scalar.end)
            attach(store(node, anchor: scalar.anchor))
            return .proceed
        case .alias(let anchor, let start, let end):
            alias(anchor, start: start, end: end)
            return .proceed
        case .sequenceStart(let anchor, let tag, let flow, let start):
            return open(kind: .sequence, anchor: anchor, tag: tag, flow: flow, start: start)
        case .mappingStart(let anchor, let tag, let flow, let start):
            return open(kind: .mapping, anchor: anchor, tag: tag, flow: flow, start: start)
        case .sequenceEnd(let end), .mappingEnd(let end):
            close(end: end)
            return .proceed
        }
    }

    private mutating func resetDocument() {
        nodes = []
        children = []
        scratch.removeAll(keepingCapacity: true)
        anchors = [:]
        stack = []
        root = nil
    }

    /// Reports a problem that makes the current document unusable, and skips
    /// the rest of it.
    private mutating func dropDocument(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
        skippingDocument = true
    }

    private func range(_ start: SourcePosition, _ end: SourcePosition) -> SourceRange {
        SourceRange(file: file, start: start, end: end)
    }

    private mutating func alias(_ anchor: String, start: SourcePosition, end: SourcePosition) {
        guard let target = anchors[anchor] else {
            let insideItself = stack.contains { $0.anchor == anchor }
            dropDocument(Diagnostic(
                .yamlSyntax, at: range(start, end),
                insideItself ? "alias '*\(anchor)' is inside the node it names" : "undefined alias '\(anchor)'",
                help: insideItself
                    ? "a node cannot contain itself; move the alias out of '&\(anchor)'"
                    : "an alias '*\(anchor)' must come after an anchor '&\(anchor)' in the same document"
            ))
            return
        }
        aliasExpansion = min(aliasExpansion + nodes[target].weight, YAMLLimits.maxAliasExpansion + 1)
        if aliasExpansion > YAMLLimits.maxAliasExpansion {
            dropDocument(Diagnostic(
                .resourceLimit, at: range(start, end),
                "aliases in this file expand to more than \(YAMLLimits.maxAliasExpansion) nodes",
                help: "this looks like an alias bomb; expand fewer aliases"
            ))
            return
        }
        if nodes[target].kind == .scalar {
            // A scalar is cheap to copy, and the copy can say where the alias
            // was written: a duplicate key or a bad amount is then reported there.
            var copy = nodes[target]
            copy.start = start
            copy.end = end
            attach(store(copy, anchor: nil))
        } else {
            attach(target)
        }
    }

    /// Past the depth bound the whole rest of the file is abandoned, not just
    /// the document: skipping to the document's end would mean reading every
    /// deeper level, and libyaml's cost per token grows with the flow depth.
    private mutating func open(kind: YAMLNode.Kind, anchor: String?, tag: String?, flow: Bool, start: SourcePosition) -> Flow {
        if stack.count >= YAMLLimits.maxDepth {
            diagnostics.append(Diagnostic(
                .resourceLimit, at: range(start, start),
                "collections are nested more than \(YAMLLimits.maxDepth) levels deep",
                help: "the rest of this file is not read; recipe files need only a few levels"
            ))
            return .stop
        }
        stack.append(Open(
            node: YAMLNode(kind: kind, value: "", style: .plain, tag: tag, start: start, end: start),
            anchor: anchor, flow: flow, firstChild: scratch.count
        ))
        return .proceed
    }

    private mutating func close(end: SourcePosition) {
        guard var open = stack.popLast() else { return }
        // The slice must be gone before `scratch` shrinks: while it lives, the
        // removal copies all of `scratch`, which made wide mappings quadratic.
        do {
            let items = scratch[open.firstChild...]
            // A block collection's end event sits at the next token, which may be
            // lines further on; its last child is where it really ends.
            if !open.flow, let last = items.last {
                open.node.end = nodes[last].end
            } else {
                open.node.end = end
            }
            open.node.childStart = children.count
            if open.node.kind == .mapping {
                resolveMapping(items)
                children.append(contentsOf: resolved)
            } else {
                children.append(contentsOf: items)
            }
        }
        open.node.childCount = children.count - open.node.childStart
        var weight = 1
        for child in children[open.node.childStart...] {
            weight = min(weight + nodes[child].weight, YAMLLimits.maxAliasExpansion + 1)
        }
        open.node.weight = weight
        scratch.removeSubrange(open.firstChild...)
        attach(store(open.node, anchor: open.anchor))
    }

    private mutating func store(_ node: YAMLNode, anchor: String?) -> YAMLNode.ID {
        nodes.append(node)
        let id = nodes.count - 1
        if let anchor { anchors[anchor] = id }
        return id
    }

    private mutating func attach(_ id: YAMLNode.ID) {
        if stack.isEmpty {
            root = id
        } else {
            scratch.append(id)
        }
    }

    /// Puts a mapping's final key/value list in `resolved`: `<<` merges
    /// applied, repeated keys dropped after being reported.
    ///
    /// Explicit keys win over merged ones, and an earlier merge source wins over
    /// a later one, as the YAML 1.1 merge-key spec says.
    private mutating func resolveMapping(_ items: ArraySlice<YAMLNode.ID>) {
        resolved.removeAll(keepingCapacity: true)
        var merges: [YAMLNode.ID] = []
        var seen = KeySet(large: items.count / 2 > linearScanLimit)
        var index = items.startIndex
        while index + 1 < items.endIndex {
            let key = items[index], value = items[index + 1]
            index += 2
            let keyNode = nodes[key]
            if keyNode.kind == .scalar, keyNode.value == "<<",
               (keyNode.style == .plain && keyNode.tag == nil) || keyNode.tag == mergeTag {
                merges.append(value)
                continue
            }
            if keyNode.kind == .scalar {
                if let first = seen.first(keyNode.value, nodes: nodes, in: resolved) {
                    diagnostics.append(Diagnostic(
                        .duplicateKey, at: range(keyNode.start, keyNode.end),
                        "duplicate key '\(keyNode.value)'",
                        notes: [.init(range: range(nodes[first].start, nodes[first].end), message: "'\(keyNode.value)' first appears here")],
                        help: "remove one of them, or merge their contents"
                    ))
                    continue
                }
                seen.insert(keyNode.value, key)
            }
            resolved.append(key)
            resolved.append(value)
        }
        for source in merges {
            let sourceNode = nodes[source]
            let mappings = sourceNode.kind == .sequence ? Array(children[sourceNode.childStart..<sourceNode.childStart + sourceNode.childCount]) : [source]
            for candidate in mappings {
                let candidateNode = nodes[candidate]
                guard candidateNode.kind == .mapping else {
                    diagnostics.append(Diagnostic(
                        .invalidType, at: range(candidateNode.start, candidateNode.end),
                        "a '<<' merge needs a mapping or a sequence of mappings, found \(candidateNode.kindDescription)"
                    ))
                    continue
                }
                var pair = candidateNode.childStart
                while pair + 1 < candidateNode.childStart + candidateNode.childCount {
                    let key = children[pair], value = children[pair + 1]
                    pair += 2
                    let keyNode = nodes[key]
                    if keyNode.kind == .scalar {
                        if seen.first(keyNode.value, nodes: nodes, in: resolved) != nil { continue }
                        seen.insert(keyNode.value, key)
                    }
                    resolved.append(key)
                    resolved.append(value)
                }
            }
        }
    }
}

/// The scalar keys of one mapping seen so far: a scan over the mapping's own
/// keys when it is small, a dictionary when it is large.
private struct KeySet {
    private var table: [String: YAMLNode.ID]?

    init(large: Bool) {
        table = large ? [:] : nil
    }

    /// The first key node with this text among the pairs in `resolved`.
    func first(_ text: String, nodes: [YAMLNode], in resolved: [YAMLNode.ID]) -> YAMLNode.ID? {
        if let table { return table[text] }
        var index = 0
        while index < resolved.count {
            let key = resolved[index]
            if nodes[key].kind == .scalar && nodes[key].value == text { return key }
            index += 2
        }
        return nil
    }

    mutating func insert(_ text: String, _ key: YAMLNode.ID) {
        table?[text] = key
    }
}
