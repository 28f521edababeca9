extension RuleDescriptor {
    /// `unused-fruit`: a declared fruit that no menu item uses, directly or through recipes.
    static let unusedFruit = RuleDescriptor(
        rule: .unusedFruit,
        defaultSeverity: .warning,
        summary: "a declared fruit that no menu item uses, directly or through recipes",
        description: """
            A fruit in the catalog that no menu item uses, directly or through intermediate recipes, is \
            stock the shop buys and can never sell. It is usually left over from a removed menu item, or a \
            sign that a new item was forgotten. It is a warning: the book still works.
            """,
        help: "Use the fruit in a menu item or a recipe a menu item uses, or remove it from 'fruits' and 'stock'.",
        wrongExample: """
            fruits:
              mango:
              kiwi:               # nothing on the menu uses kiwi
            stock:
              mango: 10
              kiwi: 10
            menu:
              mango-juice:
                recipe: { mango: 2 }
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
