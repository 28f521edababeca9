@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics
/// One YAML node with its position, stored in a `YAMLDocument`'s arena.
///
/// Nodes refer to their children by index into the document's one `children`
/// array, so a document costs a few flat arrays rather than an allocation per
/// collection, and an alias is one node that shares the anchored node's
/// children: nothing under it is copied, and an alias bomb costs no memory.
/// The alias's node carries the alias's own position, so a problem with it
/// is reported where it was used (`YAMLDocument.anchor(of:)` finds the anchor).
@_spi(Internals) public struct YAMLNode: Sendable {
    public typealias ID = Int

    public enum Kind: Sendable, Hashable {
        case scalar
        case sequence
        case mapping
    }

    public enum ScalarStyle: Sendable, Hashable {
        case plain
        case singleQuoted
        case doubleQuoted
        case literal
        case folded
    }

    // Plain data, no references: a node's text and tag live in the
    // document (`YAMLDocument.text(of:)`, `tag(of:)`), so copying a node,
    // storing it and clearing the arena retain and release nothing, and a
    // scalar costs a copy of its bytes rather than a validated `String`.
    // Counts are 32 bits: a file is at most 64 MiB, so no index or count
    // comes near 2^31. 44 bytes a node; it was 64 with two strings. Kept for
    // its figure: with `Int` fields, lint-deep peaked at 90.9 MB against
    // 81.0 (+12%) and the 20,000-fruit book at 58.2 against 52.5 (+11%),
    // medians of 5 (docs/benchmarks.md); instructions +0.5%.

    public var start: SourcePosition
    public var end: SourcePosition
    /// Where the scalar's UTF-8 sits in the document's `text`; empty for collections.
    @usableFromInline var storedTextStart: Int32 = 0
    @usableFromInline var storedTextCount: Int32 = 0
    @usableFromInline var storedChildStart: Int32 = 0
    @usableFromInline var storedChildCount: Int32 = 0
    private var storedWeight: Int32 = 1
    /// Index into the document's `tags`, or -1 when no tag was written.
    private var storedTag: Int32 = -1
    public let kind: Kind
    public let style: ScalarStyle
    /// True for an untagged plain scalar that YAML reads as null: empty, `~`
    /// or `null`. Judged once, from the text, when the node is made.
    public let isNull: Bool

    /// A collection, or a scalar whose text is `text` in the document's
    /// `text` and whose tag is `tag` in its `tags` (-1: none).
    init(kind: Kind, style: ScalarStyle, text: Range<Int> = 0..<0, tag: Int, isNull: Bool = false,
         start: SourcePosition, end: SourcePosition) {
        self.kind = kind
        self.style = style
        self.isNull = isNull
        self.start = start
        self.end = end
        storedTextStart = Int32(clamping: text.lowerBound)
        storedTextCount = Int32(clamping: text.count)
        storedTag = Int32(clamping: tag)
    }

    /// Where the scalar's UTF-8 sits in `YAMLDocument`'s text arena.
    @inlinable public var textRange: Range<Int> {
        let start = Int(storedTextStart)
        return start..<start + Int(storedTextCount)
    }

    /// Whether a tag was written (`YAMLDocument.tag(of:)` gives it).
    public var hasTag: Bool { storedTag >= 0 }

    var tagIndex: Int { Int(storedTag) }

    /// Whether scalar text reads as YAML's null when plain and untagged.
    static func isNullText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch bytes.count {
        case 0: return true
        case 1: return bytes[0] == UInt8(ascii: "~")
        case 4:
            let word = (bytes[0], bytes[1], bytes[2], bytes[3])
            return word == (0x6E, 0x75, 0x6C, 0x6C) || word == (0x4E, 0x75, 0x6C, 0x6C) || word == (0x4E, 0x55, 0x4C, 0x4C)
        default: return false
        }
    }

    /// Where this node's children start in `YAMLDocument.children`, and how
    /// many there are. For a mapping, keys and values alternate, with `<<`
    /// merges already applied and later duplicate keys dropped.
    @inlinable public var childStart: Int {
        get { Int(storedChildStart) }
        set { storedChildStart = Int32(clamping: newValue) }
    }

    @inlinable public var childCount: Int {
        get { Int(storedChildCount) }
        set { storedChildCount = Int32(clamping: newValue) }
    }

    /// How many nodes this node stands for once every alias inside is expanded,
    /// saturating just past `YAMLLimits.maxAliasExpansion`.
    var weight: Int {
        get { Int(storedWeight) }
        set { storedWeight = Int32(clamping: newValue) }
    }

    /// A human name for the kind, for messages such as "expected a mapping, found a sequence".
    public var kindDescription: String {
        switch kind {
        case .scalar: return isNull ? "null" : "a scalar"
        case .sequence: return "a sequence"
        case .mapping: return "a mapping"
        }
    }
}

