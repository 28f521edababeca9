extension RuleDescriptor {
    /// `duplicate-definition`: the same id defined twice, in one file or across files.
    static let duplicateDefinition = RuleDescriptor(
        rule: .duplicateDefinition,
        defaultSeverity: .error,
        summary: "the same id defined twice, in one file or across files",
        description: """
            Fruits, intermediate recipes and menu items share one namespace across every file of the \
            book, because an ingredient or an order names them by id alone. Defining the same id twice, \
            as a fruit and a recipe, in two files, or in two sections, would make every use of it \
            ambiguous. The same goes for a fruit's stock set twice. A note points at the first definition.
            """,
        help: "Rename one of the two, or remove the duplicate; keep one stock entry per fruit.",
        wrongExample: """
            fruits:
              mango:
              kiwi:
            stock:
              mango: 10
              kiwi: 10
            recipes:
              tropical: { mango: 1, kiwi: 1 }
            menu:
              tropical:           # already defined as a recipe
                recipe: { tropical: 2 }
            """ + "\n",
        fixedExample: """
            fruits:
              mango:
              kiwi:
            stock:
              mango: 10
              kiwi: 10
            recipes:
              tropical: { mango: 1, kiwi: 1 }
            menu:
              tropical-juice:
                recipe: { tropical: 2 }
            """ + "\n"
    )
}
