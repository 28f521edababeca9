/// How serious a diagnostic is. Only errors make a book invalid.
public enum Severity: String, Sendable, Hashable, CaseIterable {
    case error
    case warning
    case info
}

/// The stable id of every check. What is said about each (severity, summary,
/// explanation, examples) is its `RuleDescriptor`, one file per rule in `Rules/`.
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
    // Version 2. New rules go last: a SARIF log numbers rules by their place here.
    case priceBelowCost = "price-below-cost"
    case missingCost = "missing-cost"
    // The planner (`juice-run plan`): restocking.
    case belowAboveUpTo = "below-above-up-to"
    case upToBelowPack = "up-to-below-pack"
    // Substitutes (issue 37).
    case substituteIsItself = "substitute-is-itself"
    case substituteNotAFruit = "substitute-not-a-fruit"
    // Costs past what `Money` holds (issue 37).
    case costTooLarge = "cost-too-large"

    /// The id as printed: stable kebab-case.
    public var id: String { rawValue }

    /// Everything said about the rule: the registry from case to descriptor
    /// (each in `Rules/`). The switch is exhaustive, so the compiler keeps it
    /// complete; `RuleDocumentationTests` checks that each case maps to the
    /// descriptor of its own rule.
    public var descriptor: RuleDescriptor { withDescriptor { copy $0 } }

    /// Reads the rule's descriptor where it is stored, lending it to `read`.
    ///
    /// `defaultSeverity` is asked of every diagnostic made, sorted and
    /// configured (600,000 times in a lint of 100,000 unused fruits); read
    /// through a returned copy, each ask retained and released the
    /// descriptor's ten strings, 73 M instructions of that lint's 3.13 G
    /// (callgrind). Lent, it is one load.
    @inline(__always)
    func withDescriptor<Result>(_ read: (borrowing RuleDescriptor) -> Result) -> Result {
        switch self {
        case .yamlSyntax: return read(.yamlSyntax)
        case .resourceLimit: return read(.resourceLimit)
        case .invalidType: return read(.invalidType)
        case .unknownKey: return read(.unknownKey)
        case .unsupportedVersion: return read(.unsupportedVersion)
        case .invalidName: return read(.invalidName)
        case .duplicateKey: return read(.duplicateKey)
        case .duplicateDefinition: return read(.duplicateDefinition)
        case .unknownFruit: return read(.unknownFruit)
        case .zeroAmount: return read(.zeroAmount)
        case .negativeAmount: return read(.negativeAmount)
        case .invalidAmount: return read(.invalidAmount)
        case .emptyRecipe: return read(.emptyRecipe)
        case .recipeCycle: return read(.recipeCycle)
        case .amountOverflow: return read(.amountOverflow)
        case .unusedFruit: return read(.unusedFruit)
        case .unusedRecipe: return read(.unusedRecipe)
        case .neverMakeable: return read(.neverMakeable)
        case .missingStock: return read(.missingStock)
        case .unusedSuppression: return read(.unusedSuppression)
        case .priceBelowCost: return read(.priceBelowCost)
        case .missingCost: return read(.missingCost)
        case .belowAboveUpTo: return read(.belowAboveUpTo)
        case .upToBelowPack: return read(.upToBelowPack)
        case .substituteIsItself: return read(.substituteIsItself)
        case .substituteNotAFruit: return read(.substituteNotAFruit)
        case .costTooLarge: return read(.costTooLarge)
        }
    }

    /// The severity a rule has unless configured otherwise.
    public var defaultSeverity: Severity { withDescriptor { $0.defaultSeverity } }

    /// Whether configuration and suppression comments may change the rule.
    /// The rules that are errors by default are not: they make a book
    /// unusable, so no setting may hide them from `juice-lint` while
    /// `juice-run` refuses the book.
    public var isConfigurable: Bool { defaultSeverity != .error }

    /// One line saying what the rule catches.
    public var summary: String { descriptor.summary }

    /// A paragraph on what the rule checks and why it matters.
    public var fullDescription: String { descriptor.description }

    /// How to fix what the rule reports, in one or two sentences.
    public var helpText: String { descriptor.help }

    /// A small, complete recipe file that triggers the rule.
    public var wrongExample: String { descriptor.wrongExample }

    /// The same file with the mistake fixed.
    public var fixedExample: String { descriptor.fixedExample }

    /// The long text `juice-lint explain RULE` prints (`RuleDescriptor.explanation`).
    public var explanation: String { descriptor.explanation }

    public static func < (lhs: Rule, rhs: Rule) -> Bool { lhs.rawValue < rhs.rawValue }
}
