@_spi(Internals) import JuiceSupport
/// Renders diagnostics as GitHub Actions workflow commands, one line each, so a
/// lint step in a workflow annotates the pull request:
///
///     ::error file=recipes/menu.yaml,line=3,col=15,endLine=3,endColumn=20,title=unknown-fruit::unknown fruit 'mangoo'%0Ahelp: did you mean 'mango'?
///
/// Errors are `::error`, warnings `::warning` and infos `::notice`. The
/// annotation text is the message, then each note as `note: file:line:col: text`
/// and the help as `help: text`, each on its own line.
///
/// Positions follow GitHub's annotations, not the other formats:
/// - `endColumn` is inclusive, the last column of the span: `@actions/core`
///   says it "defaults to startColumn", which only names a one-column span
///   if the end column is part of it, and the runner refuses an `endColumn`
///   below `col`. So it is the diagnostic's exclusive end less one, and
///   never below `col`, for an empty span (a YAML error's point).
/// - When the span runs over several lines, `col` and `endColumn` are left
///   out: the check-run API allows columns only on one line, and the runner
///   drops them otherwise.
///
/// With a `SourceRoot` (`--base-path`), `file=` and the notes' paths are
/// relative to it, as GitHub resolves them against the repository's root. A
/// file outside the root is named by its absolute path: a path with `../`
/// resolves to nothing in the repository, while the runner turns an absolute
/// path under the workspace into the repository-relative one itself.
///
/// The runner reads a command up to the end of its line and splits properties
/// at `,` and `::`, so input-controlled text is percent-encoded the way the
/// runner decodes it: `%`, CR and LF everywhere, and also `:` and `,` inside
/// property values. It is one pass over the text, so an escape that was
/// written is never escaped again.
public enum GitHubDiagnosticPrinter {
    /// One command per diagnostic, joined by `\n`, with no trailing newline;
    /// empty when there are no diagnostics. When `omitted` is not 0, a last
    /// `::notice` says how many were left out. Paths are made relative to `root`.
    public static func render(_ diagnostics: [Diagnostic], omitted: Int = 0, root: SourceRoot? = nil) -> String {
        var text = CollectedText()
        write(diagnostics, omitted: omitted, root: root, to: &text)
        return text.text
    }

    /// Writes what `render` makes to `sink`, a command at a time, stopping
    /// early once the sink has failed.
    public static func write(_ diagnostics: [Diagnostic], omitted: Int = 0, root: SourceRoot? = nil, to sink: inout some TextSink) {
        var places = Places(root: root)
        let notice = omitted > 0 ? "::notice title=juice-lint::\(escapeData(DiagnosticLimit.omissionNotice(omitted)))" : nil
        sink.write(diagnostics, separator: "\n", trailer: notice) { command($0, places: &places) }
    }

    static func command(_ diagnostic: Diagnostic, places: inout Places) -> String {
        let range = diagnostic.range
        var properties: [(String, String)] = [
            ("file", places.place(of: diagnostic.file).path),
            ("line", String(range.start.line)),
        ]
        if range.start.line == range.end.line {
            properties.append(("col", String(range.start.column)))
            properties.append(("endLine", String(range.end.line)))
            properties.append(("endColumn", String(max(range.start.column, range.end.column - 1))))
        } else {
            properties.append(("endLine", String(range.end.line)))
        }
        properties.append(("title", diagnostic.rule.id))
        var text = diagnostic.message
        for note in diagnostic.notes {
            let location = "\(places.place(of: note.range.file).path):\(note.range.start.line):\(note.range.start.column)"
            text += "\nnote: \(location): \(note.message)"
        }
        if let help = diagnostic.help {
            text += "\nhelp: \(help)"
        }
        let list = properties.map { "\($0.0)=\(escapeProperty($0.1))" }.joined(separator: ",")
        return "::\(commandName(diagnostic.severity)) \(list)::\(escapeData(text))"
    }

    private static func commandName(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "notice"
        }
    }

    /// Escapes the message part of a command: `%`, CR and LF.
    static func escapeData(_ text: String) -> String {
        escape(text, colonAndComma: false)
    }

    /// Escapes a property value: as `escapeData`, plus `:` and `,`.
    static func escapeProperty(_ text: String) -> String {
        escape(text, colonAndComma: true)
    }

    private static func escape(_ text: String, colonAndComma: Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            case ":" where colonAndComma: out += "%3A"
            case "," where colonAndComma: out += "%2C"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
