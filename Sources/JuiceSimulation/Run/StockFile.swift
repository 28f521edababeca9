import JuiceBook
/// The YAML a saved stock is written as: a document with a `stock:` section,
/// which `juice-run --stock` and `juice-lint --stock` read back.
public enum StockFile {
    /// The YAML text of a stock, by fruit index, with a comment saying how to
    /// use it. In a book that keeps servings, the servings on hand follow the
    /// fruit (`servings`, by recipe index), and the file says `version: 2`,
    /// which lets stock name recipes; otherwise it is the version 1 file it
    /// always was.
    public static func render(_ counts: [Int], servings: [Int] = [], book: RecipeBook) -> String {
        let keepsServings = book.keepsServings && !book.recipes.isEmpty
        var text = """
            # Stock saved by juice-run. Replay from it with `juice-run --stock FILE`;
            # check it with `juice-lint --stock FILE`.
            version: \(keepsServings ? 2 : 1)
            stock:

            """
        if book.fruits.isEmpty && !keepsServings { text = String(text.dropLast()) + " {}\n" }
        for (index, fruit) in book.fruits.enumerated() {
            text += "  \(yamlKey(fruit.id)): \(counts[index])\n"
        }
        if keepsServings {
            for (index, recipe) in book.recipes.enumerated() {
                text += "  \(yamlKey(recipe.id)): \(servings.indices.contains(index) ? servings[index] : 0)\n"
            }
        }
        return text
    }

    /// Words YAML 1.1 reads as something other than a string.
    private static let specialWords: Set<String> = [
        "y", "n", "yes", "no", "on", "off", "true", "false", "null", "~",
    ]

    /// The id as written plainly when YAML reads it back as the same string,
    /// double-quoted with escapes otherwise.
    static func yamlKey(_ id: String) -> String {
        let scalars = Array(id.unicodeScalars)
        let plain = !scalars.isEmpty
            && scalars[0].properties.isAlphabetic
            && scalars.allSatisfy { $0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "-" || $0 == "_" || $0 == "." }
            && !specialWords.contains(id.lowercased())
        if plain { return id }
        var quoted = "\""
        for scalar in scalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar.properties.generalCategory == .format:
                let hex = String(scalar.value, radix: 16)
                quoted += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            default:
                quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}
