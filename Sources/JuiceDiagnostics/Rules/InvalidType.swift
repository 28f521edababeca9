extension RuleDescriptor {
    /// `invalid-type`: a value has the wrong shape, such as a sequence where a mapping belongs.
    package static let invalidType = RuleDescriptor(
        rule: .invalidType,
        defaultSeverity: .error,
        summary: "a value has the wrong shape, such as a sequence where a mapping belongs",
        description: """
            Every place in a recipe file expects one shape of value: 'fruits', 'stock', 'recipes', 'menu' \
            and each ingredient list are mappings, amounts are whole numbers, labels and emoji are text, \
            and keys are plain scalars. A value of another shape, most often a YAML list where a mapping \
            belongs, cannot be read as what the shop meant, so it is an error rather than a guess.
            """,
        help: "Write the value in the shape the key expects, such as 'recipe: { mango: 2 }' instead of a list.",
        wrongExample: """
            fruits:
              mango:
              kiwi:
            stock:
              mango: 10
              kiwi: 10
            menu:
              mango-kiwi-juice:
                recipe:           # a list, not a mapping
                  - mango: 2
                  - kiwi: 1
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
                recipe:
                  mango: 2
                  kiwi: 1
            """ + "\n"
    )
}
