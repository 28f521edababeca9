@_spi(Internals) import JuiceSupport
import JuiceDiagnostics
@_spi(Internals) import JuiceYAML
/// The level a rule is reported at, or `off`.
public enum RuleLevel: String, Sendable, CaseIterable {
    case off
    case info
    case warning
    case error

    /// The severity a diagnostic gets at this level; nil when the rule is off.
    public var severity: Severity? {
        switch self {
        case .off: return nil
        case .info: return .info
        case .warning: return .warning
        case .error: return .error
        }
    }

    /// The level that reports at `severity`.
    init(_ severity: Severity) {
        switch severity {
        case .info: self = .info
        case .warning: self = .warning
        case .error: self = .error
        }
    }

    /// The level a misspelt one most likely means: a prefix or extension
    /// (`warn`, `errors`), another case (`Warning`), or a close spelling.
    static func closest(to name: String) -> RuleLevel? {
        let lowered = name.lowercased()
        if let level = RuleLevel(rawValue: lowered) { return level }
        if lowered.count >= 3, let level = allCases.first(where: { $0.rawValue.hasPrefix(lowered) || lowered.hasPrefix($0.rawValue) }) {
            return level
        }
        return Suggestion.closest(to: lowered, in: allCases.map(\.rawValue)).flatMap(RuleLevel.init(rawValue:))
    }
}

/// A configuration the user got wrong: a usage error, exit code 2.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var help: String?

    /// A message in the usual style, and an optional help line.
    public init(_ message: String, help: String? = nil) {
        self.message = message
        self.help = help
    }

    public var description: String { help.map { "\(message)\n  help: \($0)" } ?? message }
}

/// Which rules are reported, and at what level.
///
/// Read from `.juice-lint.yaml` (or `--config FILE`), then overridden by each
/// `--rule RULE=LEVEL`:
///
///     rules:
///       unused-fruit: error
///       missing-stock: off
public struct LintConfiguration: Sendable, Equatable {
    public private(set) var levels: [Rule: RuleLevel] = [:]

    /// Every rule at its default severity.
    public init() {}

    /// The file read from the working directory when no `--config` is given.
    public static let defaultFileName = ".juice-lint.yaml"

    /// The level of `rule`: configured, or its default severity.
    public func level(of rule: Rule) -> RuleLevel {
        levels[rule] ?? RuleLevel(rule.defaultSeverity)
    }

    /// The rules set to `off`: their checks need not run at all.
    public var rulesOff: Set<Rule> {
        Set(levels.compactMap { $0.value == .off ? $0.key : nil })
    }

    /// Applies the configured levels: drops diagnostics of rules that are off and
    /// gives the rest their configured severity.
    public func apply(to diagnostics: [Diagnostic]) -> [Diagnostic] {
        // Changed in place, and only where a level differs: the list is
        // usually as it came, and copying 100,000 diagnostics showed (perf).
        var applied = diagnostics
        if applied.indices.contains(where: { level(of: applied[$0].rule) == .off }) {
            applied.removeAll { level(of: $0.rule) == .off }
        }
        for index in applied.indices {
            guard let severity = level(of: applied[index].rule).severity, severity != applied[index].severity else { continue }
            applied[index].severity = severity
        }
        return applied
    }

    /// Sets one rule from `RULE=LEVEL`, as `--rule` takes it.
    public mutating func override(_ assignment: String) throws(ConfigurationError) {
        let parts = assignment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw ConfigurationError("--rule '\(assignment)' is not RULE=LEVEL", help: "for example --rule unused-fruit=error")
        }
        try set(parts[0].trimmingSpaces, parts[1].trimmingSpaces, place: "--rule", levelPlace: "--rule")
    }

    /// Reads a configuration file's text. `path` is only for messages.
    public static func parse(_ bytes: [UInt8], path: String) throws(ConfigurationError) -> LintConfiguration {
        let composed = YAMLComposer.compose(bytes: bytes, file: path)
        if let problem = composed.diagnostics.first {
            throw ConfigurationError("\(path):\(problem.line):\(problem.column): \(problem.message)")
        }
        var configuration = LintConfiguration()
        for document in composed.documents {
            guard let root = document.root, !document[root].isNull else { continue }
            guard document[root].kind == .mapping else {
                throw error(document, root, "the configuration must be a mapping with the key 'rules'")
            }
            for (key, value) in document.pairs(of: root) {
                guard document.hasText(key, "rules") else {
                    throw error(document, key, "unknown key '\(document.text(of: key))'; the configuration has only 'rules'")
                }
                if document[value].isNull { continue }
                guard document[value].kind == .mapping else {
                    throw error(document, value, "'rules' must be a mapping of RULE: off|info|warning|error")
                }
                for (ruleKey, levelValue) in document.pairs(of: value) {
                    // Each problem is pointed at the part that is wrong: the rule or the level.
                    for node in [ruleKey, levelValue] where document[node].kind != .scalar {
                        throw error(document, node, "each entry under 'rules' must be 'RULE: LEVEL'")
                    }
                    let rule = document.range(of: ruleKey), level = document.range(of: levelValue)
                    try configuration.set(
                        document.text(of: ruleKey), document.text(of: levelValue),
                        place: "\(path):\(rule.start.line):\(rule.start.column)",
                        levelPlace: "\(path):\(level.start.line):\(level.start.column)"
                    )
                }
            }
        }
        return configuration
    }

    /// `place` is where the rule is written, `levelPlace` where its level is.
    private mutating func set(_ ruleName: String, _ levelName: String, place: String, levelPlace: String) throws(ConfigurationError) {
        let rule: Rule
        do {
            rule = try Rule.named(ruleName, place: place)
        } catch {
            throw ConfigurationError(error.message, help: error.help)
        }
        guard rule.isConfigurable else {
            throw ConfigurationError(
                "\(place): rule '\(ruleName)' is an error and its level cannot be changed",
                help: "only " + Rule.allCases.filter(\.isConfigurable).map { "'\($0.id)'" }.joined(separator: ", ") + " can be configured"
            )
        }
        guard let level = RuleLevel(rawValue: levelName) else {
            let levels = RuleLevel.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            throw ConfigurationError(
                "\(levelPlace): unknown level '\(levelName)' for rule '\(ruleName)'",
                help: RuleLevel.closest(to: levelName).map { "did you mean '\($0.rawValue)'? the levels are \(levels)" }
                    ?? "use one of \(levels)"
            )
        }
        levels[rule] = level
    }

    private static func error(_ document: YAMLDocument, _ node: YAMLNode.ID, _ message: String) -> ConfigurationError {
        let range = document.range(of: node)
        return ConfigurationError("\(range.file):\(range.start.line):\(range.start.column): \(message)")
    }
}
