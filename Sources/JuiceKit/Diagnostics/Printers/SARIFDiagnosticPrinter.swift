/// Renders a lint run as a SARIF 2.1.0 log, the format GitHub code scanning
/// uploads, indented two spaces with keys in a fixed order so the output is
/// byte-stable:
///
///     {"$schema", "version": "2.1.0",
///      "runs": [{"tool": {"driver": {"name": "juice-lint", "version", "informationUri", "rules": [...]}},
///                "originalUriBaseIds": {"%SRCROOT%": {"description"}},
///                "columnKind": "unicodeCodePoints",
///                "results": [...]}]}
///
/// - `rules` lists every rule in catalogue order, so `ruleIndex` is a rule's
///   position in `Rule.allCases` and a viewer can show any rule's help.
/// - Levels: error → `error`, warning → `warning`, info → `note`.
/// - A result's message is the diagnostic's message, plus `\nhelp: ...`; each
///   note becomes a related location with `id` 1, 2, ... in note order.
/// - Regions are 1-based and `endColumn` is exclusive, exactly as SARIF defines
///   them and as diagnostics already hold them. `columnKind` says columns count
///   Unicode scalars; SARIF's default would be UTF-16 code units.
/// - Relative paths become relative URI references with `uriBaseId`
///   `%SRCROOT%`, the conventional name for the analysed tree: the paths are
///   relative to the directory juice-lint ran in, which in CI is the checkout
///   GitHub resolves them against. `originalUriBaseIds` declares the base with a
///   description but no `uri`, as SARIF allows, because an absolute path would
///   make the log depend on the machine that wrote it. Absolute paths become
///   `file://` URIs with no base id, since a base id may only qualify a
///   relative reference.
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
    /// how many results were left out.
    public static func render(_ diagnostics: [Diagnostic], omitted: Int = 0) -> String {
        var json = JSONWriter()
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
        writeText(&json, "description", "The directory juice-lint ran in; relative paths are resolved against it.")
        json.endObject()
        json.endObject()
        json.field("columnKind", "unicodeCodePoints")
        json.key("results")
        json.beginArray()
        for diagnostic in diagnostics {
            writeResult(&json, diagnostic)
        }
        json.endArray()
        json.endObject()
        json.endArray()
        json.endObject()
        return json.prettyPrintedOutput
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
        json.field("informationUri", JuiceMakerVersion.informationURI)
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

    private static func writeResult(_ json: inout JSONWriter, _ diagnostic: Diagnostic) {
        json.beginObject()
        json.field("ruleId", diagnostic.rule.id)
        json.field("ruleIndex", Rule.allCases.firstIndex(of: diagnostic.rule) ?? -1)
        json.field("level", level(diagnostic.severity))
        var message = diagnostic.message
        if let help = diagnostic.help {
            message += "\nhelp: \(help)"
        }
        writeText(&json, "message", message)
        json.key("locations")
        json.beginArray()
        json.beginObject()
        writePhysicalLocation(&json, diagnostic.range)
        json.endObject()
        json.endArray()
        if !diagnostic.notes.isEmpty {
            json.key("relatedLocations")
            json.beginArray()
            for (offset, note) in diagnostic.notes.enumerated() {
                json.beginObject()
                json.field("id", offset + 1)
                writePhysicalLocation(&json, note.range)
                writeText(&json, "message", note.message)
                json.endObject()
            }
            json.endArray()
        }
        json.endObject()
    }

    private static func writePhysicalLocation(_ json: inout JSONWriter, _ range: SourceRange) {
        json.key("physicalLocation")
        json.beginObject()
        json.key("artifactLocation")
        json.beginObject()
        if range.file.hasPrefix("/") {
            json.field("uri", "file://" + percentEncodedPath(range.file))
        } else {
            json.field("uri", percentEncodedPath(range.file))
            json.field("uriBaseId", sourceRoot)
        }
        json.endObject()
        json.key("region")
        json.beginObject()
        // SARIF requires positions of at least 1; diagnostics always have them,
        // and the clamp keeps a malformed one from invalidating the whole log.
        json.field("startLine", max(1, range.start.line))
        json.field("startColumn", max(1, range.start.column))
        json.field("endLine", max(1, range.end.line))
        json.field("endColumn", max(1, range.end.column))
        json.endObject()
        json.endObject()
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
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        var out = String.UnicodeScalarView()
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(Unicode.Scalar(byte))
            default:
                out.append("%")
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(out)
    }
}
