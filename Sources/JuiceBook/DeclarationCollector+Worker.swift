import JuiceSource
@_spi(Internals) import JuiceYAML
extension DeclarationCollector {
    /// What one thread keeps from file to file: a composer, whose arrays grow
    /// once and are then reused, and how densely the files so far held
    /// ingredients and blends.
    ///
    /// A file's ingredient and blend lists are kept by the book, so each
    /// file gets lists of its own. They are made with room for what the
    /// densest file so far would hold at this file's size: one allocation,
    /// rather than the doublings of a growing array, each a copy and fresh
    /// memory the kernel hands over page by page. Room that goes unused is
    /// never touched, so it costs address space, not memory. (The lists were
    /// collected into the worker's own arrays and copied out at their exact
    /// size, a copy of every ingredient that took 4% of a worker's time on
    /// lint-deep.)
    package struct Worker {
        package init() {}

        var composer = YAMLComposer()
        /// Whether the collectors keep labels and emoji (`DeclarationCollector.keepsLabels`).
        package var keepsLabels = true
        /// The most ingredients and blends per KiB of input so far,
        /// rounded up; before the first file, a guess above the benchmark
        /// books' densities (21 and 7), so that the first file's lists do
        /// not grow by doubling either. (Room never used is never touched.)
        private var ingredientsPerKiB = 32
        private var blendsPerKiB = 16

        /// Composes one file and collects what it declares: the whole of a
        /// file's work that needs no other file.
        package mutating func collect(_ file: SourceFile) -> DeclarationCollector {
            withBuffers(bytes: file.bytes.count) { composer, collector in
                collector.diagnostics += composer.compose(bytes: file.bytes, file: file.path) { collector.collect($0) }
            }
        }

        /// Runs `body` on a new collector with room for what `bytes` of input
        /// are likely to hold, and hands it back.
        package mutating func withBuffers(bytes: Int, _ body: (inout YAMLComposer, inout DeclarationCollector) -> Void) -> DeclarationCollector {
            var collector = DeclarationCollector()
            collector.keepsLabels = keepsLabels
            collector.ingredients.reserveCapacity(Self.room(ingredientsPerKiB, bytes, for: type(of: collector.ingredients)))
            collector.blends.reserveCapacity(Self.room(blendsPerKiB, bytes, for: type(of: collector.blends)))
            body(&composer, &collector)
            ingredientsPerKiB = max(ingredientsPerKiB, Self.perKiB(collector.ingredients.count, bytes))
            blendsPerKiB = max(blendsPerKiB, Self.perKiB(collector.blends.count, bytes))
            return collector
        }

        /// `rate` per KiB of `bytes`, and an eighth more; no more than
        /// `Array.maximumRoomAhead`, past which a list grows as arrays do.
        private static func room<Element>(_ rate: Int, _ bytes: Int, for _: [Element].Type) -> Int {
            let kib = bytes / 1024 + 1
            let maximum = [Element].maximumRoomAhead
            let (room, overflow) = rate.multipliedReportingOverflow(by: kib)
            let capped = overflow ? maximum : min(room, maximum)
            return min(capped + capped / 8, maximum)
        }

        private static func perKiB(_ count: Int, _ bytes: Int) -> Int {
            count / (bytes / 1024 + 1) + 1
        }
    }
}
