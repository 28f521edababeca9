@_spi(Internals) import JuiceSupport
import JuiceSource
/// Renders a lint run as a SARIF 2.1.0 log, the format GitHub code scanning
/// uploads, indented two spaces with keys in a fixed order so the output is
/// byte-stable:
///
///     {"$schema", "version": "2.1.0",
///      "runs": [{"tool": {"driver": {"name": "juice-lint", "version", "rules": [...]}},
///                "invocations": [...],            (only when results were left out)
///                "originalUriBaseIds": {"%SRCROOT%": {"uri", "description"}},
///                "columnKind": "unicodeCodePoints",
///                "results": [...]}]}
///
/// - `rules` lists every rule in catalogue order, so `ruleIndex` is a rule's
///   position in `Rule.allCases` and a viewer can show any rule's help.
///   There is no `informationUri`: the tools have no public home page yet,
///   and SARIF makes it optional.
/// - Levels: error → `error`, warning → `warning`, info → `note`.
/// - A result's message is the diagnostic's message, plus `\nhelp: ...`; each
///   note becomes a related location with `id` 1, 2, ... in note order.
/// - Every result has `partialFingerprints` (`fingerprintKey`), which stay
///   the same across runs and across edits that only move lines, so
///   uploads do not duplicate alerts; see `Fingerprints`.
/// - Each of a diagnostic's fixes becomes a SARIF fix: its title as the
///   description, its edits as replacements grouped by file, each a
///   `deletedRegion` (a line and column region, empty for an insertion)
///   and the `insertedContent` (left out for a deletion).
/// - Regions are 1-based and `endColumn` is exclusive, exactly as SARIF defines
///   them and as diagnostics and fixes already hold them. `columnKind` says
///   columns count Unicode scalars; SARIF's default would be UTF-16 code units.
/// - Paths: with a `SourceRoot` (`--base-path`), a file under the root is a
///   relative URI reference with `uriBaseId` `%SRCROOT%`, the conventional name
///   for the analysed tree, and `originalUriBaseIds` gives the root as a
///   `file://` URI ending in `/`. A file outside it is an absolute `file://`
///   URI with no base id, since a base id may only qualify a relative
///   reference. Without a root (a caller with no file system), paths are
///   taken as relative to an unnamed base, declared with a description only.
public enum SARIFDiagnosticPrinter {
    /// The `$schema` every log names: the SchemaStore copy GitHub's docs use.
    public static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
    /// The SARIF version written; GitHub code scanning accepts only 2.1.0.
    public static let sarifVersion = "2.1.0"
    /// `tool.driver.name`, which GitHub shows as the alert's tool.
    public static let toolName = "juice-lint"
    /// The base id relative artifact URIs are resolved against.
    static let sourceRoot = "%SRCROOT%"

    /// The whole log as pretty-printed JSON, without a trailing newline. When
    /// `omitted` is not 0, the run's invocation carries a notification saying
    /// how many results were left out. Paths are made relative to `root`.
    public static func render(_ diagnostics: [Diagnostic], omitted: Int = 0, root: SourceRoot? = nil) -> String {
        var text = CollectedText()
        write(diagnostics, omitted: omitted, root: root, to: &text)
        return text.text
    }

