/// A value in its own allocation, with value semantics.
///
/// For a field most records leave empty: as `OutOfLine<Value>?` it costs a
/// record one pointer, nil when absent, rather than the value's whole size
/// inline. (Version 2's fruit terms inline made each of a book's 100,000
/// fruits about 100 bytes larger: docs/benchmarks.md, issue 27, fourth
/// session.) Being an enum, it is copied on write like any value.
package indirect enum OutOfLine<Value: Sendable>: Sendable {
    case boxed(Value)

    package init(_ value: Value) { self = .boxed(value) }

    package var value: Value {
        switch self {
        case .boxed(let value): value
        }
    }
}

extension Optional {
    /// Changes the value kept out of line, starting from `empty` when there
    /// is none: a record's setters for its out-of-line fields, in one place.
    package mutating func modify<Value>(from empty: @autoclosure () -> Value, _ change: (inout Value) -> Void)
    where Wrapped == OutOfLine<Value> {
        var value = self?.value ?? empty()
        change(&value)
        self = OutOfLine(value)
    }
}
