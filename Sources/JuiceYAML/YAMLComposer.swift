import JuiceSource
import JuiceDiagnostics
/// Turns a file's bytes into located YAML documents, collecting diagnostics.
///
/// Anchors, aliases and YAML 1.1 `<<` merge keys are resolved here, and duplicate
/// keys are reported here, because they are facts about YAML, not about recipes.
/// The composer keeps an explicit stack, so no input can make it recurse.
///
/// A composer can be kept and used for file after file (each worker of a
/// parallel lint keeps one): its node arena and work arrays keep their
/// capacity, so after the first file composing allocates almost nothing.
package struct YAMLComposer {
    package struct Result: Sendable {
        /// Every document that was read completely. A document cut short by a
        /// syntax error, an undefined alias or a bound is dropped, so later
        /// stages never see half a mapping; the documents after it still count.
        /// (`compose(bytes:file:each:)` hands the dropped ones on too, marked.)
        package var documents: [YAMLDocument]
        package var diagnostics: [Diagnostic]
    }

    private var builder = DocumentBuilder()

    package init() {}

    /// Composes every document of one file; `file` is the path diagnostics show.
    package static func compose(bytes: [UInt8], file: String) -> Result {
        var composer = YAMLComposer()
        var documents: [YAMLDocument] = []
        let diagnostics = composer.compose(bytes: bytes, file: file, keepsDocuments: true) {
            if $0.status == .complete { documents.append($0) }
        }
        return Result(documents: documents, diagnostics: diagnostics)
    }

    /// Composes one file, calling `each` with every document as soon as it
    /// ends, and returns the file's YAML diagnostics. A document that does not
    /// count is handed on too, with its `status` saying why, so that what it
    /// declares is known; it must not be read as part of the book.
    ///
    /// - Parameter keepsDocuments: whether `each` keeps the documents. When it
    ///   does not, the next document reuses their arrays in place; when it
    ///   does, each document gets arrays of its own size.
    package mutating func compose(
        bytes: [UInt8], file: String, keepsDocuments: Bool = false, each: (YAMLDocument) -> Void
    ) -> [Diagnostic] {
        compose(piece: bytes[...], firstLine: 1, file: file, keepsDocuments: keepsDocuments, each: each).diagnostics
    }

    /// Composes a piece of a file that starts at the beginning of line
    /// `firstLine` (`LargeFileCut`), with every position as in the whole
    /// file, and says where libyaml's stream ended (nil after a syntax error).
    /// A tab's help is only given for a whole file: a piece's problems are
    /// never shown, since any problem sends the file back to a whole compose.
    package mutating func compose(
        piece bytes: ArraySlice<UInt8>, firstLine: Int, file: String, keepsDocuments: Bool = false,
        each: (YAMLDocument) -> Void
    ) -> (diagnostics: [Diagnostic], end: SourcePosition?) {
        withoutActuallyEscaping(each) { each in
            builder.start(file: file, reuse: !keepsDocuments, each: each)
            var end: SourcePosition?
            do throws(YAMLSyntaxError) {
                end = try YAMLParser.parse(bytes, firstLine: firstLine, into: &builder)
            } catch {
                var diagnostic = Diagnostic(
                    .yamlSyntax,
                    at: SourceRange(file: file, start: error.position, end: error.position),
                    error.message
                )
                if let context = error.context, let at = error.contextPosition, at != error.position {
                    diagnostic.notes.append(.init(range: SourceRange(file: file, start: at, end: at), message: context))
                }
                if firstLine == 1, SourceLines(bytes: Array(bytes)).character(at: error.position) == "\t" {
                    diagnostic.help = "YAML indents with spaces; replace the tab with spaces"
                }
                builder.diagnostics.append(diagnostic)
            }
            builder.salvageCutShortDocument()
            return (builder.finish(), end)
        }
    }
}

/// The composer's state: per file, per document, and the arrays it reuses.
struct DocumentBuilder: YAMLEventHandler, YAMLNodeStore {
    /// A collection whose end event has not arrived yet. Its children so far
    /// sit at the end of `scratch`, from `firstChild` on.
    struct Open {
        var node: YAMLNode
        package var anchor: String?
        var flow: Bool
        var firstChild: Int
    }

    private var file = ""
    package var diagnostics: [Diagnostic] = []
    /// Set for the length of one `compose` call only.
    private var each: ((YAMLDocument) -> Void)?
    private var reuse = false

