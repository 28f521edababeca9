@_spi(Internals) import JuiceSupport
/// Renders a whole lint run as one versioned JSON document:
///
///     {"version":1,
///      "diagnostics":[{"file","line","column","endLine","endColumn","severity","rule","message",
///                      "notes":[{"file","line","column","message"}],"help"}],
///      "summary":{"files":N,"errors":N,"warnings":N,"infos":N,"omitted":N}}
///
/// `severity` is "error", "warning" or "info"; `help` is null when there is
/// none; `endColumn` is just past the node. The counts cover every diagnostic;
/// `omitted` says how many of them `--max-diagnostics` left out of the list.
/// Fields are only ever added.
public enum JSONDiagnosticPrinter {
    /// The document's `version`; raised only if a field changes meaning.
    public static let formatVersion = 1

    /// The whole report as one JSON document, diagnostics in the order given.
    public static func render(_ diagnostics: [Diagnostic], counts: DiagnosticCounts, omitted: Int = 0) -> String {
        var text = CollectedText()
        write(diagnostics, counts: counts, omitted: omitted, to: &text)
        return text.text
    }

    /// Writes the document `render` makes to `sink` in blocks as it goes,
    /// stopping early once the sink has failed.
    public static func write(_ diagnostics: [Diagnostic], counts: DiagnosticCounts, omitted: Int = 0, to sink: inout some TextSink) {
        var json = JSONWriter(reservingCapacity: blockSize + 1024)
        json.beginObject()
        json.field("version", formatVersion)
        json.key("diagnostics")
        json.beginArray()
        for diagnostic in diagnostics {
            if json.pendingByteCount >= blockSize {
                json.drain(into: &sink)
                if sink.hasFailed { return }
            }
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
        json.field("omitted", omitted)
        json.endObject()
        json.endObject()
        json.drain(into: &sink)
    }

    /// How much JSON is gathered before it goes to the sink: large enough
    /// that handing it over costs nothing, small enough to stay in cache.
    static let blockSize = 1 << 16
}
