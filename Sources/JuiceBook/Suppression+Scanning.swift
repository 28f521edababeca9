import JuiceSource
import JuiceDiagnostics
@_spi(Internals) import JuiceYAML
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a file's suppression comments, once per unit: the comments are
/// part of what a file says, so the book keeps them with its declarations,
/// and the lint layer applies them (`Suppression+Applying.swift`).
extension Suppression {
    /// Every suppression comment in a file.
    public static func scan(_ file: SourceFile) -> [Suppression] {
        // Most files have no suppression; don't decode them line by line.
        guard file.bytes.containsJuiceLintMarker else { return [] }
        var found: [Suppression] = []
        let lines = SourceLines(bytes: file.bytes)
        for number in stride(from: 1, through: lines.count, by: 1) {
            guard let line = lines[line: number],
                  let suppression = parse(Array(line.unicodeScalars), line: number, isLast: number == lines.count, file: file.path)
            else { continue }
            found.append(suppression)
        }
        if !found.isEmpty { CommentCheck.dropRemovalsInsideScalars(&found, bytes: file.bytes) }
        return found
    }

    /// Reads the suppression on one line; `removal` is set as if the `#`
    /// started a comment, for `CommentCheck` to confirm.
    private static func parse(_ scalars: [Unicode.Scalar], line: Int, isLast: Bool, file: String) -> Suppression? {
        guard var suppression = parseDirective(scalars, line: line, file: file) else { return nil }
        // Columns are 1-based: the blank before column `start` is scalars[start - 2].
        var start = suppression.removal?.start.column ?? 1
        while start > 1, start - 2 < scalars.count, scalars[start - 2] == " " || scalars[start - 2] == "\t" { start -= 1 }
        let lineEnd = SourcePosition(line: line, column: scalars.count + 1)
        // Alone on its line, the comment goes with the line and its break
        // (the last line has none to take).
        let end = start == 1 && !isLast ? SourcePosition(line: line + 1, column: 1) : lineEnd
        suppression.removal = SourceRange(file: file, start: SourcePosition(line: line, column: start), end: end)
        return suppression
    }

    /// The directive and names after a `# juice-lint`; `removal` holds just
    /// where the `#` stands.
    private static func parseDirective(_ scalars: [Unicode.Scalar], line: Int, file: String) -> Suppression? {
        let marker = Array("juice-lint".unicodeScalars)
        var index = 0
        while index < scalars.count {
            defer { index += 1 }
            guard scalars[index] == "#", index == 0 || scalars[index - 1].properties.isWhitespace else { continue }
            var cursor = index + 1
            while cursor < scalars.count, scalars[cursor] == " " || scalars[cursor] == "\t" { cursor += 1 }
            guard cursor + marker.count < scalars.count,
                  Array(scalars[cursor..<cursor + marker.count]) == marker,
                  scalars[cursor + marker.count] == " " || scalars[cursor + marker.count] == "\t"
            else { continue }
            cursor += marker.count
            let words = Self.words(scalars, from: cursor, line: line, file: file)
            guard let directive = words.first else { continue }
            let hash = SourcePosition(line: line, column: index + 1)
            let comment = SourceRange(file: file, start: hash, end: hash)
            let scope: Scope
            switch directive.name {
            case "disable-line": scope = .line(line)
            case "disable-next-line": scope = .line(line + 1)
            case "disable-file": scope = .file
            default:
                return Suppression(
                    scope: .line(line), file: file, entries: [], range: directive.range, unknownDirective: directive.name, removal: comment
                )
            }
            return Suppression(
                scope: scope, file: file, entries: Array(words.dropFirst()), range: directive.range, unknownDirective: nil, removal: comment
            )
        }
        return nil
    }