    /// Writes the log `render` makes to `sink`, indented in blocks as it
    /// goes (`IndentingSink`), stopping early once the sink has failed.
    public static func write(_ diagnostics: [Diagnostic], omitted: Int = 0, root: SourceRoot? = nil, to sink: inout some TextSink) {
        var indenting = IndentingSink(sink)
        defer { sink = indenting.base }
        var json = JSONWriter(reservingCapacity: JSONDiagnosticPrinter.blockSize + 4096)
        var paths = Places(root: root)
        var fingerprints = Fingerprints()
        json.beginObject()
        json.field("$schema", schemaURI)
        json.field("version", sarifVersion)
        json.key("runs")
        json.beginArray()
        json.beginObject()
        writeTool(&json)
        if omitted > 0 {
            json.key("invocations")
            json.beginArray()
            json.beginObject()
            json.key("executionSuccessful")
            json.bool(true)
            json.key("toolExecutionNotifications")
            json.beginArray()
            json.beginObject()
            json.field("level", "note")
            writeText(&json, "message", DiagnosticLimit.omissionNotice(omitted))
            json.endObject()
            json.endArray()
            json.endObject()
            json.endArray()
        }
        json.key("originalUriBaseIds")
        json.beginObject()
        json.key(sourceRoot)
        json.beginObject()
        if let root {
            json.field("uri", fileURI(root.path == "/" ? "/" : root.path + "/"))
            writeText(&json, "description", "The base path (--base-path): by default the git work tree juice-lint ran in, else the directory it ran in. Relative uris are resolved against it.")
        } else {
            writeText(&json, "description", "The directory juice-lint ran in; relative paths are resolved against it.")
        }
        json.endObject()
        json.endObject()
        json.field("columnKind", "unicodeCodePoints")
        json.key("results")
        json.beginArray()
        for diagnostic in diagnostics {
            if json.pendingByteCount >= JSONDiagnosticPrinter.blockSize {
                json.drain(into: &indenting)
                if indenting.hasFailed { return }
            }
            writeResult(&json, diagnostic, paths: &paths, fingerprints: &fingerprints)
        }
        json.endArray()
        json.endObject()
        json.endArray()
        json.endObject()
        json.drain(into: &indenting)
        indenting.finish()
    }

