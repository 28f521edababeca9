/// One YAML node with its position, stored in a `YAMLDocument`'s arena.
///
/// Nodes refer to their children by index into the document's one `children`
/// array, so a document costs a few flat arrays rather than an allocation per
/// collection, and an alias of a collection is just a second reference to the
/// anchored node: no copy, and an alias bomb costs no memory. (An alias of a
/// scalar is copied, to carry the alias's own position.)
struct YAMLNode: Sendable {
    typealias ID = Int

    enum Kind: Sendable, Hashable {
        case scalar
        case sequence
        case mapping
    }

    enum ScalarStyle: Sendable, Hashable {
        case plain
        case singleQuoted
        case doubleQuoted
        case literal
        case folded
    }

    // Stored largest first and counts in 32 bits (a file is at most 64 MiB,
    // so no index or count comes near 2^31): 64 bytes a node instead of 88.

    /// The scalar's text; empty for collections.
    let value: String
    /// The resolved tag when one was written (`!!int` arrives as `tag:yaml.org,2002:int`).
    let tag: String?
    var start: SourcePosition
    var end: SourcePosition
    private var storedChildStart: Int32 = 0
    private var storedChildCount: Int32 = 0
    private var storedWeight: Int32 = 1
    let kind: Kind
    let style: ScalarStyle

    init(kind: Kind, value: String, style: ScalarStyle, tag: String?, start: SourcePosition, end: SourcePosition) {
        self.kind = kind
        self.value = value
        self.style = style
        self.tag = tag
        self.start = start
        self.end = end
    }

    /// Where this node's children start in `YAMLDocument.children`, and how
    /// many there are. For a mapping, keys and values alternate, with `<<`
    /// merges already applied and later duplicate keys dropped.
    var childStart: Int {
        get { Int(storedChildStart) }
        set { storedChildStart = Int32(clamping: newValue) }
    }

    var childCount: Int {
        get { Int(storedChildCount) }
        set { storedChildCount = Int32(clamping: newValue) }
    }

    /// How many nodes this node stands for once every alias inside is expanded,
    /// saturating just past `YAMLLimits.maxAliasExpansion`.
    var weight: Int {
        get { Int(storedWeight) }
        set { storedWeight = Int32(clamping: newValue) }
    }

    /// True for an untagged plain scalar that YAML reads as null: empty, `~` or `null`.
    var isNull: Bool {
        kind == .scalar && style == .plain && tag == nil
            && (value.isEmpty || value == "~" || value == "null" || value == "Null" || value == "NULL")
    }

    /// A human name for the kind, for messages such as "expected a mapping, found a sequence".
    var kindDescription: String {
        switch kind {
        case .scalar: return isNull ? "null" : "a scalar"
        case .sequence: return "a sequence"
        case .mapping: return "a mapping"
        }
    }
}

/// One YAML document of a file: the node arena, the children of every
/// collection in one array, and the root.
struct YAMLDocument: Sendable {
    let file: String
    let nodes: [YAMLNode]
    let children: [YAMLNode.ID]
    /// Nil for a document with no content.
    let root: YAMLNode.ID?

    subscript(id: YAMLNode.ID) -> YAMLNode { nodes[id] }

    /// The span of a node in its file.
    func range(of id: YAMLNode.ID) -> SourceRange {
        SourceRange(file: file, start: nodes[id].start, end: nodes[id].end)
    }

    /// The children of a collection, in order.
    func children(of id: YAMLNode.ID) -> ArraySlice<YAMLNode.ID> {
        let node = nodes[id]
        return children[node.childStart..<node.childStart + node.childCount]
    }

    /// The key/value pairs of a mapping node, in order.
    func pairs(of id: YAMLNode.ID) -> Pairs {
        Pairs(children: children(of: id))
    }

    /// A mapping's pairs without building an array of them.
    struct Pairs: Sequence, IteratorProtocol {
        let children: ArraySlice<YAMLNode.ID>
        private var index: Int

        init(children: ArraySlice<YAMLNode.ID>) {
            self.children = children
            index = children.startIndex
        }

        mutating func next() -> (key: YAMLNode.ID, value: YAMLNode.ID)? {
            guard index + 1 < children.endIndex else { return nil }
            defer { index += 2 }
            return (children[index], children[index + 1])
        }
    }
}

/// The safety bounds of the YAML layer. Each is enforced with a `resource-limit`
/// diagnostic, never a crash.
enum YAMLLimits {
    /// Collections nested deeper than this end the file's reading. A recipe
    /// needs four levels; libyaml's work per token grows with the flow depth,
    /// so a generous bound still has to be a small one.
    static let maxDepth = 64
    /// The nodes that all aliases in one file may stand for, together. Counted
    /// per file, not per document, so many small documents cannot multiply it.
    static let maxAliasExpansion = 1_000_000
    /// The longest key or value, in UTF-8 bytes. Ids, labels and amounts are
    /// short; a scalar this long is a pasted blob or an attack, and every later
    /// stage (suggestions, snippets, output) would pay for it.
    static let maxScalarBytes = 65_536
}