    var nodes: [YAMLNode] = []
    package var children: [YAMLNode.ID] = []
    /// The document's scalars' bytes and tags (`YAMLDocument.text`, `tags`).
    package var text: [UInt8] = []
    var tags: [String] = []
    private var scratch: [YAMLNode.ID] = []
    var resolved: [YAMLNode.ID] = []
    private var anchors: [String: YAMLNode.ID] = [:]
    private var stack: [Open] = []
    private var root: YAMLNode.ID?
    package var repeats: [YAMLDocument.Repeat] = []
    package var aliases: [(alias: YAMLNode.ID, anchor: YAMLNode.ID)] = []
    package var hasMerges = false
    /// Whether a document has begun and not yet been handed on.
    private var inDocument = false
    /// Per file: many small documents must not multiply the budget.
    private var aliasExpansion = 0
    /// Set after a problem that drops the current document. The rest of it is
    /// still composed, so what it declares is known, but every alias and
    /// oversized scalar in it becomes a null: nothing more is expanded, and
    /// nothing more is reported.
    var skippingDocument = false
    /// In a dropped document, how many levels past the depth bound the
    /// current event sits: those are not composed, as before the drop they
    /// would not have been, and not reported either.
    private var ignoredDepth = 0

    package mutating func start(file: String, reuse: Bool, each: @escaping (YAMLDocument) -> Void) {
        self.file = file
        self.reuse = reuse
        self.each = each
        diagnostics = []
        aliasExpansion = 0
        skippingDocument = false
        resetDocument()
    }

    /// Ends the file: drops `each` and hands back the diagnostics.
    mutating func finish() -> [Diagnostic] {
        each = nil
        resetDocument()
        defer { diagnostics = [] }
        return diagnostics
    }

    // MARK: Events

    mutating func documentStart(_ start: SourcePosition) -> Bool {
        resetDocument()
        inDocument = true
        return true
    }

    mutating func documentEnd(_ end: SourcePosition) -> Bool {
        handOn(skippingDocument ? .dropped : .complete)
        skippingDocument = false
        resetDocument()
        return true
    }

    /// After a syntax error or the depth bound, hands on what was read of the
    /// document it stopped in, its open collections closed where they stand.
    mutating func salvageCutShortDocument() {
        guard inDocument else { return }
        skippingDocument = true
        while let open = stack.last {
            close(end: open.node.start)
        }
        handOn(.cutShort)
        skippingDocument = false
        resetDocument()
    }

    private mutating func handOn(_ status: YAMLDocument.Status) {
        inDocument = false
        each?(YAMLDocument(
            file: file, nodes: nodes, children: children, text: text, tags: tags, root: root, status: status,
            repeats: repeats, aliases: aliases, hasMerges: hasMerges
        ))
    }

    package mutating func scalar(
        _ bytes: UnsafeBufferPointer<UInt8>, anchor: String?, tag: String?, style: YAMLNode.ScalarStyle,
        start: SourcePosition, end: SourcePosition
    ) -> Bool {
        if ignoredDepth > 0 { return true }
        let byteCount = bytes.count
        if byteCount > YAMLLimits.maxScalarBytes {
            if skippingDocument {
                attachPlaceholder(start, end)
                return true
            }
            dropDocument(Diagnostic(
                .resourceLimit, at: range(start, start),
                "a scalar of \(byteCount) bytes is longer than the \(YAMLLimits.maxScalarBytes)-byte limit",
                help: "keys and values are ids, labels and numbers; keep each under 64 KiB"
            ))
            attachPlaceholder(start, end)
            return true
        }
        let first = text.count
        text.append(contentsOf: bytes)
        let node = YAMLNode(
            kind: .scalar, style: style, text: first..<text.count, tag: storeTag(tag),
            isNull: style == .plain && tag == nil && YAMLNode.isNullText(bytes), start: start, end: end
        )
        attach(store(node, anchor: anchor))
        return true
    }

