import JuiceBook
/// A text format `RecipeGraph` can render.
public enum RecipeGraphFormat: String, CaseIterable, Sendable {
    /// A Mermaid flowchart, which GitHub renders inside a ```mermaid block.
    case mermaid
    /// Graphviz DOT, for `dot -Tsvg`.
    case dot
}

/// Draws a recipe book as a graph: menu items, intermediate recipes and fruits
/// as nodes, and an edge from each menu item or recipe to each of its
/// ingredients, labelled with the amount.
///
/// Node ids are made from indices (`m0`, `r0`, `f0`), never from the book's
/// ids, and every label is escaped for its format, so no id or label can break
/// out of its node. Nodes and edges come in declaration order: menu items,
/// then recipes, then fruits, so the same book always renders the same text.
public enum RecipeGraph {
    /// The graph of `book` in `format`, ending in a newline.
    public static func render(_ book: RecipeBook, format: RecipeGraphFormat) -> String {
        let nodes = self.nodes(of: book)
        let edges = self.edges(of: book)
        switch format {
        case .mermaid: return mermaid(nodes: nodes, edges: edges)
        case .dot: return dot(nodes: nodes, edges: edges)
        }
    }

    /// The first letter of a node's id in the graph's text.
    private static func prefix(_ kind: DeclarationKind) -> String {
        switch kind {
        case .menuItem: return "m"
        case .recipe: return "r"
        case .fruit: return "f"
        }
    }

    private struct Node {
        var kind: DeclarationKind
        var id: String
        /// Unescaped text: emoji and label where declared, then the book's id.
        var text: String
    }

    private struct Edge {
        var from: String
        var to: String
        var amount: Int
    }

    private static func nodeID(_ component: RecipeBook.Component) -> String {
        switch component {
        case .menuItem(let index): return Self.prefix(.menuItem) + String(index)
        case .recipe(let index): return Self.prefix(.recipe) + String(index)
        case .fruit(let index): return Self.prefix(.fruit) + String(index)
        }
    }

    /// "label (id)" when a label differs from the id, with the emoji in front.
    private static func text(id: String, label: String, emoji: String?) -> String {
        let name = label == id ? id : "\(label) (\(id))"
        guard let emoji, !emoji.isEmpty else { return name }
        return "\(emoji) \(name)"
    }

    private static func nodes(of book: RecipeBook) -> [Node] {
        book.menu.enumerated().map { index, item in
            Node(kind: .menuItem, id: nodeID(.menuItem(index)), text: text(id: item.id, label: item.label, emoji: nil))
        }
        + book.recipes.enumerated().map { index, recipe in
            // A recipe's yield is on its node: how many servings a batch makes.
            Node(
                kind: .recipe, id: nodeID(.recipe(index)),
                text: text(id: recipe.id, label: recipe.label, emoji: nil) + (recipe.yield == 1 ? "" : " ×\(recipe.yield)")
            )
        }
        + book.fruits.enumerated().map { index, fruit in
            Node(kind: .fruit, id: nodeID(.fruit(index)), text: text(id: fruit.id, label: fruit.label, emoji: fruit.emoji))
        }
    }

    private static func edges(of book: RecipeBook) -> [Edge] {
        func edges(from component: RecipeBook.Component, _ ingredients: [RecipeBook.Ingredient]) -> [Edge] {
            ingredients.map { Edge(from: nodeID(component), to: nodeID($0.component), amount: $0.amount) }
        }
        return book.menu.indices.flatMap { edges(from: .menuItem($0), book.menu[$0].ingredients) }
            + book.recipes.indices.flatMap { edges(from: .recipe($0), book.recipes[$0].ingredients) }
    }

    // MARK: Mermaid

    private static func mermaid(nodes: [Node], edges: [Edge]) -> String {
        var lines = [
            "flowchart LR",
            "    classDef menu fill:#fde2b3,stroke:#b36b00",
            "    classDef recipe fill:#dde8f8,stroke:#3f6aa6",
            "    classDef fruit fill:#dff3dc,stroke:#3a8a33",
        ]
        for node in nodes {
            let label = "\"" + mermaidEscaped(node.text) + "\""
            switch node.kind {
            case .menuItem: lines.append("    \(node.id)([\(label)]):::menu")
            case .recipe: lines.append("    \(node.id){{\(label)}}:::recipe")
            case .fruit: lines.append("    \(node.id)((\(label))):::fruit")
            }
        }
        for edge in edges {
            lines.append("    \(edge.from) -->|\(edge.amount)| \(edge.to)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text for inside a Mermaid `"…"` label. Mermaid reads `#name;` and `#35;`
    /// as entity codes, so `"` and every character that could end the string,
    /// open HTML or start an entity (including `#` itself) is written as one;
    /// a backtick would turn the label into Markdown. Control characters are
    /// written as `\u{…}`, which keeps each node on one line.
    static func mermaidEscaped(_ text: String) -> String {
        var out = ""
        for scalar in text.escapingControlCharacters.unicodeScalars {
            switch scalar {
            case "\"": out += "#quot;"
            case "#": out += "#35;"
            case "&": out += "#amp;"
            case "<": out += "#lt;"
            case ">": out += "#gt;"
            case "`": out += "#96;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    // MARK: DOT

    private static func dot(nodes: [Node], edges: [Edge]) -> String {
        var lines = [
            "digraph recipes {",
            "    rankdir=LR;",
            "    node [fontname=\"sans-serif\"];",
            "    edge [fontname=\"sans-serif\"];",
        ]
        for node in nodes {
            let style: String
            switch node.kind {
            case .menuItem: style = "shape=box, style=\"rounded,filled\", fillcolor=\"#fde2b3\""
            case .recipe: style = "shape=hexagon, style=filled, fillcolor=\"#dde8f8\""
            case .fruit: style = "shape=ellipse, style=filled, fillcolor=\"#dff3dc\""
            }
            lines.append("    \(node.id) [label=\"\(dotEscaped(node.text))\", \(style)];")
        }
        for edge in edges {
            lines.append("    \(edge.from) -> \(edge.to) [label=\"\(edge.amount)\"];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text for inside a DOT `"…"` string: `\` and `"` are escaped, so a
    /// backslash in a label is shown as written and never read as `\n` or `\N`.
    /// Control characters become `\u{…}` first, and their backslash is escaped
    /// with the rest.
    static func dotEscaped(_ text: String) -> String {
        var out = ""
        for scalar in text.escapingControlCharacters.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
