extension String {
    /// The text made safe in HTML content and in quoted attribute values:
    /// `&`, `<`, `>`, `"` and `'` as entities. The one home of HTML escaping,
    /// for the planner's report and the web counter's pages.
    public var htmlEscaped: String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for character in self {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