    /// The SARIF level for a severity.
    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "note"
        }
    }

    private static func writeTool(_ json: inout JSONWriter) {
        json.key("tool")
        json.beginObject()
        json.key("driver")
        json.beginObject()
        json.field("name", toolName)
        json.field("version", JuiceMakerVersion.current)
        json.key("rules")
        json.beginArray()
        for rule in Rule.allCases {
            json.beginObject()
            json.field("id", rule.id)
            writeText(&json, "shortDescription", rule.summary)
            writeText(&json, "fullDescription", rule.fullDescription)
            writeText(&json, "help", rule.helpText)
            json.key("defaultConfiguration")
            json.beginObject()
            json.field("level", level(rule.defaultSeverity))
            json.endObject()
            json.endObject()
        }
        json.endArray()
        json.endObject()
        json.endObject()
    }

    private static func writeResult(
        _ json: inout JSONWriter, _ diagnostic: Diagnostic, paths: inout Places, fingerprints: inout Fingerprints
    ) {
        json.beginObject()
        json.field("ruleId", diagnostic.rule.id)
        json.field("ruleIndex", Rule.allCases.firstIndex(of: diagnostic.rule) ?? -1)
        json.field("level", level(diagnostic.severity))
        var message = diagnostic.message
        if let help = diagnostic.help {
            message += "\nhelp: \(help)"
        }
        writeText(&json, "message", message)
        let place = paths.place(of: diagnostic.file)
        json.key("locations")
        json.beginArray()
        json.beginObject()
        writePhysicalLocation(&json, place, diagnostic.range)
        json.endObject()
        json.endArray()
        if !diagnostic.notes.isEmpty {
            json.key("relatedLocations")
            json.beginArray()
            for (offset, note) in diagnostic.notes.enumerated() {
                json.beginObject()
                json.field("id", offset + 1)
                writePhysicalLocation(&json, paths.place(of: note.range.file), note.range)
                writeText(&json, "message", note.message)
                json.endObject()
            }
            json.endArray()
        }
        json.key("partialFingerprints")
        json.beginObject()
        json.field(fingerprintKey, fingerprints.next(rule: diagnostic.rule, path: place.path, message: diagnostic.message))
        json.endObject()
        writeFixes(&json, diagnostic.fixes, paths: &paths)
        json.endObject()
    }

    /// The diagnostic's fixes, those with at least one edit (SARIF asks for
    /// one change at least), in their order; nothing when there are none.
    private static func writeFixes(_ json: inout JSONWriter, _ fixes: [Fix], paths: inout Places) {
        guard fixes.contains(where: { !$0.edits.isEmpty }) else { return }
        json.key("fixes")
        json.beginArray()
        for fix in fixes where !fix.edits.isEmpty {
            json.beginObject()
            writeText(&json, "description", fix.title)
            json.key("artifactChanges")
            json.beginArray()
            // One change per file, in the order the edits first name them;
            // a fix has a few edits, so a linear search is the cheap one.
            var files: [String] = []
            for edit in fix.edits where !files.contains(edit.range.file) {
                files.append(edit.range.file)
            }
            for file in files {
                json.beginObject()
                writeArtifactLocation(&json, paths.place(of: file))
                json.key("replacements")
                json.beginArray()
                for edit in fix.edits where edit.range.file == file {
                    json.beginObject()
                    json.key("deletedRegion")
                    writeRegion(&json, edit.range)
                    if !edit.replacement.isEmpty {
                        json.key("insertedContent")
                        json.beginObject()
                        json.field("text", edit.replacement)
                        json.endObject()
                    }
                    json.endObject()
                }
                json.endArray()
                json.endObject()
            }
            json.endArray()
            json.endObject()
        }
        json.endArray()
    }

    private static func writePhysicalLocation(_ json: inout JSONWriter, _ place: SourceRoot.Place, _ range: SourceRange) {
        json.key("physicalLocation")
        json.beginObject()
        writeArtifactLocation(&json, place)
        json.key("region")
        writeRegion(&json, range)
        json.endObject()
    }

    private static func writeArtifactLocation(_ json: inout JSONWriter, _ place: SourceRoot.Place) {
        json.key("artifactLocation")
        json.beginObject()
        switch place {
        case .inside(let path):
            json.field("uri", percentEncodedPath(path))
            json.field("uriBaseId", sourceRoot)
        case .outside(let path):
            json.field("uri", fileURI(path))
        }
        json.endObject()
    }

    private static func writeRegion(_ json: inout JSONWriter, _ range: SourceRange) {
        json.beginObject()
        // SARIF requires positions of at least 1; diagnostics always have them,
        // and the clamp keeps a malformed one from invalidating the whole log.
        json.field("startLine", max(1, range.start.line))
        json.field("startColumn", max(1, range.start.column))
        json.field("endLine", max(1, range.end.line))
        json.field("endColumn", max(1, range.end.column))
        json.endObject()
    }

    /// An absolute path as a `file://` URI.
    static func fileURI(_ absolutePath: String) -> String {
        "file://" + percentEncodedPath(absolutePath)
    }

    private static func writeText(_ json: inout JSONWriter, _ key: String, _ text: String) {
        json.key(key)
        json.beginObject()
        json.field("text", text)
        json.endObject()
    }

    /// A `/`-separated path as the path of a URI reference: every byte other
    /// than an RFC 3986 unreserved character or `/` is percent-encoded, so
    /// spaces, `%`, `#`, `?`, a `:` that would read as a scheme, and non-ASCII
    /// names all survive a round trip through any URI parser.
    static func percentEncodedPath(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        // Bytes, made a `String` once: appending to a `String`'s scalars one
        // at a time cost 24,000 instructions a path, a sixth of a SARIF log
        // of 25,000 results (callgrind).
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Where each file named in a log lies, remembering the last answer:
/// results come sorted by file, so nearly every lookup is the one before.
struct Places {
    package let root: SourceRoot?
    private var lastFile: String?
    private var lastPlace = SourceRoot.Place.inside("")

    init(root: SourceRoot?) {
        self.root = root
    }

    /// Where `file` lies; without a root, a relative path is taken as
    /// relative to the base and an absolute one is outside it.
    mutating func place(of file: String) -> SourceRoot.Place {
        if file == lastFile { return lastPlace }
        let place: SourceRoot.Place = if let root { root.place(of: file) } else if file.hasPrefix("/") { .outside(file) } else { .inside(file) }
        lastFile = file
        lastPlace = place
        return place
    }
}

extension SourceRoot.Place {
    /// The path, relative to the root or absolute.
    var path: String {
        switch self {
        case .inside(let path), .outside(let path): return path
        }
    }
}
