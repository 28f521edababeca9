@_spi(Internals) import JuiceSupport
import JuiceSource
extension RuleDescriptor {
    /// `substitute-not-a-fruit`: a substitute that names a recipe or a menu item.
    static let substituteNotAFruit = RuleDescriptor(
        rule: .substituteNotAFruit,
        defaultSeverity: .error,
        summary: "a substitute that names a recipe or a menu item, not a fruit",
        description: """
            A substitute stands in for a missing unit of fruit with units of another fruit taken from \
            stock, so each name under a fruit's 'substitutes:' must be a fruit. A recipe or a menu item is \
            declared, so this is not an unknown name, but it cannot be taken from stock unit for unit: an \
            order would have to make it first. It is an error because the book cannot say what such an \
            order takes.
            """,
        help: "Name a fruit declared under 'fruits:', or list the fruits the recipe is made of.",
        wrongExample: """
            version: 2
            fruits:
              mango: { substitutes: { mango-puree: 2 } }
            stock:
              mango: 10
            recipes:
              mango-puree: { mango: 1 }
            menu:
              mango-juice:
                recipe: { mango: 2 }
              mango-smoothie:
                recipe: { mango-puree: 1 }
            """ + "\n",
        fixedExample: """
            version: 2
            fruits:
              mango: { substitutes: { mango-puree: 2 } }
              mango-puree:
            stock:
              mango: 10
              mango-puree: 4
            menu:
              mango-juice:
                recipe: { mango: 2 }
              mango-smoothie:
                recipe: { mango-puree: 1 }
            """ + "\n"
    )
}
