/// One list kept as the arrays it was handed in, rather than copied into one.
///
/// The book's merge takes each file's (or each piece's) lists of fruits and
/// ingredients in order. Copying them into one array was most of the merge's
/// time on books of 100,000 items: every element copied, every string in it
/// retained, and the new array's pages faulted in, on the one thread that
/// merges while the other cores are still parsing. An array handed over as
/// it is costs nothing to keep: it shares the collector's buffer.
///
/// Element `i` is found by a binary search over where each array starts;
/// walking the whole list (`for`, `map`, `enumerated`) goes array by array.
/// Arrays shorter than `copyBelow` are copied onto the end of the last one
/// instead, so that a book of many small files keeps few arrays.
struct ChunkedList<Element: Sendable>: RandomAccessCollection, Sendable {
    private var lists: [[Element]] = []
    /// The index of each array's first element.
    private var starts: [Int] = []
    /// Whether the last array was made here and may be appended to, rather
    /// than handed over (appending to a handed-over array would copy it).
    private var lastIsOwn = false
    /// Arrays of fewer elements than this are copied rather than kept.
    let copyBelow: Int
    private(set) var endIndex = 0

    var startIndex: Int { 0 }

    /// An empty list that keeps every array of `copyBelow` elements or more
    /// as it is handed in.
    init(copyBelow: Int) {
        self.copyBelow = copyBelow
    }

    subscript(position: Int) -> Element {
        let list = segment(holding: position)
        return lists[list][position - starts[list]]
    }

    /// What `get` reads of element `position`, given with the number of the
    /// array that holds it, read where the element is kept: for one field
    /// of a large element, without copying the rest.
    @inline(__always)
    func read<T>(_ position: Int, _ get: (_ element: Element, _ segment: Int) -> T) -> T {
        let list = segment(holding: position)
        return get(lists[list][position - starts[list]], list)
    }

    /// Adds `list` at the end: kept as it is, or copied when short.
    mutating func append(contentsOf list: [Element]) {
        guard !list.isEmpty else { return }
        if list.count < copyBelow {
            if !lastIsOwn {
                lists.append([])
                starts.append(endIndex)
                lastIsOwn = true
            }
            lists[lists.count - 1].append(contentsOf: list)
        } else {
            lists.append(list)
            starts.append(endIndex)
            lastIsOwn = false
        }
        endIndex += list.count
    }

    /// How many arrays the list is kept in.
    var segmentCount: Int { lists.count }

    /// Array `index` and the index of its first element: for work that
    /// goes over every element and wants plain arrays.
    func segment(_ index: Int) -> (first: Int, elements: [Element]) {
        (starts[index], lists[index])
    }

    /// The array that holds element `position`: the last one starting at or before it.
    private func segment(holding position: Int) -> Int {
        var low = 0, high = starts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if starts[middle] <= position { low = middle } else { high = middle }
        }
        return low
    }

    func makeIterator() -> Iterator {
        Iterator(lists: lists)
    }

    /// The elements in order, array by array, with no search per element.
    struct Iterator: IteratorProtocol {
        let lists: [[Element]]
        var list = 0
        package var offset = 0

        mutating func next() -> Element? {
            while list < lists.count {
                if offset < lists[list].count {
                    defer { offset += 1 }
                    return lists[list][offset]
                }
                list += 1
                offset = 0
            }
            return nil
        }
    }

    /// Whether `field` of every element, in order, is `expected`, each
    /// element read where it is kept: a comparison with no list built and
    /// no element copied out.
    func fieldsEqual<T: Equatable>(_ field: (Element) -> T, _ expected: ArraySlice<T>) -> Bool {
        guard expected.count == count else { return false }
        var position = expected.startIndex
        for list in lists.indices {
            for index in lists[list].indices {
                guard field(lists[list][index]) == expected[position] else { return false }
                position += 1
            }
        }
        return true
    }

    /// `map` over the arrays one by one (the standard library's would
    /// search for every element).
    func map<T>(_ transform: (Element) throws -> T) rethrows -> [T] {
        var result: [T] = []
        result.reserveCapacity(count)
        // By index, so that each element is lent to `transform` where it
        // is kept: a `for` over the array would copy it out first,
        // retaining and releasing every string in it.
        for list in lists.indices {
            for index in lists[list].indices { result.append(try transform(lists[list][index])) }
        }
        return result
    }
}
