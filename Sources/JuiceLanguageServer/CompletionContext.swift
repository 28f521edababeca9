import JuiceSource
/// Where the cursor is in a recipe file, read from the text around it.
///
/// Completion is asked for while a line is half typed, when the file is
/// often not valid YAML, so this reads the text itself rather than the
/// parsed nodes: the keys of the lines above with less indentation (block
/// style), then the keys that own each `{` still open on the cursor's line
/// (flow style). It also finds the keys already written beside the cursor,
/// so completion can leave them out.
struct CompletionContext: Equatable {
    /// The keys from the document's root down to the mapping the cursor is
    /// in: `["menu", "kiwi-juice", "recipe"]`.
    var path: [String]
    /// True when the cursor is where a key goes, not a value.
    var atKey: Bool
    /// The keys already in the cursor's mapping, the one being typed aside.
    var siblings: Set<String>
    /// What is typed of the key so far.
    var partial: String

    /// A context as given.
    init(path: [String], atKey: Bool, siblings: Set<String>, partial: String) {
        self.path = path
        self.atKey = atKey
        self.siblings = siblings
        self.partial = partial
    }

    /// The context at byte `offset` of `text`, or nil where nothing can be
    /// completed (inside a comment, a quoted string or a value).
    init?(text: SourceText, offset: Int) {
        let (line, _) = text.lspPosition(atOffset: offset, units: .utf8)
        guard let lineRange = text.lspLine(line) else { return nil }
        let before = Array(text.utf8[lineRange.lowerBound..<min(offset, lineRange.upperBound)])
        let after = Array(text.utf8[min(offset, lineRange.upperBound)..<lineRange.upperBound])

        // Flow collections still open on this line, each with the key it is
        // the value of, and the keys of the innermost one's entries.
        var open: [(key: String?, isMapping: Bool)] = []
        var entries: [[UInt8]] = [[]]
        // The entries of each collection a nested one interrupted: after
        // `recipe: { mango: 3 }, ` the long form's `recipe` is still a
        // sibling of what comes next.
        var outerEntries: [[[UInt8]]] = []
        var lineKey: String?
        var current: [UInt8] = []
        // Whether `current` has a `:`, and whether it was read for the line's
        // key since: the text before its first `:` no longer changes, so
        // reading it again for every byte would make a long line quadratic.
        var currentHasColon = false
        var currentKeyRead = false
        var quote: UInt8?
        for byte in before {
            if let open = quote {
                current.append(byte)
                if byte == UInt8(ascii: ":") { currentHasColon = true }
                if byte == open { quote = nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "#") where current.isEmpty || current.last == 0x20:
                return nil
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                quote = byte
                current.append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                open.append((Self.key(of: current) ?? (open.isEmpty ? lineKey : nil), byte == UInt8(ascii: "{")))
                if open.count == 1, lineKey == nil { lineKey = Self.key(of: current) }
                outerEntries.append(entries)
                entries = [[]]
                current = []
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = open.popLast()
                entries = outerEntries.popLast() ?? [[]]
                current = []
            case UInt8(ascii: ","):
                entries.append([])
                current = []
            default:
                current.append(byte)
                if !open.isEmpty { entries[entries.count - 1].append(byte) }
            }
            if current.isEmpty {
                currentHasColon = false
                currentKeyRead = false
            } else if byte == UInt8(ascii: ":") {
                currentHasColon = true
            }
            if open.isEmpty, lineKey == nil, currentHasColon, !currentKeyRead {
                currentKeyRead = true
                lineKey = Self.key(of: current)
            }
        }
        guard quote == nil else { return nil }

        let indentation = before.prefix { $0 == 0x20 }.count
        var path = Self.ancestors(of: line, indentation: indentation, in: text)
        let typed = String(decoding: current, as: UTF8.self)
        if let innermost = open.last {
            // `recipe: { a: 1, b` : the keys owning each `{`, then the entry typed.
            guard innermost.isMapping else { return nil }
            path += open.compactMap(\.key)
            atKey = !typed.contains(":")
            var siblings = Set(entries.dropLast().compactMap { Self.key(of: $0) })
            // Entries after the cursor, up to this mapping's `}`.
            var depth = 0
            var entry: [UInt8] = []
            for byte in after {
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") { depth += 1 }
                if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    if depth == 0 { break }
                    depth -= 1
                }
                if byte == UInt8(ascii: ","), depth == 0 {
                    if let key = Self.key(of: entry) { siblings.insert(key) }
                    entry = []
                } else {
                    entry.append(byte)
                }
            }
            if let key = Self.key(of: entry) { siblings.insert(key) }
            self.siblings = siblings
        } else {
            let trimmed = typed.drop { $0 == " " }
            atKey = !trimmed.contains(":")
            siblings = Self.blockSiblings(of: line, indentation: indentation, in: text)
        }
        self.path = path
        var word = typed.drop { $0 == " " || $0 == "-" }
        if let first = word.first, first == "'" || first == "\"" { word = word.dropFirst() }
        partial = atKey ? String(word) : ""
    }

    /// A written key's text: what comes before its `:`, unquoted, trimmed;
    /// nil when there is no `:` yet or nothing before it.
    static func key(of bytes: [UInt8]) -> String? {
        var text = Substring(String(decoding: bytes, as: UTF8.self))
        guard let colon = text.firstIndex(of: ":") else { return nil }
        text = text[..<colon]
        text = text.drop { $0 == " " || $0 == "\t" }
        if text.hasPrefix("- ") { text = text.dropFirst(2).drop { $0 == " " } }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        if text.count >= 2, let first = text.first, first == "'" || first == "\"", text.last == first {
            text = text.dropFirst().dropLast()
        }
        return text.isEmpty ? nil : String(text)
    }

    /// The keys of the lines above `line` with less indentation each, from
    /// the root: the block mappings the cursor is in. A document marker
    /// (`---`) ends the search.
    private static func ancestors(of line: Int, indentation: Int, in text: SourceText) -> [String] {
        var path: [String] = []
        var threshold = indentation
        var number = line - 1
        while threshold > 0, number >= 0, let range = text.lspLine(number) {
            number -= 1
            let bytes = Array(text.utf8[range])
            let leading = bytes.prefix { $0 == 0x20 }.count
            guard leading < bytes.count, bytes[leading] != UInt8(ascii: "#") else { continue }
            if leading == 0, bytes.starts(with: Array("---".utf8)) || bytes.starts(with: Array("...".utf8)) { break }
            guard leading < threshold, let key = key(of: bytes) else { continue }
            path.insert(key, at: 0)
            threshold = leading
        }
        return path
    }

    /// The keys of the lines at `indentation` in the block mapping around
    /// `line`, above and below it.
    private static func blockSiblings(of line: Int, indentation: Int, in text: SourceText) -> Set<String> {
        var keys = Set<String>()
        for step in [-1, 1] {
            var number = line + step
            while number >= 0, let range = text.lspLine(number) {
                number += step
                let bytes = Array(text.utf8[range])
                let leading = bytes.prefix { $0 == 0x20 }.count
                guard leading < bytes.count, bytes[leading] != UInt8(ascii: "#") else { continue }
                if leading == 0, bytes.starts(with: Array("---".utf8)) || bytes.starts(with: Array("...".utf8)) { break }
                if leading < indentation { break }
                if leading == indentation, let key = key(of: bytes) { keys.insert(key) }
            }
        }
        return keys
    }

    // MARK: The file's version

    /// The keys a `version: 1` file may not use: a copy of
    /// `DeclarationCollector.versionTwoKeys`, which JuiceBook keeps internal
    /// (`LanguageServerEditorTests` holds the two equal).
    static let versionTwoKeys: Set<String> = ["cost", "pack", "yield", "keeps", "restock", "substitutes"]

    /// Whether the file may use version 2, read from its text as completion
    /// reads everything (the file is often half typed, so not valid YAML):
    /// true unless a top-level `version:` line says a plain `1`, which is how
    /// `DeclarationCollector` reads it. The last such line counts, as there.
    static func allowsVersionTwo(_ text: SourceText) -> Bool {
        var versionOne = false
        for line in 0..<text.lspLineStarts.count {
            guard let range = text.lspLine(line), text.utf8[range].starts(with: "version:".utf8) else { continue }
            var value = text.utf8[range].dropFirst("version:".utf8.count)
            if let comment = value.firstIndex(of: UInt8(ascii: "#")) { value = value[..<comment] }
            let trimmed = value.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }
            versionOne = trimmed.elementsEqual([UInt8(ascii: "1")])
        }
        return !versionOne
    }
}
