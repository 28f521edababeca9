@_spi(Internals) import JuiceSupport
import JuiceSource
import Synchronization

/// Renders a diagnostic for people, in the style of the Swift and Rust compilers:
///
///     recipes/menu.yaml:3:15: error: unknown fruit 'mangoo' [unknown-fruit]
///       |
///     3 |     recipe: { mangoo: 2 }
///       |               ^~~~~~
///       = help: did you mean 'mango'?
///
/// The headline is exactly the one-line printer's first line, so editors and
/// problem matchers that read `file:line:col:` keep working. Below it:
///
/// - The source line, behind a gutter as wide as the largest line number whose
///   snippet this diagnostic shows (its own and its notes'), so every `|` of one
///   diagnostic lines up.
/// - `^` under the first character of the span and `~` under the rest of it on
///   that line. A span that runs onto later lines is underlined to the end of
///   its first line; an empty span, or one at the end of the line, is a lone `^`.
///   Padding and underline are measured in terminal cells (`DisplayWidth`):
///   tabs are shown as four spaces, wide characters take two cells, combining
///   marks none. Control characters in the line are shown as visible symbols
///   (U+2400 control pictures, or U+FFFD for C1 controls and bidirectional
///   overrides), so a hostile file can neither move the cursor nor reorder
///   what the reader sees.
/// - Each note as `file:line:col: note: message` with its own snippet; a note
///   may point into another file.
/// - `= help: ...` with the `=` in the gutter's `|` column, that is after
///   gutter-width + 1 spaces. When no snippet is shown the gutter counts as one
///   digit wide, so the line reads `  = help: ...`.
///
/// When a file was not loaded or a line does not exist, the snippet is left out
/// and the rest is printed as usual: the printer never fails on a diagnostic.
///
/// With colour on, it uses ANSI SGR: bold headline location and message, the
/// severity word in red (error), yellow (warning) or cyan (info, note), a blue
/// gutter, the `^~~` in the colour of its severity (cyan for notes) and a green
/// `help`. Note messages stay unbolded so the main message stands out. With
/// colour off the output contains no escape byte at all.
public struct HumanDiagnosticPrinter: Sendable {
    private let sources: [String: SourceLines]
    /// Not state anyone sees: a cache of the last line shown.
    private let lineCache = LineCache()
    private let color: Bool

    /// - Parameters:
    ///   - files: the files the diagnostics point into, looked up by `path`; the
    ///     first file wins when two share a path.
    ///   - color: whether to emit ANSI colour (see `TerminalColor.shouldColor`).
    public init(files: [SourceFile], color: Bool) {
        var sources: [String: SourceLines] = [:]
        for file in files where sources[file.path] == nil {
            sources[file.path] = SourceLines(bytes: file.bytes)
        }
        self.sources = sources
        self.color = color
    }

    /// The diagnostic as lines joined by `\n`, without a trailing newline.
    public func render(_ diagnostic: Diagnostic) -> String {
        let severityStyle = Style.of(diagnostic.severity)
        let main = snippet(diagnostic.range)
        let notes = diagnostic.notes.map { (note: $0, snippet: snippet($0.range)) }
        let shown = [main].compactMap { $0 } + notes.compactMap(\.snippet)
        let gutterWidth = shown.map { String($0.lineNumber).count }.max() ?? 1

        var lines = [
            headline(
                diagnostic.range,
                label: diagnostic.severity.rawValue,
                labelStyle: severityStyle,
                message: "\(diagnostic.message.escapingControlCharacters) [\(diagnostic.rule.id)]",
                messageStyle: Style.bold
            ),
        ]
        if let main {
            lines += snippetLines(main, gutterWidth: gutterWidth, markStyle: severityStyle)
        }
        for (note, noteSnippet) in notes {
            lines.append(
                headline(note.range, label: "note", labelStyle: Style.note, message: note.message.escapingControlCharacters, messageStyle: nil)
            )
            if let noteSnippet {
                lines += snippetLines(noteSnippet, gutterWidth: gutterWidth, markStyle: Style.note)
            }
        }
        if let help = diagnostic.help {
            lines.append(
                String(repeating: " ", count: gutterWidth + 1) + paint("=", Style.gutter) + " "
                    + paint("help:", Style.help) + " " + help.escapingControlCharacters
            )
        }
        return lines.joined(separator: "\n")
    }

    /// Writes each diagnostic as `render` does, with a blank line between
    /// them as compilers print them (each is several lines), then the
    /// omission notice when `omitted` is not 0; stops early once the sink
    /// has failed.
    public func write(_ diagnostics: [Diagnostic], omitted: Int = 0, to sink: inout some TextSink) {
        sink.write(diagnostics, separator: "\n\n", trailer: omitted > 0 ? DiagnosticLimit.omissionNotice(omitted) : nil) { render($0) }
    }

    /// `files: 2, errors: 1, warnings: 0, infos: 1`
    ///
    public static func summary(_ counts: DiagnosticCounts) -> String {
        "files: \(counts.files), errors: \(counts.errors), warnings: \(counts.warnings), infos: \(counts.infos)"
    }

    // MARK: - Pieces

    private func headline(_ range: SourceRange, label: String, labelStyle: String, message: String, messageStyle: String?) -> String {
        let location = "\(range.file.escapingControlCharacters):\(range.start.line):\(range.start.column):"
        let body = messageStyle.map { paint(message, $0) } ?? message
        return paint(location, Style.bold) + " " + paint(label + ":", labelStyle) + " " + body
    }

