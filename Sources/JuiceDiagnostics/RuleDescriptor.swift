/// Everything the tools say about one rule, as one value: its id, default
/// severity, one-line summary, the paragraph `juice-lint explain` prints, how
/// to fix what it reports, and a pair of small recipe files, one that
/// triggers the rule and the same file fixed.
///
/// Each rule's descriptor lives in its own file under `Rules/`, the way
/// swift-format keeps a rule per file; `Rule.descriptor` is the registry.
/// Adding a rule means adding its descriptor, its case and its check. The
/// tests lint both examples, so an example that stops showing its rule
/// fails the build instead of misleading a reader.
public struct RuleDescriptor: Sendable {
    /// The rule described. Its id is the `Rule` case's raw value, written
    /// there once.
    public let rule: Rule
    /// The id as printed: stable kebab-case, part of the output contract.
    public var id: String { rule.id }
    /// The severity the rule has unless configured otherwise.
    public let defaultSeverity: Severity
    /// One line saying what the rule catches (`juice-lint rules`).
    public let summary: String
    /// A paragraph on what the rule checks and why it matters.
    public let description: String
    /// How to fix what the rule reports, in one or two sentences.
    public let help: String
    /// A small, complete recipe file that triggers the rule.
    public let wrongExample: String
    /// `wrongExample` with the mistake fixed: no errors or warnings.
    public let fixedExample: String

    /// The long text `juice-lint explain RULE` prints: the id and default
    /// severity, the description, the wrong and fixed examples, and the fix.
    ///
    /// Prose is wrapped at 80 columns; examples are indented four spaces and
    /// kept exactly as written, so they can be copied into a file.
    public var explanation: String {
        var lines = ["\(id) (\(defaultSeverity.rawValue))", ""]
        lines += Self.wrap(description, width: 80)
        lines += ["", "Wrong:", ""] + Self.indent(wrongExample)
        lines += ["", "Fixed:", ""] + Self.indent(fixedExample)
        lines += [""] + Self.wrap("Help: " + help, width: 80)
        return lines.joined(separator: "\n")
    }

    /// Greedy word wrap; a word longer than the width gets a line of its own.
    private static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// The example's lines, indented four spaces; blank lines stay empty so the
    /// text has no trailing whitespace.
    private static func indent(_ example: String) -> [String] {
        var lines = example.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines.map { $0.isEmpty ? "" : "    " + $0 }
    }
}
