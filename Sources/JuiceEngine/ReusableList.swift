/// A list that keeps its storage between uses: emptying it sets its count
/// to 0 and leaves the slots to be written over.
///
/// An order that draws on substitutes fills and empties a few short lists
/// (`SubstituteCover`). As arrays, emptied with `removeAll(keepingCapacity:)`
/// and refilled with `append`, they took the substitutes benchmark's replay
/// to 1.56× the instructions of the same book without substitutes (the goal
/// is 1.5×); `removeAll` alone was 9.2 M of its 215 M instructions on
/// 100,000 orders (callgrind, docs/benchmarks.md). For elements that need
/// no clean-up (plain values), which is all it holds.
struct ReusableList<Element: Sendable>: Sendable {
    private var storage: [Element] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    subscript(index: Int) -> Element { storage[index] }

    mutating func append(_ element: Element) {
        if count < storage.count { storage[count] = element } else { storage.append(element) }
        count += 1
    }

    mutating func removeAll() { count = 0 }

    /// The elements, as an array (a copy).
    var elements: [Element] { Array(storage[..<count]) }

    /// Sorts the elements in place.
    mutating func sort(by areInIncreasingOrder: (Element, Element) -> Bool) {
        storage[..<count].sort(by: areInIncreasingOrder)
    }

    /// Whether the elements are in ascending order of `key`.
    func isSorted(by key: (Element) -> Int) -> Bool {
        var index = 1
        while index < count {
            if key(storage[index - 1]) > key(storage[index]) { return false }
            index += 1
        }
        return true
    }
}
