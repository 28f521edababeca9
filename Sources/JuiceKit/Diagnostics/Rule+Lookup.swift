extension Rule {
    /// The rule with this id, or a usage error that suggests the closest one.
    /// `explain`, `--rule` and the configuration file all name rules this way.
    public static func named(_ id: String, place: String? = nil) throws(ConfigurationError) -> Rule {
        if let rule = Rule(rawValue: id) { return rule }
        throw ConfigurationError(
            (place.map { "\($0): " } ?? "") + "unknown rule '\(id)'",
            help: Suggestion.didYouMean(id, in: allCases.map(\.id)) ?? "run 'juice-lint rules' to list them"
        )
    }

    /// `juice-lint rules`: every rule with its default severity and summary, aligned.
    public static var catalogueTable: String {
        let width = allCases.map(\.id.count).max() ?? 0
        return allCases.map { rule in
            let severity = rule.defaultSeverity.rawValue
            return rule.id + String(repeating: " ", count: width - rule.id.count + 2)
                + severity + String(repeating: " ", count: 9 - severity.count) + rule.summary
        }.joined(separator: "\n")
    }
}
