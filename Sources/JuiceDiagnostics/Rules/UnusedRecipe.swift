extension RuleDescriptor {
    /// `unused-recipe`: an intermediate recipe that no menu item reaches.
    static let unusedRecipe = RuleDescriptor(
        rule: .unusedRecipe,
        defaultSeverity: .warning,
        summary: "an intermediate recipe that no menu item reaches",
        description: """
            An intermediate recipe is never sold on its own; it only matters as an ingredient. One that \
            no menu item reaches, directly or through other recipes, is dead weight, and often means a \
            menu item names the wrong recipe. It is a warning: the book still works.
            """,
        help: "Use the recipe as an ingredient of a menu item, or remove it.",
        wrongExample: """
            fruits:
              mango:
              kiwi:
            stock:
              mango: 10
              kiwi: 10
            recipes:
              tropical-base: { mango: 1, kiwi: 1 }   # no menu item uses it
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
            recipes:
              tropical-base: { mango: 1, kiwi: 1 }
            menu:
              mango-juice:
                recipe: { mango: 2 }
              kiwi-juice:
                recipe: { kiwi: 3 }
              tropical-juice:
                recipe: { tropical-base: 2 }
            """ + "\n"
    )
}