/// One YAML document of a file: the node arena, the children of every
/// collection in one array, and the root.
@_spi(Internals) public struct YAMLDocument: Sendable, YAMLNodeStore {
    /// Whether a document counts. One that does not is still handed on, so
    /// later stages can tell what it meant to declare and not report that as
    /// missing: the problem that dropped it is the one to report.
    public enum Status: Sendable, Hashable {
        /// Read completely, with nothing that drops it.
        case complete
        /// Read to its end, but an undefined alias, an alias bomb or an
        /// oversized scalar drops it; each of those stands as a null here.
        case dropped
        /// What was read before a syntax error or the depth bound stopped the
        /// file: the rest of it, whatever it held, is unknown.
        case cutShort
    }

    /// A key/value pair a mapping dropped because its key repeats an earlier
    /// one (`first`). The composer reports the repeat; the pair is kept here so
    /// its value can still be checked, as if it stood alone.
    public struct Repeat: Sendable {
        public var mapping: YAMLNode.ID
        public var key: YAMLNode.ID
        public var value: YAMLNode.ID
        public var first: YAMLNode.ID
    }

    let file: String
    public let nodes: [YAMLNode]
    public let children: [YAMLNode.ID]
    /// Every scalar's UTF-8, one after another (`YAMLNode.textRange`).
    /// libyaml has checked that the file is valid UTF-8, so a scalar's bytes are too.
    public let text: [UInt8]
    /// Every tag written, in the order met (`YAMLNode.tagIndex`).
    public let tags: [String]
    /// Nil for a document with no content.
    public let root: YAMLNode.ID?
    public var status: Status = .complete
    /// Every repeated pair, sorted by mapping; empty in a document with none.
    public var repeats: [Repeat] = []
    /// Each alias node and the anchored node it stands for, sorted by alias:
    /// consulted only to place a note at the anchor.
    public var aliases: [(alias: YAMLNode.ID, anchor: YAMLNode.ID)] = []
    /// Whether any mapping had a `<<` merge key.
    public var hasMerges = false

    @inlinable public subscript(id: YAMLNode.ID) -> YAMLNode { nodes[id] }

    /// The span of a node in its file.
    public func range(of id: YAMLNode.ID) -> SourceRange {
        SourceRange(file: file, start: nodes[id].start, end: nodes[id].end)
    }

