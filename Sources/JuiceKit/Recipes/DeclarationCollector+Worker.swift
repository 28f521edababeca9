extension DeclarationCollector {
    /// What one thread keeps from file to file: a composer, and the arrays a
    /// file's ingredients and composites are collected into, which grow once
    /// and are then reused. Each file's lists are copied out at their exact
    /// size, since the book keeps them: one fresh allocation per list, rather
    /// than the doublings of a new array per file (memory the kernel must
    /// hand over page by page) and their slack kept to the end.
    struct Worker {
        var composer = YAMLComposer()
        var ingredients: [IngredientDeclaration] = []
        var composites: [CompositeDeclaration] = []

        /// Composes one file and collects what it declares: the whole of a
        /// file's work that needs no other file.
        mutating func collect(_ file: SourceFile) -> DeclarationCollector {
            withBuffers { composer, collector in
                collector.diagnostics += composer.compose(bytes: file.bytes, file: file.path) { collector.collect($0) }
            }
        }

        /// Runs `body` on a new collector that fills this worker's buffers,
        /// and hands the collector back with lists of its own exact size.
        mutating func withBuffers(_ body: (inout YAMLComposer, inout DeclarationCollector) -> Void) -> DeclarationCollector {
            var collector = DeclarationCollector()
            swap(&collector.ingredients, &ingredients)
            swap(&collector.composites, &composites)
            body(&composer, &collector)
            swap(&collector.ingredients, &ingredients)
            swap(&collector.composites, &composites)
            collector.ingredients = ingredients.exactCopy()
            collector.composites = composites.exactCopy()
            ingredients.removeAll(keepingCapacity: true)
            composites.removeAll(keepingCapacity: true)
            return collector
        }
    }
}
