import Testing
@testable import JuiceBook
@testable import JuiceLint

/// The rendered graph is the feature, so whole outputs are asserted.
@Suite struct GraphTests {
    /// A menu item using a recipe that uses another recipe, a fruit with a label
    /// and emoji, and one with neither.
    static let nestedBook = """
        fruits:
          mango: { label: Mango, emoji: "🥭" }
          kiwi:
        stock: { mango: 10, kiwi: 5 }
        recipes:
          syrup: { mango: 2 }
          base: { syrup: 3, kiwi: 1 }
        menu:
          deluxe:
            label: Deluxe smoothie
            recipe: { base: 2, mango: 1 }
          kiwi-cup:
            recipe: { kiwi: 1 }
        """

    /// Ids and labels that would break out of a node if written unescaped:
    /// quotes, brackets, HTML, entity codes, backslashes, a backtick, a newline,
    /// and Mermaid's `end` keyword as an id.
    static let hostileBook = #"""
        fruits:
          'a"b\c<d>])': { label: "Say \"hi\" \\n #quot; & <b>x</b> `y`", emoji: "🍓" }
        menu:
          end:
            label: "two\nlines"
            recipe: { 'a"b\c<d>])': 1 }
        """#

    func book(_ yaml: String) throws -> RecipeBook {
        let compilation = compile(yaml: yaml)
        #expect(compilation.diagnostics.isEmpty, "\(compilation.spots)")
        return try #require(compilation.book)
    }

    @Test func mermaidOfANestedBook() throws {
        #expect(RecipeGraph.render(try book(Self.nestedBook), format: .mermaid) == """
            flowchart LR
                classDef menu fill:#fde2b3,stroke:#b36b00
                classDef recipe fill:#dde8f8,stroke:#3f6aa6
                classDef fruit fill:#dff3dc,stroke:#3a8a33
                m0(["Deluxe smoothie (deluxe)"]):::menu
                m1(["kiwi-cup"]):::menu
                r0{{"syrup"}}:::recipe
                r1{{"base"}}:::recipe
                f0(("🥭 Mango (mango)")):::fruit
                f1(("kiwi")):::fruit
                m0 -->|2| r1
                m0 -->|1| f0
                m1 -->|1| f1
                r0 -->|2| f0
                r1 -->|3| r0
                r1 -->|1| f1

            """)
    }

    @Test func dotOfANestedBook() throws {
        #expect(RecipeGraph.render(try book(Self.nestedBook), format: .dot) == """
            digraph recipes {
                rankdir=LR;
                node [fontname="sans-serif"];
                edge [fontname="sans-serif"];
                m0 [label="Deluxe smoothie (deluxe)", shape=box, style="rounded,filled", fillcolor="#fde2b3"];
                m1 [label="kiwi-cup", shape=box, style="rounded,filled", fillcolor="#fde2b3"];
                r0 [label="syrup", shape=hexagon, style=filled, fillcolor="#dde8f8"];
                r1 [label="base", shape=hexagon, style=filled, fillcolor="#dde8f8"];
                f0 [label="🥭 Mango (mango)", shape=ellipse, style=filled, fillcolor="#dff3dc"];
                f1 [label="kiwi", shape=ellipse, style=filled, fillcolor="#dff3dc"];
                m0 -> r1 [label="2"];
                m0 -> f0 [label="1"];
                m1 -> f1 [label="1"];
                r0 -> f0 [label="2"];
                r1 -> r0 [label="3"];
                r1 -> f1 [label="1"];
            }

            """)
    }

    @Test func mermaidEscapesHostileLabels() throws {
        #expect(RecipeGraph.render(try book(Self.hostileBook), format: .mermaid) == #"""
            flowchart LR
                classDef menu fill:#fde2b3,stroke:#b36b00
                classDef recipe fill:#dde8f8,stroke:#3f6aa6
                classDef fruit fill:#dff3dc,stroke:#3a8a33
                m0(["two\u{a}lines (end)"]):::menu
                f0(("🍓 Say #quot;hi#quot; \n #35;quot; #amp; #lt;b#gt;x#lt;/b#gt; #96;y#96; (a#quot;b\c#lt;d#gt;]))")):::fruit
                m0 -->|1| f0

            """#)
    }

    @Test func dotEscapesHostileLabels() throws {
        #expect(RecipeGraph.render(try book(Self.hostileBook), format: .dot) == #"""
            digraph recipes {
                rankdir=LR;
                node [fontname="sans-serif"];
                edge [fontname="sans-serif"];
                m0 [label="two\\u{a}lines (end)", shape=box, style="rounded,filled", fillcolor="#fde2b3"];
                f0 [label="🍓 Say \"hi\" \\n #quot; & <b>x</b> `y` (a\"b\\c<d>]))", shape=ellipse, style=filled, fillcolor="#dff3dc"];
                m0 -> f0 [label="1"];
            }

            """#)
    }
}