    mutating func alias(_ anchor: String, start: SourcePosition, end: SourcePosition) -> Bool {
        if ignoredDepth > 0 { return true }
        if skippingDocument {
            attachPlaceholder(start, end)
            return true
        }
        guard let target = anchors[anchor] else {
            let insideItself = stack.contains { $0.anchor == anchor }
            dropDocument(Diagnostic(
                .yamlSyntax, at: range(start, end),
                insideItself ? "alias '*\(anchor)' is inside the node it names" : "undefined alias '\(anchor)'",
                help: insideItself
                    ? "a node cannot contain itself; move the alias out of '&\(anchor)'"
                    : "an alias '*\(anchor)' must come after an anchor '&\(anchor)' in the same document"
            ))
            attachPlaceholder(start, end)
            return true
        }
        aliasExpansion = min(aliasExpansion + nodes[target].weight, YAMLLimits.maxAliasExpansion + 1)
        if aliasExpansion > YAMLLimits.maxAliasExpansion {
            dropDocument(Diagnostic(
                .resourceLimit, at: range(start, end),
                "aliases in this file expand to more than \(YAMLLimits.maxAliasExpansion) nodes",
                help: "this looks like an alias bomb; expand fewer aliases"
            ))
            attachPlaceholder(start, end)
            return true
        }
        // The copy is one node, whatever the target holds: a collection's copy
        // shares its children. It says where the alias was written, so a
        // problem with the node as used (a mapping where an amount belongs, a
        // duplicate key) is reported there, with a note at the anchor.
        var copy = nodes[target]
        copy.start = start
        copy.end = end
        let id = store(copy, anchor: nil)
        aliases.append((id, target))
        attach(id)
        return true
    }

    /// A null in place of what a dropped document cannot keep.
    private mutating func attachPlaceholder(_ start: SourcePosition, _ end: SourcePosition) {
        attach(store(YAMLNode(kind: .scalar, style: .plain, tag: -1, isNull: true, start: start, end: end), anchor: nil))
    }

    /// Past the depth bound the whole rest of the file is abandoned, not just
    /// the document: skipping to the document's end would mean reading every
    /// deeper level, and libyaml's cost per token grows with the flow depth.
    mutating func collectionStart(_ kind: YAMLNode.Kind, anchor: String?, tag: String?, flow: Bool, start: SourcePosition) -> Bool {
        if skippingDocument && (ignoredDepth > 0 || stack.count >= YAMLLimits.maxDepth) {
            ignoredDepth += 1
            return true
        }
        if stack.count >= YAMLLimits.maxDepth {
            diagnostics.append(Diagnostic(
                .resourceLimit, at: range(start, start),
                "collections are nested more than \(YAMLLimits.maxDepth) levels deep",
                help: "the rest of this file is not read; recipe files need only a few levels"
            ))
            return false
        }
        stack.append(Open(
            node: YAMLNode(kind: kind, style: .plain, tag: storeTag(tag), start: start, end: start),
            anchor: anchor, flow: flow, firstChild: scratch.count
        ))
        return true
    }

    mutating func collectionEnd(_ end: SourcePosition) -> Bool {
        if ignoredDepth > 0 {
            ignoredDepth -= 1
            return true
        }
        close(end: end)
        return true
    }

    // MARK: Building

    /// Clears the document's state. Reusing, the arrays keep their capacity
    /// (the last document, if anyone kept it, has its own copy by then).
    private mutating func resetDocument() {
        if reuse {
            nodes.removeAll(keepingCapacity: true)
            children.removeAll(keepingCapacity: true)
            text.removeAll(keepingCapacity: true)
        } else {
            nodes = []
            children = []
            text = []
        }
        tags.removeAll(keepingCapacity: !tags.isEmpty)
        scratch.removeAll(keepingCapacity: true)
        repeats.removeAll(keepingCapacity: !repeats.isEmpty)
        aliases.removeAll(keepingCapacity: !aliases.isEmpty)
        anchors.removeAll(keepingCapacity: !anchors.isEmpty)
        stack.removeAll(keepingCapacity: true)
        ignoredDepth = 0
        hasMerges = false
        root = nil
    }

    /// Reports a problem that makes the current document unusable, and skips
    /// the rest of it.
    private mutating func dropDocument(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
        skippingDocument = true
    }

    package func range(_ start: SourcePosition, _ end: SourcePosition) -> SourceRange {
        SourceRange(file: file, start: start, end: end)
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
        scratch.removeLast(scratch.count - open.firstChild)
        attach(store(open.node, anchor: open.anchor))
    }

    private mutating func store(_ node: YAMLNode, anchor: String?) -> YAMLNode.ID {
        nodes.append(node)
        let id = nodes.count - 1
        if let anchor { anchors[anchor] = id }
        return id
    }

    /// The index `tag` gets in `tags`, or -1 for none.
    private mutating func storeTag(_ tag: String?) -> Int {
        guard let tag else { return -1 }
        tags.append(tag)
        return tags.count - 1
    }

    private mutating func attach(_ id: YAMLNode.ID) {
        if stack.isEmpty {
            root = id
        } else {
            scratch.append(id)
        }
    }
}
