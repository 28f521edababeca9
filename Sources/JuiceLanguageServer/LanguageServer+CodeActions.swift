@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics
import JuiceBook
/// Code actions: the fixes the linter attaches to its diagnostics, a stock
/// entry for a fruit that has none, and a suppression comment.
extension LanguageServer {
    mutating func codeActions(_ params: Params) throws(ResponseError) -> JSONValue {
        let (book, path, text) = try document(params)
        let range = try params.object("range")
        let start = try range.position("start"), end = try range.position("end")
        let from = text.offset(lspLine: start.line, character: start.character, units: documents.units)
        let to = max(from, text.offset(lspLine: end.line, character: end.character, units: documents.units))
        if let only = try params.object("context").optionalArray("only") {
            let kinds = only.compactMap(\.value.string)
            guard kinds.contains(where: { $0 == "quickfix" || $0 == "" }) else { return .array([]) }
        }
        let diagnostics = (books[book].current().diagnostics[path] ?? []).filter { diagnostic in
            let dStart = text.offset(of: diagnostic.range.start), dEnd = max(dStart, text.offset(of: diagnostic.range.end))
            return dStart <= to && from <= dEnd
        }
        var actions: [JSONValue] = []
        for diagnostic in diagnostics {
            let shown = lspDiagnostic(diagnostic)
            for fix in diagnostic.fixes {
                var edits: [PlacedEdit] = []
                for edit in fix.edits {
                    guard let fileText = documents.text(at: edit.range.file) else { continue }
                    let editStart = fileText.offset(of: edit.range.start)
                    edits.append(PlacedEdit(
                        path: edit.range.file, range: editStart..<max(editStart, fileText.offset(of: edit.range.end)), newText: edit.replacement
                    ))
                }
                actions.append(action(fix.title, for: shown, edits: edits, preferred: diagnostic.fixes.count == 1))
            }
            if diagnostic.rule == .missingStock, let fruit = books[book].index().definitions.first(where: { $0.range == diagnostic.range && $0.kind == .fruit }),
               let edit = stockEntry(for: fruit, book: book) {
                actions.append(action("add a stock entry for '\(fruit.id.escapingControlCharacters)'", for: shown, edits: [edit], preferred: false))
            }
            if diagnostic.severity != .error, diagnostic.rule.isConfigurable, let edit = suppression(of: diagnostic.rule, at: diagnostic.range, in: text) {
                actions.append(action("suppress \(diagnostic.rule.id) on this line", for: shown, edits: [edit], preferred: false))
            }
        }
        return .array(actions)
    }

    private mutating func action(_ title: String, for diagnostic: JSONValue, edits: [PlacedEdit], preferred: Bool) -> JSONValue {
        .object([
            ("title", .string(title)), ("kind", .string("quickfix")), ("diagnostics", .array([diagnostic])),
            ("isPreferred", .bool(preferred)), ("edit", workspaceEdit(edits)),
        ])
    }

    /// `FRUIT: 0` after the book's last stock entry (in the fruit's own
    /// file if it has one): on a line of its own in block style, inside the
    /// braces in flow style. A book with no stock entry at all gets a
    /// `stock:` section at the end of the fruit's file.
    private mutating func stockEntry(for fruit: WorkspaceIndex.Definition, book: Int) -> PlacedEdit? {
        let entry = (NameSpelling.plain.written(fruit.id) ?? fruit.id) + ": 0"
        let stock = books[book].index().references.filter { $0.role == .stock }
        guard let last = stock.last(where: { $0.range.file == fruit.range.file }) ?? stock.last else {
            guard let text = documents.text(at: fruit.range.file) else { return nil }
            let end = text.utf8.count
            let breakBefore = end == 0 || text.utf8[end - 1] == 0x0A || text.utf8[end - 1] == 0x0D ? "" : text.lineBreak
            return PlacedEdit(path: fruit.range.file, range: end..<end, newText: breakBefore + "stock:" + text.lineBreak + "  " + entry + text.lineBreak)
        }
        guard let text = documents.text(at: last.range.file), let line = text.yamlLine(last.range.start.line) else { return nil }
        let keyStart = text.offset(of: last.range.start)
        let rest = Array(text.utf8[keyStart..<line.upperBound])
        if let brace = rest.firstIndex(of: UInt8(ascii: "}")) {
            // Flow style: after the last entry's value, before the brace.
            var insertion = keyStart + brace
            while insertion > keyStart, text.utf8[insertion - 1] == 0x20 { insertion -= 1 }
            return PlacedEdit(path: last.range.file, range: insertion..<insertion, newText: ", " + entry)
        }
        let indentation = String(decoding: text.utf8[line].prefix { $0 == 0x20 }, as: UTF8.self)
        return PlacedEdit(path: last.range.file, range: line.upperBound..<line.upperBound, newText: text.lineBreak + indentation + entry)
    }

    /// A comment silencing `rule` on the diagnostic's line: added to the
    /// line's own `disable-line` comment if it has one, at the line's end if
    /// it has no comment, and otherwise as a `disable-next-line` comment on
    /// a line of its own above.
    private func suppression(of rule: Rule, at range: SourceRange, in text: SourceText) -> PlacedEdit? {
        guard let line = text.yamlLine(range.start.line) else { return nil }
        let content = text[line]
        var end = line.upperBound
        while end > line.lowerBound, text.utf8[end - 1] == 0x20 || text.utf8[end - 1] == 0x09 { end -= 1 }
        if content.contains("# juice-lint disable-line ") {
            return PlacedEdit(path: range.file, range: end..<end, newText: "," + rule.id)
        }
        if !content.hasPrefix("#") && !content.contains(" #") {
            return PlacedEdit(path: range.file, range: end..<end, newText: "  # juice-lint disable-line " + rule.id)
        }
        let indentation = String(content.prefix { $0 == " " })
        return PlacedEdit(
            path: range.file, range: line.lowerBound..<line.lowerBound,
            newText: indentation + "# juice-lint disable-next-line " + rule.id + text.lineBreak
        )
    }
}
