extension RuleDescriptor {
    /// `negative-amount`: a negative amount, stock or price.
    static let negativeAmount = RuleDescriptor(
        rule: .negativeAmount,
        defaultSeverity: .error,
        summary: "a negative amount, stock or price",
        description: """
            Amounts, stock and prices count whole things, so none of them can be negative: a shop cannot \
            hold -5 kiwis or charge -500 for a juice. A negative number is reported instead of being \
            clamped, since whatever it was meant to say is unclear.
            """,
        help: "Use a whole number of at least 0 for stock and price, and at least 1 for a recipe amount.",
        wrongExample: """
            fruits:
              mango:
            stock:
              mango: -5
            menu:
              mango-juice:
                recipe: { mango: 2 }
            """ + "\n",
        fixedExample: """
            fruits:
              mango:
            stock:
              mango: 5
            menu:
              mango-juice:
                recipe: { mango: 2 }
            """ + "\n"
    )
}