    /// The pairs `mapping` dropped as repeats, in the order written.
    public func repeats(of mapping: YAMLNode.ID) -> ArraySlice<Repeat> {
        if repeats.isEmpty { return [] }
        var low = 0, high = repeats.count
        while low < high {
            let middle = low + (high - low) / 2
            if repeats[middle].mapping < mapping { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < repeats.count && repeats[end].mapping == mapping { end += 1 }
        return repeats[low..<end]
    }

    /// The anchored node `id` stands for, when `id` was written as an alias.
    public func anchor(of id: YAMLNode.ID) -> YAMLNode.ID? {
        if aliases.isEmpty { return nil }
        var low = 0, high = aliases.count
        while low < high {
            let middle = low + (high - low) / 2
            if aliases[middle].alias < id { low = middle + 1 } else { high = middle }
        }
        return low < aliases.count && aliases[low].alias == id ? aliases[low].anchor : nil
    }

    /// A note at the anchor for a diagnostic about `id`, when `id` is an
    /// alias: the diagnostic is placed at the alias, where the node was used,
    /// and the note shows what the alias stands for.
    public func aliasNotes(for id: YAMLNode.ID) -> [Diagnostic.Note] {
        guard let anchor = anchor(of: id) else { return [] }
        return [.init(range: range(of: anchor), message: "the alias stands for the node anchored here")]
    }

    /// The children of a collection, in order.
    @inlinable public func children(of id: YAMLNode.ID) -> ArraySlice<YAMLNode.ID> {
        let node = nodes[id]
        return children[node.childStart..<node.childStart + node.childCount]
    }

    /// The key/value pairs of a mapping node, in order.
    @inlinable public func pairs(of id: YAMLNode.ID) -> Pairs {
        Pairs(children: children(of: id))
    }

    /// A mapping's pairs without building an array of them.
    public struct Pairs: Sequence, IteratorProtocol {
        public let children: ArraySlice<YAMLNode.ID>
        @usableFromInline var index: Int

        @inlinable init(children: ArraySlice<YAMLNode.ID>) {
            self.children = children
            index = children.startIndex
        }

        @inlinable mutating public func next() -> (key: YAMLNode.ID, value: YAMLNode.ID)? {
            guard index + 1 < children.endIndex else { return nil }
            defer { index += 2 }
            return (children[index], children[index + 1])
        }
    }
}

/// The safety bounds of the YAML layer. Each is enforced with a `resource-limit`
/// diagnostic, never a crash.
@_spi(Internals) public enum YAMLLimits {
    /// Collections nested deeper than this end the file's reading. A recipe
    /// needs four levels; libyaml's work per token grows with the flow depth,
    /// so a generous bound still has to be a small one.
    public static let maxDepth = 64
    /// The nodes that all aliases in one file may stand for, together. Counted
    /// per file, not per document, so many small documents cannot multiply it.
    static let maxAliasExpansion = 1_000_000
    /// The longest key or value, in UTF-8 bytes. Ids, labels and amounts are
    /// short; a scalar this long is a pasted blob or an attack, and every later
    /// stage (suggestions, snippets, output) would pay for it.
    static let maxScalarBytes = 65_536
}

/// Nodes with their scalar text and tags kept beside them, as bytes: the
/// document once composed, and the composer while it builds one. Their one
/// way to read a node's text.
@_spi(Internals) public protocol YAMLNodeStore {
    var nodes: [YAMLNode] { get }
    /// Every scalar's UTF-8, one after another (`YAMLNode.textRange`).
    var text: [UInt8] { get }
    var tags: [String] { get }
}

extension YAMLNodeStore {
    /// A scalar's text; empty for a collection.
    @inlinable @_spi(Internals) public func text(of id: YAMLNode.ID) -> String {
        withText(of: id) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with a scalar's UTF-8 in place; empty for a collection.
    @inlinable @_spi(Internals) public func withText<Result>(of id: YAMLNode.ID, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let range = nodes[id].textRange
        return text.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Whether node `id` is a scalar whose text is `other`, compared as
    /// bytes, without making a `String` of the node's text.
    @inlinable @_spi(Internals) public func hasText(_ id: YAMLNode.ID, _ other: StaticString) -> Bool {
        guard nodes[id].kind == .scalar, nodes[id].textRange.count == other.utf8CodeUnitCount else { return false }
        return withText(of: id) { RawBytes.same($0, UnsafeBufferPointer(start: other.utf8Start, count: other.utf8CodeUnitCount)) }
    }

    /// `hasText` for text known only at run time. (Named apart: with one
    /// name, a string literal would pick this, the slower one.)
    @_spi(Internals) public func hasText(_ id: YAMLNode.ID, equalTo other: String) -> Bool {
        guard nodes[id].kind == .scalar else { return false }
        var other = other
        return other.withUTF8 { wanted in withText(of: id) { RawBytes.same($0, wanted) } }
    }

    /// Whether two nodes have the same text (two collections both have none).
    func sameText(_ one: YAMLNode.ID, _ other: YAMLNode.ID) -> Bool {
        let first = nodes[one].textRange, second = nodes[other].textRange
        guard first.count == second.count else { return false }
        return text.withUnsafeBufferPointer {
            RawBytes.same(UnsafeBufferPointer(rebasing: $0[first]), UnsafeBufferPointer(rebasing: $0[second]))
        }
    }

    /// The standard library's seeded hash of a node's text.
    func textHash(of id: YAMLNode.ID) -> Int {
        var hasher = Hasher()
        withText(of: id) { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        return hasher.finalize()
    }

    /// Whether node `id` is a merge key: a scalar `<<` plain and untagged,
    /// or any scalar tagged `!!merge`, as PyYAML and ruamel read them.
    @_spi(Internals) public func isMergeKey(_ id: YAMLNode.ID) -> Bool {
        let node = nodes[id]
        guard node.kind == .scalar else { return false }
        if node.hasTag { return tag(of: id) == "tag:yaml.org,2002:merge" }
        return node.style == .plain && hasText(id, "<<")
    }

    /// The tag written on node `id`, resolved (`!!int` reads `tag:yaml.org,2002:int`).
    @_spi(Internals) public func tag(of id: YAMLNode.ID) -> String? {
        let index = nodes[id].tagIndex
        return index >= 0 ? tags[index] : nil
    }
}