    /// The words after `juice-lint`, split at spaces and commas, up to another `#`.
    private static func words(_ scalars: [Unicode.Scalar], from start: Int, line: Int, file: String) -> [Entry] {
        var entries: [Entry] = []
        var current = ""
        var wordStart = 0
        func finish(at end: Int) {
            guard !current.isEmpty else { return }
            entries.append(Entry(name: current, range: SourceRange(
                file: file, start: SourcePosition(line: line, column: wordStart + 1), end: SourcePosition(line: line, column: end + 1)
            )))
            current = ""
        }
        var index = start
        while index < scalars.count, scalars[index] != "#" {
            let scalar = scalars[index]
            if scalar == " " || scalar == "\t" || scalar == "," {
                finish(at: index)
            } else {
                if current.isEmpty { wordStart = index }
                current.unicodeScalars.append(scalar)
            }
            index += 1
        }
        finish(at: index)
        return entries
    }
}

extension Array where Element == UInt8 {
    /// Whether the bytes contain `juice-lint` anywhere (in UTF-8; a UTF-16 file
    /// is always scanned, since its bytes never match).
    var containsJuiceLintMarker: Bool {
        if count >= 2, (self[0] == 0xFF && self[1] == 0xFE) || (self[0] == 0xFE && self[1] == 0xFF) { return true }
        let marker = Array("juice-lint".utf8)
        return withUnsafeBufferPointer { bytes in
            guard bytes.count >= marker.count else { return false }
            var index = 0
            let last = bytes.count - marker.count
            while index <= last {
                // memchr-style skip to the next 'j'.
                guard let base = bytes.baseAddress,
                      let found = memchr(base + index, Int32(marker[0]), last - index + 1)
                else { return false }
                let position = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if memcmp(base + position, marker, marker.count) == 0 { return true }
                index = position + 1
            }
            return false
        }
    }
}


/// Whether each suppression's `#` really starts a YAML comment: libyaml
/// drops comments, so a `#` is taken for one unless some scalar's span
/// covers the text a removal would take (a quoted string, a block scalar).
/// A file libyaml cannot read to the end, or nests past the depth bound, is
/// not judged, and none of its suppressions gets a removal.
enum CommentCheck {
    static func dropRemovalsInsideScalars(_ suppressions: inout [Suppression], bytes: [UInt8]) {
        let judged = suppressions.indices.filter { suppressions[$0].removal != nil }
        var spans = ScalarOverlap(removals: judged.compactMap { suppressions[$0].removal })
        do {
            try YAMLParser.parse(bytes, into: &spans)
        } catch {
            spans.complete = false
        }
        for (position, index) in judged.enumerated() where !spans.complete || spans.covered[position] {
            suppressions[index].removal = nil
        }
    }

    /// Marks the removals any scalar overlaps. Removals come one per line in
    /// line order, so each scalar finds its first candidate by bisection.
    private struct ScalarOverlap: YAMLEventHandler {
        let removals: [SourceRange]
        var covered: [Bool]
        var complete = true
        private var depth = 0

        init(removals: [SourceRange]) {
            self.removals = removals
            covered = removals.map { _ in false }
        }

        mutating func documentStart(_ start: SourcePosition) -> Bool { true }
        mutating func documentEnd(_ end: SourcePosition) -> Bool { true }
        mutating func alias(_ anchor: String, start: SourcePosition, end: SourcePosition) -> Bool { true }

        mutating func scalar(
            _ text: UnsafeBufferPointer<UInt8>, anchor: String?, tag: String?, style: YAMLNode.ScalarStyle,
            start: SourcePosition, end: SourcePosition
        ) -> Bool {
            // An empty scalar (a null left blank) holds no text, so no `#`.
            guard start < end else { return true }
            // The first removal ending after the scalar starts.
            var low = 0, high = removals.count
            while low < high {
                let middle = (low + high) / 2
                if removals[middle].end <= start { low = middle + 1 } else { high = middle }
            }
            var index = low
            while index < removals.count, removals[index].start < end {
                if start < removals[index].end { covered[index] = true }
                index += 1
            }
            return true
        }

        mutating func collectionStart(
            _ kind: YAMLNode.Kind, anchor: String?, tag: String?, flow: Bool, start: SourcePosition
        ) -> Bool {
            depth += 1
            if depth > YAMLLimits.maxDepth { complete = false }
            return complete
        }

        mutating func collectionEnd(_ end: SourcePosition) -> Bool {
            depth -= 1
            return true
        }
    }
}

