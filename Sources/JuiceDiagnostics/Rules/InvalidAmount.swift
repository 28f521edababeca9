extension RuleDescriptor {
    /// `invalid-amount`: an amount that is not a whole decimal number, or is too large.
    static let invalidAmount = RuleDescriptor(
        rule: .invalidAmount,
        defaultSeverity: .error,
        summary: "an amount that is not a whole decimal number, or is too large",
        description: """
            Amounts, stock and prices are whole decimal numbers written plainly. YAML reads many other \
            spellings as numbers or as text (a quoted "3", 1.5, 1e3, 1_000, 0x10, +3, a leading zero that \
            YAML 1.1 reads as octal, or nothing at all), and each of them could mean something other than \
            what was intended, so none is accepted. A number larger than 9223372036854775807 is also \
            reported here.
            """,
        help: "Write a plain whole decimal number, without quotes, sign, '_', '.' or exponent.",
        wrongExample: """
            fruits:
              mango:
            stock:
              mango: 10
            menu:
              mango-juice:
                recipe: { mango: "2" }   # quoted: text, not a number
            """ + "\n",
        fixedExample: """
            fruits:
              mango:
            stock:
              mango: 10
            menu:
              mango-juice:
                recipe: { mango: 2 }
            """ + "\n"
    )
}
