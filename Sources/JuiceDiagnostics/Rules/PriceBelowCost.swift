extension RuleDescriptor {
    /// `price-below-cost`: a menu item whose price is below its cost per serving.
    static let priceBelowCost = RuleDescriptor(
        rule: .priceBelowCost,
        defaultSeverity: .warning,
        summary: "a menu item whose price is below what one serving costs to make",
        description: """
            A menu item's cost per serving is what its ingredients cost: each fruit's amount times its \
            'cost:', and each recipe's share of a batch (the batch's cost divided by its 'yield:'). When \
            the price is below that, every order loses money. That can be intended (a promotion), so it \
            is a warning, but it is more often a price typed with a digit missing or a cost in the wrong unit.
            """,
        help: "Raise the price, or check the fruits' costs and the recipes' yields.",
        wrongExample: """
            fruits:
              mango: { cost: 800 }
            stock:
              mango: 10
            menu:
              mango-juice:
                price: 1200
                recipe: { mango: 2 }   # costs 1600
            """ + "\n",
        fixedExample: """
            fruits:
              mango: { cost: 800 }
            stock:
              mango: 10
            menu:
              mango-juice:
                price: 2500
                recipe: { mango: 2 }
            """ + "\n"
    )
}
