@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics
@_spi(Internals) import JuiceYAML
/// Resolves the names in every fruit's `substitutes:` (version 2) to fruit
/// indices, for `RecipeBook.Fruit.substitutes`, and reports the names that
/// are no fruit: `unknown-fruit` (with a did-you-mean among the fruits) for
/// a name nothing declares, `substitute-not-a-fruit` for a recipe or menu
/// item. A fruit naming itself was reported by `SubstituteReader` and is
/// left out here.
///
/// The linker calls it only when some file declared substitutes
/// (`BookDeclarations.declaresSubstitutes`): a book without them makes no
/// list and walks no fruit. A type of its own, not a `Linker` extension:
/// the linker is near its 1,000-line bound (ARCHITECTURE.md, "Size").
struct SubstituteResolver {
    let declarations: BookDeclarations
    private(set) var diagnostics: [Diagnostic] = []
    /// The fruits' ids for did-you-mean, indexed at the first unknown name.
    private var fruitIDs: SuggestionIndex?

    init(declarations: BookDeclarations) {
        self.declarations = declarations
    }

    /// Each fruit's substitutes, by fruit index, in the order written; a
    /// name that is no fruit, or a ratio that is not valid (reported by the
    /// reader), is left out.
    mutating func resolve() -> [[RecipeBook.Substitute]] {
        var resolved = [[RecipeBook.Substitute]](repeating: [], count: declarations.fruits.count)
        for (index, fruit) in declarations.fruits.enumerated() {
            let written = fruit.substitutes
            guard !written.isEmpty else { continue }
            var substitutes: [RecipeBook.Substitute] = []
            substitutes.reserveCapacity(written.count)
            for substitute in written where substitute.name != fruit.id {
                guard let target = fruitIndex(of: substitute, for: fruit, among: written) else { continue }
                if let ratio = substitute.ratio { substitutes.append(RecipeBook.Substitute(fruit: target, ratio: ratio)) }
            }
            resolved[index] = substitutes
        }
        return resolved
    }

    /// `reach` with each substitute of a fruit it uses counted as used: an
    /// order short of the fruit takes it. One step only, as an order follows
    /// them (a substitute's own substitutes are not).
    static func reaching(_ substitutes: [[RecipeBook.Substitute]]?, _ reach: Linker.Reach) -> Linker.Reach {
        guard let substitutes else { return reach }
        var reach = reach
        let used = reach.usedFruit
        for (fruit, list) in substitutes.enumerated() where used.indices.contains(fruit) && used[fruit] {
            for substitute in list where used.indices.contains(substitute.fruit) { reach.usedFruit[substitute.fruit] = true }
        }
        return reach
    }

    /// The index of the fruit `substitute` names, or nil after reporting
    /// what it names instead. A name declared only where it does not count
    /// is not reported: that problem is, and fixing it makes the name known.
    private mutating func fruitIndex(
        of substitute: SubstituteDeclaration, for fruit: FruitDeclaration, among siblings: [SubstituteDeclaration]
    ) -> Int? {
        let name = substitute.name
        if let definition = declarations.definitions.value(for: name) {
            if definition.kind == .fruit { return definition.index }
            diagnostics.append(Diagnostic(
                .substituteNotAFruit, at: substitute.range,
                "substitute '\(name)' of '\(fruit.id)' is a \(definition.kind.rawValue), not a fruit",
                help: "a substitute is taken from stock unit for unit, so it must be a fruit declared under 'fruits:'"
            ))
            return nil
        }
        if declarations.uncountedIDs.contains(name) { return nil }
        let index = fruitIDs ?? SuggestionIndex(declarations.fruits.map(\.id))
        fruitIDs = index
        // The fruit itself is no suggestion: it cannot stand in for itself.
        let match = index.closestMatch(to: name).flatMap { $0.name == fruit.id ? nil : $0 }
        // A fix must not rename it to a name the fruit already lists: that would repeat a key.
        let listed = match.map { match in siblings.contains { $0.name == match.name } } ?? false
        diagnostics.append(Diagnostic(
            .unknownFruit, at: substitute.range, "unknown fruit '\(name)', listed as a substitute of '\(fruit.id)'",
            help: match.map { Suggestion.didYouMean(suggesting: $0.name) } ?? "declare it under 'fruits:', or fix the name",
            fixes: Fix.replacingName(name, with: listed ? nil : match, at: substitute.range, spelling: substitute.spelling)
        ))
        return nil
    }
}
