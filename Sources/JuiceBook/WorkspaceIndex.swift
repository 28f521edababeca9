import JuiceSource
import JuiceDiagnostics
/// What every id in a snapshot names and where it is used: the queries an
/// editor asks (go to definition, find references); what an item needs is the
/// engine's answer (`Capacity.need`).
///
/// Definitions and references are as written, problems included: a repeated
/// definition is listed after the first, and a reference to an unknown name
/// is still a reference.
public struct WorkspaceIndex: Sendable {
    /// One declaration of an id.
    public struct Definition: Sendable, Hashable {
        /// The id as written, escapes resolved.
        public let id: String
        /// What the id is declared as.
        public let kind: DeclarationKind
        /// The id's key where it is declared.
        public let range: SourceRange
        /// The label as declared (a fruit's, a menu item's), if any.
        public var label: String? = nil
        /// A fruit's emoji, if declared.
        public var emoji: String? = nil
        /// A menu item's price, if declared and valid.
        public var price: Int? = nil
    }

    /// One use of an id: as an ingredient, as a stock entry's fruit, or as
    /// a fruit's substitute.
    public struct Reference: Sendable, Hashable {
        /// Whether the reference is an ingredient, a stock entry or a substitute.
        public enum Role: Sendable, Hashable {
            case ingredient
            case stock
            /// A name in a fruit's `substitutes:` (version 2); its owner is the fruit.
            case substitute
        }

        /// The id as written, escapes resolved.
        public let id: String
        /// Whether it is an ingredient or a stock entry.
        public let role: Role
        /// The name's key where it is used.
        public let range: SourceRange
        /// The recipe or menu item whose ingredient it is, or the fruit whose
        /// substitute it is; nil for stock.
        public var owner: String? = nil
        /// A stock entry's amount, when it is a valid count.
        public var amount: Int? = nil
    }

    /// Every definition of every id, book files in link order, each file's
    /// in the order written.
    public let definitions: [Definition]
    /// Every reference to every id, in the same order.
    public let references: [Reference]
    /// Every suppression comment: book files in order, then the stock file.
    public let suppressions: [Suppression]

    private let definitionsByID: [String: [Int]]
    private let referencesByID: [String: [Int]]

    init(units: [WorkspaceUnit], book: RecipeBook?) {
        var definitions: [Definition] = []
        var references: [Reference] = []
        // A file's references: every ingredient, then every substitute, then
        // every stock entry. A large file's parts are its pieces in order, so
        // each kind is read from all of them in turn (the fuzz target
        // `recipe-bytes` holds the pieces to the whole file).
        for unit in units {
            for file in unit.parts { Self.add(file, to: &definitions, &references) }
            for file in unit.parts { Self.addSubstitutes(file, to: &references) }
            for entry in unit.parts.flatMap(\.stock) {
                references.append(Reference(id: entry.fruit, role: .stock, range: entry.range, amount: entry.amount))
            }
            for entry in unit.parts.flatMap(\.leftOutStock) {
                references.append(Reference(id: entry.fruit, role: .stock, range: entry.range))
            }
        }
        self.definitions = definitions
        self.references = references
        suppressions = units.flatMap(\.suppressions)
        definitionsByID = Dictionary(grouping: definitions.indices, by: { definitions[$0].id })
        referencesByID = Dictionary(grouping: references.indices, by: { references[$0].id })
    }

    /// A part's definitions and ingredient references.
    private static func add(_ file: DeclarationCollector, to definitions: inout [Definition], _ references: inout [Reference]) {
        for entry in file.declarations {
            let declared = entry.definition
            if declared.kind == .fruit {
                let fruit = file.fruits[declared.index]
                definitions.append(Definition(id: fruit.id, kind: .fruit, range: fruit.range, label: fruit.label, emoji: fruit.emoji))
            } else {
                let blend = file.blends[declared.index]
                definitions.append(Definition(
                    id: blend.id, kind: declared.kind == .recipe ? .recipe : .menuItem, range: blend.range,
                    label: blend.label, price: blend.price
                ))
            }
        }
        var owners = [String?](repeating: nil, count: file.ingredients.count)
        for blend in file.blends {
            for index in blend.ingredients where owners.indices.contains(index) { owners[index] = blend.id }
        }
        for shadow in file.leftOut {
            for index in shadow.blend.ingredients where owners.indices.contains(index) && owners[index] == nil {
                owners[index] = shadow.blend.id
            }
        }
        for (index, ingredient) in file.ingredients.enumerated() {
            references.append(Reference(id: ingredient.name, role: .ingredient, range: ingredient.range, owner: owners[index]))
        }
    }

    /// A part's substitute references.
    private static func addSubstitutes(_ file: DeclarationCollector, to references: inout [Reference]) {
        guard file.declaresSubstitutes else { return }
        for fruit in file.fruits {
            for substitute in fruit.substitutes {
                references.append(Reference(id: substitute.name, role: .substitute, range: substitute.range, owner: fruit.id))
            }
        }
    }

    /// Every definition of `id`, the one that stands first.
    public func definitions(of id: String) -> [Definition] {
        (definitionsByID[id] ?? []).map { definitions[$0] }
    }

    /// Every use of `id`, in file order.
    public func references(to id: String) -> [Reference] {
        (referencesByID[id] ?? []).map { references[$0] }
    }
}
