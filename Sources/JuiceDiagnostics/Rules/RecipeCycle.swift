extension RuleDescriptor {
    /// `recipe-cycle`: recipes that contain themselves, directly or through others.
    static let recipeCycle = RuleDescriptor(
        rule: .recipeCycle,
        defaultSeverity: .error,
        summary: "recipes that contain themselves, directly or through others",
        description: """
            A recipe cannot contain itself, directly or through other recipes: making it would first \
            require making it, so no amount of fruit would ever be enough. The diagnostic spells out the \
            path of the cycle, such as 'base -> syrup -> base', with notes at the other steps.
            """,
        help: "Break the cycle by removing one of the ingredients along the reported path.",
        wrongExample: """
            fruits:
              mango:
              kiwi:
            stock:
              mango: 10
              kiwi: 10
            recipes:
              base: { syrup: 1, kiwi: 1 }
              syrup: { mango: 2, base: 1 }   # base -> syrup -> base
            menu:
              mango-kiwi-juice:
                recipe: { base: 1 }
            """ + "\n",
        fixedExample: """
            fruits:
              mango:
              kiwi:
            stock:
              mango: 10
              kiwi: 10
            recipes:
              base: { syrup: 1, kiwi: 1 }
              syrup: { mango: 2 }
            menu:
              mango-kiwi-juice:
                recipe: { base: 1 }
            """ + "\n"
    )
}
