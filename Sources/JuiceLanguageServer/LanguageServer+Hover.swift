@_spi(Internals) import JuiceSupport
/// Hover: what an id is, what it needs, and what the opening stock allows
/// (`HoverCard` writes the text).
extension LanguageServer {
    mutating func hover(_ params: Params) throws(ResponseError) -> JSONValue {
        let target = try target(params)
        guard let occurrence = occurrence(at: target) else { return .null }
        let card = HoverCard(index: books[target.book].index(), book: books[target.book].book(), markdown: client.markdownHover)
        let lines = card.lines(for: occurrence.id)
        return .object([
            ("contents", .object([
                ("kind", .string(card.markdown ? "markdown" : "plaintext")),
                // Markdown needs a blank line to break a paragraph.
                ("value", .string(lines.joined(separator: card.markdown ? "\n\n" : "\n"))),
            ])),
            ("range", documents.lspRange(occurrence.range)),
        ])
    }
}
