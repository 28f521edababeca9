/// One YAML node with its position, stored in a `YAMLDocument`'s arena.
///
/// Nodes refer to their children by index, so an alias of a collection is just a
/// second reference to the anchored node: no copy, and an alias bomb costs no
/// memory. (An alias of a scalar is copied, to carry the alias's own position.)
public struct YAMLNode: Sendable {
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

    public let kind: Kind
    /// The scalar's text; empty for collections.
    public let value: String
    public let style: ScalarStyle
    /// The resolved tag when one was written (`!!int` arrives as `tag:yaml.org,2002:int`).
    public let tag: String?
    public internal(set) var start: SourcePosition
    public internal(set) var end: SourcePosition
    /// Sequence items in order; for a mapping, keys and values alternate, with
    /// `<<` merges already applied and later duplicate keys dropped.
    public internal(set) var children: [ID]
    /// How many nodes this node stands for once every alias inside is expanded,
    /// saturating at `YAMLLimits.maxAliasExpansion`.
    var weight: Int

    /// True for an untagged plain scalar that YAML reads as null: empty, `~` or `null`.
    public var isNull: Bool {
        kind == .scalar && style == .plain && tag == nil
            && (value.isEmpty || value == "~" || value == "null" || value == "Null" || value == "NULL")
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

/// One YAML document of a file: the node arena and its root.
public struct YAMLDocument: Sendable {
    public let file: String
    public let nodes: [YAMLNode]
    /// Nil for a document with no content.
    public let root: YAMLNode.ID?

    public subscript(id: YAMLNode.ID) -> YAMLNode { nodes[id] }

    /// The span of a node in its file.
    public func range(of id: YAMLNode.ID) -> SourceRange {
        SourceRange(file: file, start: nodes[id].start, end: nodes[id].end)
    }

    /// The key/value pairs of a mapping node, in order.
    public func pairs(of id: YAMLNode.ID) -> [(key: YAMLNode.ID, value: YAMLNode.ID)] {
        let children = nodes[id].children
        return stride(from: 0, to: children.count - 1, by: 2).map { (children[$0], children[$0 + 1]) }
    }
}

/// The safety bounds of the YAML layer. Each is enforced with a `resource-limit`
/// diagnostic, never a crash.
public enum YAMLLimits {
    /// Collections nested deeper than this end the file's parse.
    public static let maxDepth = 256
    /// The nodes that all aliases in one document may stand for, together.
    public static let maxAliasExpansion = 1_000_000
}
