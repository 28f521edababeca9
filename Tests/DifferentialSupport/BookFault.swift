/// A mistake written into a generated book on purpose, so that lint output is
/// checked on diagnostics (with notes, help and several files), not only on
/// a clean book's warnings.
package enum BookFault: String, CaseIterable, Sendable, CustomStringConvertible {
    /// An ingredient names a fruit with an extra letter: `unknown-fruit`, with "did you mean".
    case unknownFruit = "unknown fruit"
    /// A fruit or blend declared again in another file: `duplicate-definition`,
    /// with a note at the first. Which one is first depends on file order,
    /// which is what makes this the interesting case for stability.
    case duplicateAcrossFiles = "duplicate across files"
    /// A fruit's stock given again in another file.
    case duplicateStock = "duplicate stock"
    /// A recipe amount of 0: `zero-amount`.
    case zeroAmount = "zero amount"
    /// A stock of -1 to -9: `negative-amount`.
    case negativeStock = "negative stock"
    /// A blend with no ingredients: `empty-recipe`.
    case emptyRecipe = "empty recipe"
    /// A blend made to contain itself, directly or through another: `recipe-cycle`.
    case cycle
    /// A trailing document that is not well-formed YAML: `yaml-syntax`.
    case syntaxError = "syntax error"
    /// `prize:` beside a menu item's `recipe`: `unknown-key`, with "did you mean".
    case unknownKey = "unknown key"
    /// A menu item renamed to a reserved word (`stock`, `set`, `restock`): `invalid-name`.
    case reservedName = "reserved name"
    /// A `# juice-lint disable-line` comment, which may silence a warning or be
    /// reported as unused; never an error.
    case suppression

    /// Whether the fault always makes the book invalid.
    package var isError: Bool { self != .suppression }

    package var description: String { rawValue }
}
