@_spi(Internals) import JuiceSupport
import JuiceSource
extension RuleDescriptor {
    /// `substitute-is-itself`: a fruit that lists itself among its substitutes.
    static let substituteIsItself = RuleDescriptor(
        rule: .substituteIsItself,
        defaultSeverity: .error,
        summary: "a fruit that lists itself among its substitutes",
        description: """
            A fruit's 'substitutes:' (version 2) lists other fruits that may stand in for it when an order \
            is short of it. An order always takes the fruit's own stock first, so the fruit standing in for \
            itself means nothing; it is usually a copy-and-paste slip or the wrong id. It is an error \
            because the book says something that cannot be what was meant.
            """,
        help: "Remove the fruit from its own substitutes, or name the fruit that was meant.",
        wrongExample: """
            version: 2
            fruits:
              mango: { substitutes: { mango: 1, frozen-mango: 1 } }
              frozen-mango:
            stock:
              mango: 10
              frozen-mango: 10
            menu:
              mango-juice:
                recipe: { mango: 2 }
            """ + "\n",
        fixedExample: """
            version: 2
            fruits:
              mango: { substitutes: { frozen-mango: 1 } }
              frozen-mango:
            stock:
              mango: 10
              frozen-mango: 10
            menu:
              mango-juice:
                recipe: { mango: 2 }
            """ + "\n"
    )
}
