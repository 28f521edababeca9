extension RuleDescriptor {
    /// `unknown-fruit`: an ingredient, stock entry or substitute that names nothing declared.
    static let unknownFruit = RuleDescriptor(
        rule: .unknownFruit,
        defaultSeverity: .error,
        summary: "an ingredient, stock entry or substitute that names nothing declared",
        description: """
            Every ingredient must name a declared fruit, intermediate recipe or menu item, and every stock \
            entry and every substitute (version 2) a declared fruit. A name that matches nothing is usually a typo, and the shop could \
            never make the item that needs it, so the compiler reports it with the closest declared id as \
            a suggestion.
            """,
        help: "Fix the name, or declare it under 'fruits:' or 'recipes:'.",
        wrongExample: """
            fruits:
              mango:
            stock:
              mango: 10
            menu:
              mango-juice:
                recipe: { mangoo: 2 }
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
