extension RuleDescriptor {
    /// `unsupported-version`: a 'version' other than 1 or 2.
    package static let unsupportedVersion = RuleDescriptor(
        rule: .unsupportedVersion,
        defaultSeverity: .error,
        summary: "a 'version' other than 1 or 2",
        description: """
            'version' names the edition of the recipe language a file is written in, and this \
            juice-maker reads versions 1 and 2. A file that asks for any other version (or writes the \
            number quoted, as text, or as a float) may rely on rules this juice-maker does not know, so it \
            is refused instead of being read under the wrong rules. The key is optional: a file without \
            it may use everything version 2 has, while 'version: 1' keeps a file to version 1.
            """,
        help: "Write 'version: 2' (or 'version: 1'), or leave the key out.",
        wrongExample: """
            version: 3
            fruits:
              mango:
            stock:
              mango: 10
            menu:
              mango-juice:
                recipe: { mango: 2 }
            """ + "\n",
        fixedExample: """
            version: 2
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
