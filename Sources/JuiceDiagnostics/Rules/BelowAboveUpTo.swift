extension RuleDescriptor {
    /// `below-above-up-to`: an (s, S) restock whose `below` is above its `up-to`.
    static let belowAboveUpTo = RuleDescriptor(
        rule: .belowAboveUpTo,
        defaultSeverity: .error,
        summary: "a restock whose 'below' is above its 'up-to'",
        description: """
            'restock: { below: s, up-to: S }' orders fruit at the end of a day whose stock on hand plus \
            on order is below s, enough to bring it to at least S. With s above S, an order that brings \
            the stock to S still leaves it below s, so the policy would order again the next day, and the \
            next: the two numbers are almost always swapped.
            """,
        help: "Make 'below' at most 'up-to' (swap them if they were written the wrong way round).",
        wrongExample: """
            version: 2
            fruits:
              kiwi: { cost: 500, restock: { below: 40, up-to: 10 } }
            stock:
              kiwi: 20
            menu:
              kiwi-juice: { price: 2000, recipe: { kiwi: 2 } }
            """ + "\n",
        fixedExample: """
            version: 2
            fruits:
              kiwi: { cost: 500, restock: { below: 10, up-to: 40 } }
            stock:
              kiwi: 20
            menu:
              kiwi-juice: { price: 2000, recipe: { kiwi: 2 } }
            """ + "\n"
    )
}
