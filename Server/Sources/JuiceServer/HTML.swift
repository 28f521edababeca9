import JuiceSupport
/// A few helpers for writing HTML with every piece of text escaped: pages
/// are built from `HTML` values, and only `HTML.text` and `HTML.attribute`
/// turn a `String` into one.
struct HTML: Sendable, CustomStringConvertible {
    var description: String

    init(raw: String) { description = raw }

    /// Text, escaped for an element's content.
    static func text(_ value: String) -> HTML { HTML(raw: escape(value)) }

    /// Text, escaped for a quoted attribute value.
    static func attribute(_ value: String) -> HTML { HTML(raw: escape(value)) }

    static func escape(_ value: String) -> String { value.htmlEscaped }

    static func + (lhs: HTML, rhs: HTML) -> HTML { HTML(raw: lhs.description + rhs.description) }

    static func join(_ parts: [HTML]) -> HTML { HTML(raw: parts.map(\.description).joined()) }
}

extension DefaultStringInterpolation {
    /// `"\(html)"` inserts HTML as it is; a plain `String` must go through `HTML.text`.
    mutating func appendInterpolation(_ html: HTML) { appendLiteral(html.description) }
}
