extension RuleDescriptor {
    /// `unknown-key`: a key the recipe language does not define.
    package static let unknownKey = RuleDescriptor(
        rule: .unknownKey,
        defaultSeverity: .error,
        summary: "a key the recipe language does not define",
        description: """
            The recipe language defines a fixed set of keys: 'version', 'fruits', 'stock', 'recipes' and \
            'menu' at the top, 'label' and 'emoji' on a fruit, and 'label', 'price' and 'recipe' on a \
            menu item. Any other key is almost always a typo, and ignoring it would lose what it says: a \
            misspelled 'prize' would leave the item without a price. The diagnostic suggests the closest \
            known key.
            """,
        help: "Fix the spelling (the diagnostic suggests the closest key), or remove the key.",
        wrongExample: """
            fruits:
              mango:
            stock:
              mango: 10
            menu:
              mango-juice:
                prize: 4500       # did you mean 'price'?
                recipe: { mango: 2 }
            """ + "\n",
        fixedExample: """
            fruits:
              mango:
            stock:
              mango: 10
            menu:
              mango-juice:
                price: 4500
                recipe: { mango: 2 }
            """ + "\n"
    )
}
