@_spi(Internals) import JuiceSupport
/// A rule id that names no rule, with the closest id as help when one is
/// near. It belongs to the rule catalogue, not to any one tool: `explain`,
/// `--rule` and the configuration file each name rules this way, and each
/// reports the error in its own terms.
public struct UnknownRuleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The id as written.
    public var id: String
    /// Where it was written (`--rule`, `FILE:LINE:COLUMN`), or nil.
    public var place: String?
    /// A did-you-mean, or how to list the rules.
    public var help: String

    /// `PLACE: unknown rule 'ID'`, without the help.
    public var message: String { (place.map { "\($0): " } ?? "") + "unknown rule '\(id)'" }

    public var description: String { "\(message)\n  help: \(help)" }
}

extension Rule {
    /// The rule with this id, or an error that suggests the closest one.
    /// `explain`, `--rule` and the configuration file all name rules this way.
    public static func named(_ id: String, place: String? = nil) throws(UnknownRuleError) -> Rule {
        if let rule = Rule(rawValue: id) { return rule }
        throw UnknownRuleError(
            id: id, place: place,
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
