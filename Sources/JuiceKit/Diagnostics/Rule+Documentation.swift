// Placeholder: the long rule documentation is being written; these fall back
// to the one-line summary until then.
extension Rule {
    /// A paragraph on what the rule checks and why it matters.
    public var fullDescription: String { summary }

    /// How to fix what the rule reports, in one or two sentences.
    public var helpText: String { summary }

    /// A small recipe file that triggers the rule.
    public var wrongExample: String { "" }

    /// The same file, fixed.
    public var fixedExample: String { "" }
}
