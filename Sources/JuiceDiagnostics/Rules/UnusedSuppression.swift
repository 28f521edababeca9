extension RuleDescriptor {
    /// `unused-suppression`: a suppression comment that suppressed nothing, or names an unknown rule.
    static let unusedSuppression = RuleDescriptor(
        rule: .unusedSuppression,
        defaultSeverity: .warning,
        summary: "a suppression comment that suppressed nothing, or names an unknown rule",
        description: """
            A comment such as '# juice-lint disable-line RULE', '# juice-lint disable-next-line RULE' or \
            '# juice-lint disable-file RULE' hides a diagnostic on purpose. One that hides nothing, \
            because the problem was fixed or the comment sits on the wrong line, is waiting to hide the \
            next real problem there without anyone deciding to; one that names a rule that does not exist \
            never did what its author meant. Both are reported.
            """,
        help: "Remove the comment, or fix the rule id or the line it is on.",
        wrongExample: """
            fruits:
              mango:
              kiwi:               # juice-lint disable-line unused-fruit
            stock:
              mango: 10
              kiwi: 10
            menu:
              mango-juice:
                recipe: { mango: 2 }
              kiwi-juice:         # kiwi is used now: the comment hides nothing
                recipe: { kiwi: 3 }
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
