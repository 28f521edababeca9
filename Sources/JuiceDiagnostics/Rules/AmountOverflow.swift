extension RuleDescriptor {
    /// `amount-overflow`: a flattened amount too large to represent.
    static let amountOverflow = RuleDescriptor(
        rule: .amountOverflow,
        defaultSeverity: .error,
        summary: "a flattened amount too large to represent",
        description: """
            A menu item's need for each fruit is the product of the amounts along every path through its \
            nested recipes, added up. Each amount may be valid on its own and the total still exceed \
            9223372036854775807, the largest count the shop can represent. Rather than wrap around to a \
            wrong or negative number, the compiler reports the ingredient where the total overflows.
            """,
        help: "Use smaller amounts in the recipe or the recipes it contains.",
        wrongExample: """
            fruits:
              mango:
            stock:
              mango: 100
            recipes:
              crate: { mango: 1000000000 }
            menu:
              mango-crates:
                recipe: { crate: 10000000000 }   # 10^19 mangoes
            """ + "\n",
        fixedExample: """
            fruits:
              mango:
            stock:
              mango: 100
            recipes:
              crate: { mango: 24 }
            menu:
              mango-crates:
                recipe: { crate: 2 }
            """ + "\n"
    )
}
