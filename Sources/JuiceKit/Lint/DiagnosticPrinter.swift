/// Renders diagnostics one line each, compiler style:
///
///     recipes/menu.yaml:12:7: error: unknown fruit 'mangoo' [unknown-fruit]
///     recipes/menu.yaml:3:3: note: 'mango' is first defined here
///       help: did you mean 'mango'?
///
/// Notes follow their diagnostic in the same `file:line:col:` form, so editors
/// and CI problem matchers can jump to them.
public enum TextDiagnosticPrinter {
    public static func render(_ diagnostic: Diagnostic) -> String {
        var text = "\(location(diagnostic.range)): \(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.rule.id)]"
        for note in diagnostic.notes {
            text += "\n\(location(note.range)): note: \(note.message)"
        }
        if let help = diagnostic.help {
            text += "\n  help: \(help)"
        }
        return text
    }

    /// `files: 2, errors: 1, warnings: 0, infos: 1`
    public static func summary(_ counts: DiagnosticCounts) -> String {
        "files: \(counts.files), errors: \(counts.errors), warnings: \(counts.warnings), infos: \(counts.infos)"
    }

    static func location(_ range: SourceRange) -> String {
        "\(range.file):\(range.start.line):\(range.start.column)"
    }
}

/// Renders a whole lint run as one versioned JSON document:
///
///     {"version":1,
///      "diagnostics":[{"file","line","column","endLine","endColumn","severity","rule","message",
///                      "notes":[{"file","line","column","message"}],"help"}],
///      "summary":{"files":N,"errors":N,"warnings":N,"infos":N}}
///
/// `severity` is "error", "warning" or "info"; `help` is null when there is
/// none; `endColumn` is just past the node. Fields are only ever added.
public enum JSONDiagnosticPrinter {
    public static let formatVersion = 1

    public static func render(_ diagnostics: [Diagnostic], counts: DiagnosticCounts) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.field("version", formatVersion)
        json.key("diagnostics")
        json.beginArray()
        for diagnostic in diagnostics {
            json.beginObject()
            json.field("file", diagnostic.file)
            json.field("line", diagnostic.range.start.line)
            json.field("column", diagnostic.range.start.column)
            json.field("endLine", diagnostic.range.end.line)
            json.field("endColumn", diagnostic.range.end.column)
            json.field("severity", diagnostic.severity.rawValue)
            json.field("rule", diagnostic.rule.id)
            json.field("message", diagnostic.message)
            json.key("notes")
            json.beginArray()
            for note in diagnostic.notes {
                json.beginObject()
                json.field("file", note.range.file)
                json.field("line", note.range.start.line)
                json.field("column", note.range.start.column)
                json.field("message", note.message)
                json.endObject()
            }
            json.endArray()
            json.field("help", diagnostic.help)
            json.endObject()
        }
        json.endArray()
        json.key("summary")
        json.beginObject()
        json.field("files", counts.files)
        json.field("errors", counts.errors)
        json.field("warnings", counts.warnings)
        json.field("infos", counts.infos)
        json.endObject()
        json.endObject()
        return json.output
    }
}

/// The totals a lint run reports.
public struct DiagnosticCounts: Sendable, Hashable {
    public var files: Int
    public var errors: Int
    public var warnings: Int
    public var infos: Int

    public init(files: Int, diagnostics: [Diagnostic]) {
        self.files = files
        errors = diagnostics.count { $0.severity == .error }
        warnings = diagnostics.count { $0.severity == .warning }
        infos = diagnostics.count { $0.severity == .info }
    }
}
