extension RuleDescriptor {
    /// `missing-stock`: a declared fruit with no stock entry.
    package static let missingStock = RuleDescriptor(
        rule: .missingStock,
        defaultSeverity: .info,
        summary: "a declared fruit with no stock entry",
        description: """
            A declared fruit with no entry under 'stock' starts at 0, so every menu item that needs it is \
            refused until a restock. Writing the stock of every fruit, even 'fruit: 0', makes the opening \
            state explicit. This is information, not an error.
            """,
        help: "Add the fruit under 'stock', with 0 if the shop opens without it.",
        wrongExample: """
            fruits:
              mango:
              kiwi:
            stock:
              mango: 10           # no stock entry for kiwi
            menu:
              mango-juice:
                recipe: { mango: 2 }
              kiwi-juice:
                recipe: { kiwi: 3 }
            """ + "\n",
        fixedExample: """
            fruits:
              mango:
              kiwi:
            stock:
              mango: 10
              kiwi: 10
            menu:
              mango-juice:
                recipe: { mango: 2 }
              kiwi-juice:
                recipe: { kiwi: 3 }
            """ + "\n"
    )
}
