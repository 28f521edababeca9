@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics
@_spi(Internals) import JuiceYAML
extension BookDeclarations {
    /// The book's recipes and menu items, in the order declared, kept in
    /// their files' arrays as fruits are (`ChunkedList`).
    ///
    /// In a file's array, a composite's `ingredients` count from the file's
    /// first ingredient; read through this list, they count from the book's
    /// first, as `BookDeclarations.ingredients` numbers them. Adding each
    /// file's base to every composite meant copying all of them into one
    /// array on the merging thread: on the 100-file book that was 16 of the
    /// 29 ms that thread spent merging while the other cores parsed (perf).
    ///
    /// A composite is large (strings for its id, place and label): the
    /// linker's walks read the one field they need (`kinds`, `ids`,
    /// `ingredients(of:)`, `forEachIngredients`) where it is kept rather
    /// than copy it out.
    struct CompositeList: RandomAccessCollection, Sendable {
        typealias Composite = CompositeDeclaration

        private var lists = ChunkedList<Composite>(copyBelow: 0)
        /// For each array in `lists`, the book's number of its file's first ingredient.
        private var ingredientBases: [Int] = []

        var startIndex: Int { 0 }
        var endIndex: Int { lists.endIndex }

        subscript(position: Int) -> Composite {
            lists.read(position) { composite, segment in
                var composite = composite
                composite.ingredients = shifted(composite.ingredients, segment)
                return composite
            }
        }

        /// Every composite's kind, in order: for walks that test the kind of
        /// each, which would otherwise search for every one.
        var kinds: [DeclarationKind] {
            lists.map(\.kind)
        }

        /// Every composite's id, in order, read in place.
        var ids: [String] {
            lists.map(\.id)
        }

        /// The book's numbers of composite `position`'s ingredients.
        func ingredients(of position: Int) -> Range<Int> {
            lists.read(position) { composite, segment in shifted(composite.ingredients, segment) }
        }

        /// Every composite's ingredient numbers, in order, read array by array.
        func forEachIngredients(_ body: (Range<Int>) throws -> Void) rethrows {
            for segment in 0..<lists.segmentCount {
                let elements = lists.segment(segment).elements
                for index in elements.indices { try body(shifted(elements[index].ingredients, segment)) }
            }
        }

        /// `map` over the arrays one by one, with no search per composite.
        func map<T>(_ transform: (Composite) throws -> T) rethrows -> [T] {
            var result: [T] = []
            result.reserveCapacity(count)
            for composite in self { result.append(try transform(composite)) }
            return result
        }

        func makeIterator() -> Iterator {
            Iterator(list: self)
        }

        /// The composites in order, array by array, with no search per composite.
        struct Iterator: IteratorProtocol {
            let list: CompositeList
            /// The array being read, its number in `list`, and the next place in it.
            private var elements: [Composite] = []
            private var segment = -1
            private var offset = 0

            init(list: CompositeList) {
                self.list = list
            }

            mutating func next() -> Composite? {
                while offset == elements.count {
                    segment += 1
                    guard segment < list.lists.segmentCount else { return nil }
                    elements = list.lists.segment(segment).elements
                    offset = 0
                }
                var composite = elements[offset]
                offset += 1
                composite.ingredients = list.shifted(composite.ingredients, segment)
                return composite
            }
        }

        /// Adds a file's composites that stand; `ingredientBase` is the
        /// book's number of that file's first ingredient.
        mutating func append(contentsOf list: [Composite], ingredientBase: Int) {
            guard !list.isEmpty else { return }
            lists.append(contentsOf: list)
            ingredientBases.append(ingredientBase)
        }

        private func shifted(_ range: Range<Int>, _ segment: Int) -> Range<Int> {
            let base = ingredientBases[segment]
            return range.lowerBound + base..<range.upperBound + base
        }
    }
}
