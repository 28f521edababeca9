extension BookDeclarations {
    /// The book's recipes and menu items, in the order declared, kept in
    /// their files' arrays as fruits are (`ChunkedList`).
    ///
    /// In a file's array, a blend's `ingredients` count from the file's
    /// first ingredient; read through this list, they count from the book's
    /// first, as `BookDeclarations.ingredients` numbers them. Adding each
    /// file's base to every blend meant copying all of them into one
    /// array on the merging thread: on the 100-file book that was 16 of the
    /// 29 ms that thread spent merging while the other cores parsed (perf).
    ///
    /// A blend is large (strings for its id, place and label): the
    /// linker's walks read the one field they need (`kinds`, `ids`,
    /// `ingredients(of:)`, `forEachIngredients`) where it is kept rather
    /// than copy it out.
    struct BlendList: RandomAccessCollection, Sendable {
        typealias Blend = BlendDeclaration

        private var lists = ChunkedList<Blend>(copyBelow: 0)
        /// For each array in `lists`, the book's number of its file's first ingredient.
        private var ingredientBases: [Int] = []

        var startIndex: Int { 0 }
        var endIndex: Int { lists.endIndex }

        subscript(position: Int) -> Blend {
            lists.read(position) { blend, segment in
                var blend = blend
                blend.ingredients = shifted(blend.ingredients, segment)
                return blend
            }
        }

        /// Every blend's kind, in order: for walks that test the kind of
        /// each, which would otherwise search for every one.
        var kinds: [DeclarationKind] {
            lists.map(\.kind)
        }

        /// Every blend's id, in order, read in place.
        var ids: [String] {
            lists.map(\.id)
        }

        /// Whether `names` are every blend's id, in order, read in place.
        func idsEqual(_ names: ArraySlice<String>) -> Bool {
            lists.fieldsEqual(\.id, names)
        }

        /// The book's numbers of blend `position`'s ingredients.
        func ingredients(of position: Int) -> Range<Int> {
            lists.read(position) { blend, segment in shifted(blend.ingredients, segment) }
        }

        /// Every blend's ingredient numbers, in order, read array by array.
        func forEachIngredients(_ body: (Range<Int>) throws -> Void) rethrows {
            for segment in 0..<lists.segmentCount {
                let elements = lists.segment(segment).elements
                for index in elements.indices { try body(shifted(elements[index].ingredients, segment)) }
            }
        }

        /// `map` over the arrays one by one, with no search per blend.
        func map<T>(_ transform: (Blend) throws -> T) rethrows -> [T] {
            var result: [T] = []
            result.reserveCapacity(count)
            for blend in self { result.append(try transform(blend)) }
            return result
        }

        func makeIterator() -> Iterator {
            Iterator(list: self)
        }

        /// The blends in order, array by array, with no search per blend.
        struct Iterator: IteratorProtocol {
            let list: BlendList
            /// The array being read, its number in `list`, and the next place in it.
            private var elements: [Blend] = []
            private var segment = -1
            private var offset = 0

            init(list: BlendList) {
                self.list = list
            }

            mutating func next() -> Blend? {
                while offset == elements.count {
                    segment += 1
                    guard segment < list.lists.segmentCount else { return nil }
                    elements = list.lists.segment(segment).elements
                    offset = 0
                }
                var blend = elements[offset]
                offset += 1
                blend.ingredients = list.shifted(blend.ingredients, segment)
                return blend
            }
        }

        /// Adds a file's blends that stand; `ingredientBase` is the
        /// book's number of that file's first ingredient.
        mutating func append(contentsOf list: [Blend], ingredientBase: Int) {
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
