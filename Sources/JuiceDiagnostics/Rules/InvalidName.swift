extension RuleDescriptor {
    /// `invalid-name`: an id that is empty, contains whitespace, '#' or control characters, or is reserved.
    static let invalidName = RuleDescriptor(
        rule: .invalidName,
        defaultSeverity: .error,
        summary: "an id that is empty, contains whitespace, '#' or control characters, or is reserved",
        description: """
            Fruit, recipe and menu item ids are what order scripts, stock lines and other recipes use to \
            name things, so each must be a single word: not empty, with no whitespace, no '#' (which starts \
            a comment in an order script) and no control characters. 'restock', 'set' and 'stock' are reserved \
            because they are order-script commands. An id that breaks these rules could never be ordered \
            or referred to reliably.
            """,
        help: "Choose a single-word id such as 'mango-juice', and put the display name under 'label'.",
        wrongExample: """
            fruits:
              mango:
            stock:
              mango: 10
            menu:
              mango juice:        # an id cannot contain a space
                recipe: { mango: 2 }
            """ + "\n",
        fixedExample: """
            fruits:
              mango:
            stock:
              mango: 10
            menu:
              mango-juice:
                label: mango juice
                recipe: { mango: 2 }
            """ + "\n"
    )
}
