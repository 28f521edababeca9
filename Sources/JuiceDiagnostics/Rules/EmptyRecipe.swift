extension RuleDescriptor {
    /// `empty-recipe`: a recipe or menu item with no ingredients.
    package static let emptyRecipe = RuleDescriptor(
        rule: .emptyRecipe,
        defaultSeverity: .error,
        summary: "a recipe or menu item with no ingredients",
        description: """
            An intermediate recipe or a menu item must list at least one ingredient, and a menu item must \
            have a 'recipe'. An item with no ingredients could be sold forever without using any fruit, \
            which is never what a shop means; most often the recipe was forgotten or indented under the \
            wrong key.
            """,
        help: "Add 'recipe: { FRUIT: AMOUNT }' with at least one ingredient, or remove the item.",
        wrongExample: """
            fruits:
              mango:
            stock:
              mango: 10
            menu:
              mango-juice:
                label: Mango juice
                price: 4500
            """ + "\n",
        fixedExample: """
            fruits:
              mango:
            stock:
              mango: 10
            menu:
              mango-juice:
                label: Mango juice
                price: 4500
                recipe: { mango: 2 }
            """ + "\n"
    )
}
