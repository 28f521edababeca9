import Testing

/// Issue 11, "every problem at once", through the real `juice-lint`: the
/// body of a duplicate definition is checked with a note saying it is left
/// out, a problem with an alias is placed at the alias with a note at the
/// anchor, and a document dropped for an undefined alias does not make the
/// fruit it declares ('lime') look unknown where another document uses it.
@Suite struct EveryProblemEndToEndTests {
    @Test func everyProblemIsReportedOnceAndNoFollowOn() throws {
        let result = try ToolRunner.lint("every-problem", "--color", "never", in: ToolRunner.fixtures)
        #expect(result.exitCode == 1)
        #expect(result.stdout == """
            every-problem/a.yaml:9:26: error: amount of 'kiwi' in menu item 'bad' must be a whole number, found a mapping [invalid-type]
              |
            9 |   bad: { recipe: { kiwi: *base } }
              |                          ^~~~~
            every-problem/a.yaml:6:9: note: the alias stands for the node anchored here
              |
            6 |   base: &base { mango: 1 }
              |         ^~~~~~~~~~~~~~~~~~

            every-problem/b.yaml:2:3: error: 'mk' is already defined as a menu item [duplicate-definition]
              |
            2 |   mk: { recipe: { mangoo: 1 } }
              |   ^~
            every-problem/a.yaml:8:3: note: 'mk' is first defined here
              |
            8 |   mk: { recipe: { base: 1, kiwi: 1 } }
              |   ^~
              = help: fruits, recipes and menu items share one namespace; rename one of them

            every-problem/b.yaml:2:19: error: unknown fruit 'mangoo' [unknown-fruit]
              |
            2 |   mk: { recipe: { mangoo: 1 } }
              |                   ^~~~~~
            every-problem/b.yaml:2:3: note: 'mk' here duplicates the definition at every-problem/a.yaml:8:3; it is checked, but left out of the book
              |
            2 |   mk: { recipe: { mangoo: 1 } }
              |   ^~
              = help: did you mean 'mango'?

            every-problem/b.yaml:4:26: error: undefined alias 'nope' [yaml-syntax]
              |
            4 | fruits: { lime: { label: *nope } }
              |                          ^~~~~
              = help: an alias '*nope' must come after an anchor '&nope' in the same document

            """)
        #expect(result.stderr == "files: 2, errors: 4, warnings: 0, infos: 0\n")
    }
}
