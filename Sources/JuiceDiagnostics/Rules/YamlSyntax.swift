extension RuleDescriptor {
    /// `yaml-syntax`: the file is not well-formed YAML, or not UTF-8/UTF-16 text.
    static let yamlSyntax = RuleDescriptor(
        rule: .yamlSyntax,
        defaultSeverity: .error,
        summary: "the file is not well-formed YAML, or not UTF-8/UTF-16 text",
        description: """
            A recipe file must be well-formed YAML in UTF-8 or UTF-16. When libyaml cannot read a \
            document, nothing after the mistake can be read reliably, so the compiler reports where \
            reading stopped and drops that whole document rather than build a shop from half of it. \
            Unclosed brackets and quotes, a second ':' in a plain value, tabs used for indentation and an \
            alias to an anchor that was never defined are the usual causes.
            """,
        help: "Fix the YAML at the reported place: close brackets and quotes, quote values that contain ': ', and indent with spaces.",
        wrongExample: """
            fruits:
              mango:
            stock:
              mango: 10
            menu:
              mango-juice:
                recipe: { mango: 2    # the '}' is missing
            """ + "\n",
        fixedExample: """
            fruits:
              mango:
            stock:
              mango: 10
            menu:
              mango-juice:
                recipe: { mango: 2 }
            """ + "\n"
    )
}
