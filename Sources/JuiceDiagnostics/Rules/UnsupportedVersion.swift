@_spi(Internals) import JuiceSupport
import JuiceSource
extension RuleDescriptor {
    /// `unsupported-version`: a 'version' other than 1.
    package static let unsupportedVersion = RuleDescriptor(
        rule: .unsupportedVersion,
        defaultSeverity: .error,
        summary: "a 'version' other than 1",
        description: """
            'version' names the edition of the recipe language a file is written in, and this \
            juice-maker reads version 1. A file that asks for any other version (or writes the number \
            quoted, as text, or as a float) may rely on rules this juice-maker does not know, so it is \
            refused instead of being read under the wrong rules. The key is optional.
            """,
        help: "Write 'version: 1', or leave the key out.",
        wrongExample: """
            version: 2
            fruits:
              mango:
            stock:
              mango: 10
            menu:
              mango-juice:
                recipe: { mango: 2 }
            """ + "\n",
        fixedExample: """
            version: 1
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
