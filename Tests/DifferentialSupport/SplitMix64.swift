/// A tiny seeded pseudo-random generator (Steele, Lea and Flood's SplitMix64),
/// so every generated book and script is reproducible from its seed alone.
///
/// The helpers below draw numbers, picks and shuffles with their own arithmetic
/// rather than the standard library's `random(in:using:)` and
/// `shuffled(using:)`, whose algorithms are not promised to stay the same from
/// one Swift release to the next: a seed must mean the same case everywhere.
package struct SplitMix64: Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in `range`. The modulo bias is far below anything a test notices.
    package mutating func int(in range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next() % width)
    }

    /// True `numerator` times in `denominator`.
    package mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        int(in: 1...denominator) <= numerator
    }

    package mutating func pick<T>(_ items: [T]) -> T {
        precondition(!items.isEmpty, "pick from an empty list")
        return items[int(in: 0...(items.count - 1))]
    }

    /// Fisher–Yates.
    package mutating func shuffled<T>(_ items: [T]) -> [T] {
        var result = items
        for index in result.indices.reversed() where index > 0 {
            result.swapAt(index, int(in: 0...index))
        }
        return result
    }
}