    /// The blank gutter line, the numbered source line and the mark line.
    private func snippetLines(_ snippet: Snippet, gutterWidth: Int, markStyle: String) -> [String] {
        let emptyGutter = paint(String(repeating: " ", count: gutterWidth) + " |", Style.gutter)
        let number = String(snippet.lineNumber)
        let numberGutter = paint(String(repeating: " ", count: gutterWidth - number.count) + number + " |", Style.gutter)
        let mark = "^" + String(repeating: "~", count: max(0, snippet.markWidth - 1))
        return [
            emptyGutter,
            // No trailing space after the gutter when the line is empty.
            snippet.text.isEmpty ? numberGutter : numberGutter + " " + snippet.text,
            emptyGutter + " " + String(repeating: " ", count: snippet.caretColumn) + paint(mark, markStyle),
        ]
    }

    private func paint(_ text: String, _ style: String) -> String {
        color ? style + text + Style.reset : text
    }

    // MARK: - Snippets

    /// One source line ready to print, with where the mark goes in cells.
    struct Snippet: Equatable {
        var lineNumber: Int
        /// The line as shown: tabs expanded, control characters made visible.
        package var text: String
        /// Cells before the `^`.
        var caretColumn: Int
        /// Cells the span covers on this line; 0 draws a lone `^`.
        var markWidth: Int
    }

    /// How many characters of context a snippet shows on each side of the
    /// span, and how much of the span itself, before eliding with `…`: a
    /// generated file can put a whole book on one line.
    static let contextLimit = 60
    static let spanLimit = 120

    /// The snippet for a range's first line, or nil when that line is not available.
    func snippet(_ range: SourceRange) -> Snippet? {
        guard let scalars = lineCache.scalars(of: range.file, line: range.start.line, in: sources) else { return nil }
        // Columns are 1-based scalar counts; one past the last scalar is the end
        // of the line. Anything further out is clamped rather than dropped.
        let start = min(max(range.start.column - 1, 0), scalars.count)
        let end: Int
        if range.end.line == range.start.line {
            end = min(max(range.end.column - 1, start), scalars.count)
        } else if range.end.line > range.start.line {
            end = scalars.count
        } else {
            end = start
        }
        let shownEnd = min(end, start + Self.spanLimit)
        let before = (start > Self.contextLimit ? "…" : "") + Self.shown(scalars[max(0, start - Self.contextLimit)..<start])
        let span = Self.shown(scalars[start..<shownEnd])
        let afterEnd = min(scalars.count, shownEnd + Self.contextLimit)
        let after = (shownEnd < end ? "…" : "") + Self.shown(scalars[shownEnd..<afterEnd]) + (afterEnd < scalars.count ? "…" : "")
        return Snippet(
            lineNumber: range.start.line,
            text: before + span + after,
            caretColumn: DisplayWidth.of(before),
            markWidth: DisplayWidth.of(span)
        )
    }

    /// Source text made safe and predictable for a terminal.
    private static func shown(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var text = String.UnicodeScalarView()
        for scalar in scalars {
            switch scalar.value {
            case 0x09:
                // Four spaces, as rustc does: the caret line then needs no tab
                // stops, and the width is the same whatever the terminal's tab size.
                text.append(contentsOf: "    ".unicodeScalars)
            case 0x00..<0x20:
                text.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
            case 0x7F:
                text.append("\u{2421}")
            case 0x80..<0xA0, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                // C1 controls can act as terminal escapes; bidirectional marks
                // and overrides can make the line read differently from its bytes.
                text.append("\u{FFFD}")
            default:
                text.append(scalar)
            }
        }
        return String(text)
    }

    // MARK: - Styles

    /// ANSI SGR sequences.
    private enum Style {
        static let reset = "\u{1B}[0m"
        static let bold = "\u{1B}[1m"
        package static let error = "\u{1B}[1;31m"
        static let warning = "\u{1B}[1;33m"
        static let note = "\u{1B}[1;36m"
        static let gutter = "\u{1B}[1;34m"
        static let help = "\u{1B}[1;32m"

        static func of(_ severity: Severity) -> String {
            switch severity {
            case .error: return error
            case .warning: return warning
            case .info: return note
            }
        }
    }
}

/// The last source line a printer turned into scalars. Diagnostics are printed
/// in line order, so consecutive ones mostly share a line; caching it keeps a
/// report of many diagnostics on one long line linear rather than quadratic.
///
/// The printer is `Sendable` and this cache is what it shares between copies,
/// so the cache is behind a lock: two threads rendering with one printer take
/// turns at it instead of tearing it. Nobody does today, and uncontended the
/// lock costs a few nanoseconds beside a diagnostic's rendering.
final class LineCache: Sendable {
    private struct Entry {
        var file: String
        var line: Int
        var scalars: [Unicode.Scalar]
    }

    private let last = Mutex<Entry?>(nil)

    func scalars(of file: String, line: Int, in sources: [String: SourceLines]) -> [Unicode.Scalar]? {
        if let hit = last.withLock({ entry in entry.flatMap { $0.file == file && $0.line == line ? $0.scalars : nil } }) {
            return hit
        }
        guard let text = sources[file]?[line: line] else { return nil }
        let scalars = Array(text.unicodeScalars)
        last.withLock { $0 = Entry(file: file, line: line, scalars: scalars) }
        return scalars
    }
}
