import JuiceSource
@_spi(Internals) import JuiceYAML
/// Where whole entries of a file begin and end, for document symbols: from
/// the comment lines directly above a key to the end of its value, with a
/// comment trailing its last line.
///
/// The book knows each id by its key only (`WorkspaceIndex.Definition.range`),
/// which is what an editor selects. An outline wants the whole entry as the
/// symbol's `range`, so that a cursor in a body finds its symbol and folding
/// covers the body, and LSP wants every child inside its parent's range. So
/// the file is composed again here, and only the pairs whose keys were asked
/// for are looked at.
struct DeclarationExtents {
    /// Each entry asked for, by its key's start: its byte range and its key's.
    private var extents: [SourcePosition: Entry] = [:]
    /// Each top-level key named in `sections`, by name, in the order
    /// written: its key's and its entry's byte ranges.
    private(set) var sections: [String: [Entry]] = [:]

    /// An entry's bytes, and its key's.
    typealias Entry = (whole: Range<Int>, key: Range<Int>)

    /// The entries of `text` whose keys start at `keys`, and its top-level
    /// entries named in `sections`. A key that starts no pair of a complete
    /// document (in a file with a syntax error, say) has none.
    init(text: SourceText, path: String, keys: Set<SourcePosition>, sections: Set<String>) {
        guard !keys.isEmpty || !sections.isEmpty else { return }
        var composer = YAMLComposer()
        var found: [SourcePosition: Entry] = [:]
        var sectionsFound: [String: [Entry]] = [:]
        _ = composer.compose(bytes: text.utf8, file: path) { document in
            guard document.status == .complete, let root = document.root else { return }
            let aliases = Set(document.aliases.map(\.alias))
            if document[root].kind == .mapping {
                for (key, value) in document.pairs(of: root) where document[key].kind == .scalar {
                    let name = document.text(of: key)
                    guard sections.contains(name) else { continue }
                    sectionsFound[name, default: []].append(Self.entry(document, key: key, value: value, aliases: aliases, in: text))
                }
            }
            // An explicit stack: the depth is bounded, but no input recurses.
            // An alias is one place in the text, and a `<<` merge copies
            // pairs whose values are read where they are written: each
            // node is visited once.
            var stack = [root]
            var visited = Set<YAMLNode.ID>()
            while let node = stack.popLast() {
                guard !aliases.contains(node), document[node].kind != .scalar, visited.insert(node).inserted else { continue }
                guard document[node].kind == .mapping else {
                    stack += document.children(of: node)
                    continue
                }
                // A repeated key's pair is left out of the mapping, but its
                // id is still a definition the outline lists.
                var pairs = Array(document.pairs(of: node))
                for pair in document.repeats(of: node) { pairs.append((pair.key, pair.value)) }
                for (key, value) in pairs {
                    if keys.contains(document[key].start) {
                        found[document[key].start] = Self.entry(document, key: key, value: value, aliases: aliases, in: text)
                    }
                    stack.append(value)
                }
            }
        }
        extents = found
        self.sections = sectionsFound
    }

    /// The entry whose key spans `key`, or nil.
    func entry(ofKey key: SourceRange) -> Entry? {
        extents[key.start]
    }

    // MARK: Measuring

    /// An entry: its key, the comment lines directly above the key (when the
    /// key starts its line), its value, and a comment trailing the value.
    private static func entry(
        _ document: YAMLDocument, key: YAMLNode.ID, value: YAMLNode.ID, aliases: Set<YAMLNode.ID>, in text: SourceText
    ) -> Entry {
        let keyStart = text.offset(of: document[key].start)
        let known = (document[key].start, keyStart)
        let keyEnd = max(keyStart, offset(of: document[key].end, near: known, in: text))
        var end = keyEnd
        if isEmpty(document[value]) {
            if end < text.utf8.count, text.utf8[end] == UInt8(ascii: ":") { end += 1 }
        } else {
            end = valueEnd(document, value, floor: keyEnd, near: known, aliases: aliases, in: text)
        }
        return (commentsAbove(keyStart, in: text)..<trailingComment(after: end, in: text), keyStart..<keyEnd)
    }

