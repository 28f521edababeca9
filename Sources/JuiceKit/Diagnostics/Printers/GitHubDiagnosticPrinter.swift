/// Renders diagnostics as GitHub Actions workflow commands, one line each, so a
/// lint step in a workflow annotates the pull request:
///
///     ::error file=recipes/menu.yaml,line=3,col=15,endLine=3,endColumn=21,title=unknown-fruit::unknown fruit 'mangoo'%0Ahelp: did you mean 'mango'?
///
/// Errors are `::error`, warnings `::warning` and infos `::notice`. The
/// annotation text is the message, then each note as `note: file:line:col: text`
/// and the help as `help: text`, each on its own line. `endColumn` is the
/// diagnostic's end, just past the node, as in the JSON and SARIF formats.
///
/// The runner reads a command up to the end of its line and splits properties
/// at `,` and `::`, so input-controlled text is percent-encoded the way the
/// runner decodes it: `%`, CR and LF everywhere, and also `:` and `,` inside
/// property values. It is one pass over the text, so an escape that was
/// written is never escaped again.
public enum GitHubDiagnosticPrinter {
    /// One command per diagnostic, joined by `\n`, with no trailing newline;
    /// empty when there are no diagnostics. When `omitted` is not 0, a last
    /// `::notice` says how many were left out.
    public static func render(_ diagnostics: [Diagnostic], omitted: Int = 0) -> String {
        var commands = diagnostics.map(command)
        if omitted > 0 {
            commands.append("::notice title=juice-lint::\(escapeData(DiagnosticLimit.omissionNotice(omitted)))")
        }
        return commands.joined(separator: "\n")
    }

    static func command(_ diagnostic: Diagnostic) -> String {
        let properties: [(String, String)] = [
            ("file", diagnostic.file),
            ("line", String(diagnostic.range.start.line)),
            ("col", String(diagnostic.range.start.column)),
            ("endLine", String(diagnostic.range.end.line)),
            ("endColumn", String(diagnostic.range.end.column)),
            ("title", diagnostic.rule.id),
        ]
        var text = diagnostic.message
        for note in diagnostic.notes {
            let location = "\(note.range.file):\(note.range.start.line):\(note.range.start.column)"
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
