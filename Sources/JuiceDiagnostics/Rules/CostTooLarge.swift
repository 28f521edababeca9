@_spi(Internals) import JuiceSupport
import JuiceSource
extension RuleDescriptor {
    /// `cost-too-large`: a menu item whose cost is past what the tools can count.
    static let costTooLarge = RuleDescriptor(
        rule: .costTooLarge,
        defaultSeverity: .warning,
        summary: "a menu item whose cost is too large to count",
        description: """
            Costs are counted exactly, as fractions of 64-bit whole numbers: a whole cost of at most \
            9223372036854775807 of the smallest currency unit. A menu item whose cost passes that (each \
            fruit's amount times its 'cost:'), or that uses a recipe whose batch's cost does (a batch is \
            counted whole before it is shared over its yield), cannot be counted: the menu card, the \
            shopping list, the run's money and the editor's hover show it as too large to count, never as \
            a wrong number, and its margin is not known. It is most often a cost typed with too many digits \
            or in the wrong unit.
            """,
        help: "Check the fruits' costs and the amounts the item uses.",
        wrongExample: """
            fruits:
              saffron: { cost: 4611686018427387904 }
            stock:
              saffron: 10
            menu:
              saffron-tea:
                price: 5000
                recipe: { saffron: 3 }   # 3 x 4611686018427387904 is too large
            """ + "\n",
        fixedExample: """
            fruits:
              saffron: { cost: 1200 }
            stock:
              saffron: 10
            menu:
              saffron-tea:
                price: 5000
                recipe: { saffron: 3 }
            """ + "\n"
    )
}
