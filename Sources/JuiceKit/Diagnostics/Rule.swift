/// How serious a diagnostic is. Only errors make a book invalid.
public enum Severity: String, Sendable, Hashable, CaseIterable {
    case error
    case warning
    case info
}

/// The stable id of every check, kept in one catalogue with its default severity
/// and a one-line summary.
///
/// Ids are part of the tools' output contract (text, JSON, CI formats): they never
/// change once shipped, and a new check gets a new id.
public enum Rule: String, Sendable, Hashable, CaseIterable, Comparable {
    case yamlSyntax = "yaml-syntax"
    case resourceLimit = "resource-limit"
    case invalidType = "invalid-type"
    case unknownKey = "unknown-key"
    case unsupportedVersion = "unsupported-version"
    case invalidName = "invalid-name"
    case duplicateKey = "duplicate-key"
    case duplicateDefinition = "duplicate-definition"
    case unknownFruit = "unknown-fruit"
    case zeroAmount = "zero-amount"
    case negativeAmount = "negative-amount"
    case invalidAmount = "invalid-amount"
    case emptyRecipe = "empty-recipe"
    case recipeCycle = "recipe-cycle"
    case amountOverflow = "amount-overflow"
    case unusedFruit = "unused-fruit"
    case unusedRecipe = "unused-recipe"
    case neverMakeable = "never-makeable"
    case missingStock = "missing-stock"
    case unusedSuppression = "unused-suppression"

    /// The id as printed: stable kebab-case.
    public var id: String { rawValue }

    /// The severity a rule has unless configured otherwise.
    public var defaultSeverity: Severity {
        switch self {
        case .unusedFruit, .unusedRecipe, .unusedSuppression: return .warning
        case .neverMakeable, .missingStock: return .info
        default: return .error
        }
    }

    /// Whether configuration and suppression comments may change the rule.
    /// The rules that are errors by default are not: they make a book
    /// unusable, so no setting may hide them from `juice-lint` while
    /// `juice-run` refuses the book.
    public var isConfigurable: Bool { defaultSeverity != .error }

    /// One line saying what the rule catches.
    public var summary: String {
        switch self {
        case .yamlSyntax: return "the file is not well-formed YAML, or not UTF-8/UTF-16 text"
        case .resourceLimit: return "the input exceeds a safety bound (nesting depth, alias expansion, scalar size)"
        case .invalidType: return "a value has the wrong shape, such as a sequence where a mapping belongs"
        case .unknownKey: return "a key the recipe language does not define"
        case .unsupportedVersion: return "a 'version' other than 1"
        case .invalidName: return "an id that is empty, contains whitespace, '#' or control characters, or is reserved"
        case .duplicateKey: return "the same key twice in one mapping"
        case .duplicateDefinition: return "the same id defined twice, in one file or across files"
        case .unknownFruit: return "an ingredient or stock entry that names nothing declared"
        case .zeroAmount: return "a recipe amount of 0"
        case .negativeAmount: return "a negative amount, stock or price"
        case .invalidAmount: return "an amount that is not a whole decimal number, or is too large"
        case .emptyRecipe: return "a recipe or menu item with no ingredients"
        case .recipeCycle: return "recipes that contain themselves, directly or through others"
        case .amountOverflow: return "a flattened amount too large to represent"
        case .unusedFruit: return "a declared fruit that no menu item uses, directly or through recipes"
        case .unusedRecipe: return "an intermediate recipe that no menu item reaches"
        case .neverMakeable: return "a menu item that needs more of some fruit than the opening stock holds"
        case .missingStock: return "a declared fruit with no stock entry"
        case .unusedSuppression: return "a suppression comment that suppressed nothing, or names an unknown rule"
        }
    }

    public static func < (lhs: Rule, rhs: Rule) -> Bool { lhs.rawValue < rhs.rawValue }
}
