/// Turns a file's bytes into located YAML documents, collecting diagnostics.
///
/// Anchors, aliases and YAML 1.1 `<<` merge keys are resolved here, and duplicate
/// keys are reported here, because they are facts about YAML, not about recipes.
/// The composer keeps an explicit stack, so no input can make it recurse.
public enum YAMLComposer {
    public struct Result: Sendable {
        /// Every document that was read completely. A document cut short by a
        /// syntax error is dropped, so later stages never see half a mapping.
        public var documents: [YAMLDocument]
        public var diagnostics: [Diagnostic]
    }

    public static func compose(bytes: [UInt8], file: String) -> Result {
        var builder = Builder(file: file)
        do {
            let parser = try YAMLParser(bytes: bytes)
            loop: while true {
                let event = try parser.next()
                if builder.handle(event) == .stop { break loop }
            }
        } catch {
            var diagnostic = Diagnostic(
                .yamlSyntax,
                at: SourceRange(file: file, start: error.position, end: error.position),
                error.message
            )
            if let context = error.context, let at = error.contextPosition, at != error.position {
                diagnostic.notes.append(.init(range: SourceRange(file: file, start: at, end: at), message: context))
            }
            if character(at: error.position, in: bytes) == UInt8(ascii: "\t") {
                diagnostic.help = "YAML indents with spaces; replace the tab with spaces"
            }
            builder.diagnostics.append(diagnostic)
        }
        return Result(documents: builder.documents, diagnostics: builder.diagnostics)
    }
}

/// The first byte of the character at `position`, or nil past the end.
/// Lines are counted as libyaml counts them (`\n`, `\r\n` or `\r`).
private func character(at position: SourcePosition, in bytes: [UInt8]) -> UInt8? {
    var line = 1, column = 0
    for index in bytes.indices {
        let byte = bytes[index]
        if byte & 0xC0 == 0x80 { continue }  // A UTF-8 continuation byte: same character.
        column += 1
        if line == position.line && column == position.column { return byte }
        if byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r") && (index + 1 >= bytes.count || bytes[index + 1] != UInt8(ascii: "\n"))) {
            if line >= position.line { return nil }
            line += 1
            column = 0
        }
    }
    return nil
}

private let mergeTag = "tag:yaml.org,2002:merge"

private struct Builder {
    enum Flow { case proceed, stop }

    /// A collection whose end event has not arrived yet.
    struct Open {
        var node: YAMLNode
        var anchor: String?
    }

    let file: String
    var documents: [YAMLDocument] = []
    var diagnostics: [Diagnostic] = []

    private var nodes: [YAMLNode] = []
    private var anchors: [String: YAMLNode.ID] = [:]
    private var stack: [Open] = []
    private var root: YAMLNode.ID?
    private var aliasExpansion = 0

    init(file: String) { self.file = file }

