extension RuleDescriptor {
    /// `resource-limit`: the input exceeds a safety bound (nesting depth, alias expansion, scalar size).
    static let resourceLimit = RuleDescriptor(
        rule: .resourceLimit,
        defaultSeverity: .error,
        summary: "the input exceeds a safety bound (nesting depth, alias expansion, scalar size)",
        description: """
            Recipe files are small, so the compiler refuses input that could only be an attack or an \
            accident: collections nested more than 64 levels deep, aliases that together stand for \
            more than 1,000,000 nodes in one file, or a key or value longer than 65,536 bytes. Aliases are never copied, but a chain of anchors \
            that each repeat the one before (an "alias bomb") would still cost time and memory to walk. \
            Past the alias or size bound the document is dropped at once, and past the depth bound the \
            rest of the file is not read, so a hostile file cannot stall the linter or a build.
            """,
        help: "Nest less deeply, expand fewer aliases and shorten huge scalars; a real recipe book never comes near these bounds.",
        wrongExample: """
            # Each list names the one above ten times, so 'f' alone stands for
            # 1,111,111 nodes. The compiler stops past 1,000,000 and drops the
            # whole document: the menu below is never read.
            fruits:
              mango:
            stock:
              mango: 10
            menu:
              mango-juice:
                recipe: { mango: 2 }
            lol:
              a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]
              b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
              c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
              d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
              e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
              f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
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
