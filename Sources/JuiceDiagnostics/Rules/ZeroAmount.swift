extension RuleDescriptor {
    /// `zero-amount`: a recipe amount of 0.
    static let zeroAmount = RuleDescriptor(
        rule: .zeroAmount,
        defaultSeverity: .error,
        summary: "a recipe amount of 0",
        description: """
            A recipe amount says how many of an ingredient one batch or order takes, so it is at least 1. \
            An amount of 0 contributes nothing, which usually means a placeholder that was never filled in \
            or an ingredient that was meant to be removed. Stock and price may be 0; a recipe amount may not.
            """,
        help: "Use an amount of at least 1, or remove the ingredient.",
        wrongExample: """
            fruits:
              mango:
              kiwi:
            stock:
              mango: 10
              kiwi: 10
            menu:
              mango-kiwi-juice:
                recipe: { mango: 2, kiwi: 0 }
            """ + "\n",
        fixedExample: """
            fruits:
              mango:
              kiwi:
            stock:
              mango: 10
              kiwi: 10
            menu:
              mango-kiwi-juice:
                recipe: { mango: 2, kiwi: 1 }
            """ + "\n"
    )
}
