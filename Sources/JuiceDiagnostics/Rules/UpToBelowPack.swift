extension RuleDescriptor {
    /// `up-to-below-pack`: a restock level smaller than one pack of the fruit.
    static let upToBelowPack = RuleDescriptor(
        rule: .upToBelowPack,
        defaultSeverity: .warning,
        summary: "a restock 'up-to' smaller than one pack",
        description: """
            Fruit is bought in whole packs ('pack:'). A restock level below one pack can never be met \
            exactly: the first purchase already overshoots it by most of a pack. That may be intended (a \
            shop that buys a pack whenever it runs out), so it is a warning, but it is more often an \
            'up-to' written in packs rather than units.
            """,
        help: "Write 'up-to' in units, at least one pack, or make the pack smaller.",
        wrongExample: """
            version: 2
            fruits:
              mango: { cost: 800, pack: 6, restock: { up-to: 4 } }
            stock:
              mango: 6
            menu:
              mango-juice: { price: 2000, recipe: { mango: 2 } }
            """ + "\n",
        fixedExample: """
            version: 2
            fruits:
              mango: { cost: 800, pack: 6, restock: { up-to: 24 } }
            stock:
              mango: 6
            menu:
              mango-juice: { price: 2000, recipe: { mango: 2 } }
            """ + "\n"
    )
}
