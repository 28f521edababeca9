extension RuleDescriptor {
    /// `never-makeable`: a menu item that needs more of some fruit than the opening stock holds.
    static let neverMakeable = RuleDescriptor(
        rule: .neverMakeable,
        defaultSeverity: .info,
        summary: "a menu item that needs more of some fruit than the opening stock holds",
        description: """
            A menu item that needs more of some fruit than the opening stock holds is refused on every \
            order until the shop restocks. That can be intended (a seasonal item waiting for a delivery), \
            so this is only information, but it is worth knowing before the first customer asks.
            """,
        help: "Raise the fruit's opening stock, or lower the amount the item needs.",
        wrongExample: """
            fruits:
              strawberry:
            stock:
              strawberry: 10
            menu:
              strawberry-juice:
                recipe: { strawberry: 16 }   # 16 needed, 10 in stock
            """ + "\n",
        fixedExample: """
            fruits:
              strawberry:
            stock:
              strawberry: 20
            menu:
              strawberry-juice:
                recipe: { strawberry: 16 }
            """ + "\n"
    )
}