    mutating func handle(_ event: YAMLEvent) -> Flow {
        switch event {
        case .streamStart:
            return .proceed
        case .streamEnd:
            return .stop
        case .documentStart:
            nodes = []
            anchors = [:]
            stack = []
            root = nil
            aliasExpansion = 0
            return .proceed
        case .documentEnd:
            documents.append(YAMLDocument(file: file, nodes: nodes, root: root))
            nodes = []
            return .proceed
        case .scalar(let scalar):
            let node = YAMLNode(
                kind: .scalar, value: scalar.value, style: scalar.style, tag: scalar.tag,
                start: scalar.start, end: scalar.end, children: [], weight: 1
            )
            attach(store(node, anchor: scalar.anchor))
            return .proceed
        case .alias(let anchor, let start, let end):
            guard let target = anchors[anchor] else {
                diagnostics.append(Diagnostic(
                    .yamlSyntax, at: range(start, end), "undefined alias '\(anchor)'",
                    help: "an alias '*\(anchor)' must come after an anchor '&\(anchor)' in the same document"
                ))
                return .stop
            }
            aliasExpansion = min(aliasExpansion + nodes[target].weight, YAMLLimits.maxAliasExpansion + 1)
            if aliasExpansion > YAMLLimits.maxAliasExpansion {
                diagnostics.append(Diagnostic(
                    .resourceLimit, at: range(start, end),
                    "aliases in this document expand to more than \(YAMLLimits.maxAliasExpansion) nodes",
                    help: "this looks like an alias bomb; expand fewer aliases"
                ))
                return .stop
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
            return .proceed
        case .sequenceStart(let anchor, let tag, let start):
            return open(kind: .sequence, anchor: anchor, tag: tag, start: start)
        case .mappingStart(let anchor, let tag, let start):
            return open(kind: .mapping, anchor: anchor, tag: tag, start: start)
        case .sequenceEnd(let end), .mappingEnd(let end):
            guard var open = stack.popLast() else { return .stop }
            open.node.end = end
            if open.node.kind == .mapping { resolveMapping(&open.node) }
            open.node.weight = min(
                open.node.children.reduce(1) { $0 + nodes[$1].weight },
                YAMLLimits.maxAliasExpansion + 1
            )
            attach(store(open.node, anchor: open.anchor))
            return .proceed
        }
    }

    private func range(_ start: SourcePosition, _ end: SourcePosition) -> SourceRange {
        SourceRange(file: file, start: start, end: end)
    }

    private mutating func open(kind: YAMLNode.Kind, anchor: String?, tag: String?, start: SourcePosition) -> Flow {
        if stack.count >= YAMLLimits.maxDepth {
            diagnostics.append(Diagnostic(
                .resourceLimit, at: range(start, start),
                "collections are nested more than \(YAMLLimits.maxDepth) levels deep"
            ))
            return .stop
        }
        stack.append(Open(
            node: YAMLNode(kind: kind, value: "", style: .plain, tag: tag, start: start, end: start, children: [], weight: 1),
            anchor: anchor
        ))
        return .proceed
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
            stack[stack.count - 1].node.children.append(id)
        }
    }

    /// Applies `<<` merge keys and drops repeated keys, reporting each repeat.
    ///
    /// Explicit keys win over merged ones, and an earlier merge source wins over a
    /// later one, as the YAML 1.1 merge-key spec says.
    private mutating func resolveMapping(_ mapping: inout YAMLNode) {
        let children = mapping.children
        var result: [YAMLNode.ID] = []
        result.reserveCapacity(children.count)
        var seen: [String: YAMLNode.ID] = [:]
        var merges: [YAMLNode.ID] = []
        var index = 0
        while index + 1 < children.count {
            let key = children[index], value = children[index + 1]
            index += 2
            let keyNode = nodes[key]
            if keyNode.kind == .scalar, keyNode.value == "<<",
               (keyNode.style == .plain && keyNode.tag == nil) || keyNode.tag == mergeTag {
                merges.append(value)
                continue
            }
            if keyNode.kind == .scalar {
                if let first = seen[keyNode.value] {
                    diagnostics.append(Diagnostic(
                        .duplicateKey, at: range(keyNode.start, keyNode.end),
                        "duplicate key '\(keyNode.value)'",
                        notes: [.init(range: range(nodes[first].start, nodes[first].end), message: "'\(keyNode.value)' first appears here")],
                        help: "remove one of them, or merge their contents"
                    ))
                    continue
                }
                seen[keyNode.value] = key
            }
            result.append(key)
            result.append(value)
        }
        for source in merges {
            let sourceNode = nodes[source]
            let mappings: [YAMLNode.ID]
            switch sourceNode.kind {
            case .mapping: mappings = [source]
            case .sequence: mappings = sourceNode.children
            case .scalar: mappings = [source]
            }
            for candidate in mappings {
                let candidateNode = nodes[candidate]
                guard candidateNode.kind == .mapping else {
                    diagnostics.append(Diagnostic(
                        .invalidType, at: range(candidateNode.start, candidateNode.end),
                        "a '<<' merge needs a mapping or a sequence of mappings, found \(candidateNode.kindDescription)"
                    ))
                    continue
                }
                var pair = 0
                let merged = candidateNode.children
                while pair + 1 < merged.count {
                    let key = merged[pair], value = merged[pair + 1]
                    pair += 2
                    let keyNode = nodes[key]
                    if keyNode.kind == .scalar {
                        if seen[keyNode.value] != nil { continue }
                        seen[keyNode.value] = key
                    }
                    result.append(key)
                    result.append(value)
                }
            }
        }
        mapping.children = result
    }
}
