extension RuleDescriptor {
    /// `duplicate-key`: the same key twice in one mapping.
    static let duplicateKey = RuleDescriptor(
        rule: .duplicateKey,
        defaultSeverity: .error,
        summary: "the same key twice in one mapping",
        description: """
            The same key written twice in one mapping is ambiguous: YAML does not say which value wins, \
            and a reader of the file cannot tell which one was meant. Recipes are where this bites: \
            '{ mango: 2, kiwi: 1, mango: 1 }' does not add up to 3 mangoes. The compiler keeps the first \
            value, reports the second, and points a note at the first.
            """,
        help: "Keep one of the two entries; to use more of an ingredient, raise its amount.",
        wrongExample: """
            fruits:
              mango:
              kiwi:
            stock:
              mango: 10
              kiwi: 10
            menu:
              mango-kiwi-juice:
                recipe: { mango: 2, kiwi: 1, mango: 1 }
            """ + "\n",
        fixedExample: """
            fruits:
              mango:
              kiwi:
            stock:
              mango: 10
              kiwi: 10
            menu:
              mango-kiwi-juice:
                recipe: { mango: 3, kiwi: 1 }
            """ + "\n"
    )
}