    /// Where a value's text ends, not before `floor` (the key's end).
    ///
    /// A scalar, a flow collection and an alias end where libyaml says. A
    /// block collection's end mark is the start of the next token, past
    /// blank lines and comments that are not its own, so it ends at the last
    /// line above that mark holding more than a comment; and at least where
    /// the last scalar or alias written inside it ends, since a block
    /// scalar's lines may start with `#`.
    private static func valueEnd(
        _ document: YAMLDocument, _ value: YAMLNode.ID, floor: Int, near known: (SourcePosition, Int),
        aliases: Set<YAMLNode.ID>, in text: SourceText
    ) -> Int {
        let node = document[value]
        var latest = node.end
        var scanned = floor
        if node.kind != .scalar && !aliases.contains(value) {
            let mark = max(floor, offset(of: node.end, near: known, in: text))
            if mark == floor || (text.utf8[mark - 1] != UInt8(ascii: "}") && text.utf8[mark - 1] != UInt8(ascii: "]")) {
                scanned = lastContent(before: mark, floor: floor, in: text)
                latest = node.start
                // Down the last child written (a merged pair's lies earlier,
                // where it was written), to a scalar or an alias.
                var current = value
                while let last = document.children(of: current).filter({ !isEmpty(document[$0]) }).max(by: { document[$0].start < document[$1].start }) {
                    guard document[last].kind != .scalar && !aliases.contains(last) else {
                        latest = max(latest, document[last].end)
                        break
                    }
                    current = last
                }
            }
        }
        // A block scalar's mark lies past its line breaks.
        return max(scanned, trimmingSpace(before: max(floor, offset(of: latest, near: known, in: text)), floor: floor, in: text))
    }

    /// The offset of `position`, walked from a `known` one on its line:
    /// most of an entry (its key's end, a flow body's end) is on its key's
    /// line, and walking a few scalars costs far less than a conversion.
    private static func offset(of position: SourcePosition, near known: (SourcePosition, Int), in text: SourceText) -> Int {
        guard position.line == known.0.line, position.column >= known.0.column else { return text.offset(of: position) }
        var offset = known.1
        for _ in 0..<(position.column - known.0.column) {
            guard offset < text.utf8.count, text.utf8[offset] != 0x0A, text.utf8[offset] != 0x0D else { break }
            offset += 1
            while offset < text.utf8.count, text.utf8[offset] & 0xC0 == 0x80 { offset += 1 }
        }
        return offset
    }

    /// A value with nothing written: libyaml places it after its key's
    /// colon, or at the next token when there is no colon (`{ kiwi }`).
    private static func isEmpty(_ node: YAMLNode) -> Bool {
        node.kind == .scalar && node.isNull && node.textRange.isEmpty && !node.hasTag
    }

    /// The end of the last line before `mark` (and after `floor`) that holds
    /// more than white space and a comment.
    private static func lastContent(before mark: Int, floor: Int, in text: SourceText) -> Int {
        var end = mark
        while true {
            end = trimmingSpace(before: end, floor: floor, in: text)
            let lineStart = startOfLine(at: end, floor: floor, in: text)
            let first = text.utf8[lineStart..<end].firstIndex { $0 != 0x20 && $0 != 0x09 } ?? end
            guard first < end, text.utf8[first] == UInt8(ascii: "#"), lineStart > floor else { return end }
            end = lineStart
        }
    }

    /// The first offset of the comment lines directly above the key at
    /// `keyStart`, each no more indented than the key (a deeper one belongs
    /// to the body above it); the key's own start when there are none or
    /// the key does not start its line. Lines are found by their breaks, not
    /// converted, as `lastContent` does.
    private static func commentsAbove(_ keyStart: Int, in text: SourceText) -> Int {
        var lineStart = startOfLine(at: keyStart, floor: 0, in: text)
        guard text.utf8[lineStart..<keyStart].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { return keyStart }
        let indentation = keyStart - lineStart
        var start = keyStart
        while lineStart > 0 {
            // The line above: back over its break (CR LF is one), then to its start.
            var end = lineStart - 1
            if text.utf8[end] == 0x0A, end > 0, text.utf8[end - 1] == 0x0D { end -= 1 }
            lineStart = startOfLine(at: end, floor: 0, in: text)
            let first = text.utf8[lineStart..<end].firstIndex { $0 != 0x20 && $0 != 0x09 }
            guard let first, text.utf8[first] == UInt8(ascii: "#"), first - lineStart <= indentation else { break }
            start = first
        }
        return start
    }

    /// `end`, or the end of the comment that follows it on its line.
    private static func trailingComment(after end: Int, in text: SourceText) -> Int {
        let rest = text.utf8[end...].prefix { $0 != 0x0A && $0 != 0x0D }
        // YAML reads `#` as a comment only after white space.
        guard let first = rest.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }), first > end, text.utf8[first] == UInt8(ascii: "#")
        else { return end }
        return trimmingSpace(before: rest.endIndex, floor: first, in: text)
    }

    /// `offset` moved back over spaces, tabs and line breaks, not past `floor`.
    private static func trimmingSpace(before offset: Int, floor: Int, in text: SourceText) -> Int {
        var end = offset
        while end > floor, [0x20, 0x09, 0x0A, 0x0D].contains(text.utf8[end - 1]) { end -= 1 }
        return end
    }

    /// The start of the line holding the byte before `offset` (a line break
    /// ends the line before it), not before `floor`.
    private static func startOfLine(at offset: Int, floor: Int, in text: SourceText) -> Int {
        var start = offset
        while start > floor, text.utf8[start - 1] != 0x0A, text.utf8[start - 1] != 0x0D { start -= 1 }
        return start
    }
}
