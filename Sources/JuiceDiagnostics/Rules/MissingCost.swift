extension RuleDescriptor {
    /// `missing-cost`: a priced menu item whose cost is unknown, in a book that declares costs.
    static let missingCost = RuleDescriptor(
        rule: .missingCost,
        defaultSeverity: .info,
        summary: "a priced menu item whose cost is unknown, in a book that declares costs",
        description: """
            Once a book declares a 'cost:' for some fruit, the menu card, the run's fruit cost and the \
            shopping list show money. A priced menu item that uses a fruit with no 'cost:' has an unknown \
            cost per serving and margin: they are shown as unknown, never as 0. This names the fruits \
            whose cost is missing. A book that declares no cost at all is not told about it.
            """,
        help: "Give each fruit the item uses a 'cost:'.",
        wrongExample: """
            fruits:
              mango: { cost: 800 }
              kiwi:
            stock:
              mango: 10
              kiwi: 10
            menu:
              mango-kiwi:
                price: 3000
                recipe: { mango: 1, kiwi: 1 }   # kiwi has no cost
            """ + "\n",
        fixedExample: """
            fruits:
              mango: { cost: 800 }
              kiwi: { cost: 500 }
            stock:
              mango: 10
              kiwi: 10
            menu:
              mango-kiwi:
                price: 3000
                recipe: { mango: 1, kiwi: 1 }
            """ + "\n"
    )
}
