extension Array {
    /// Room for `extra` more elements, growing at least geometrically:
    /// `reserveCapacity` alone allocates exactly what is asked, so calling it
    /// once per file would copy the whole array once per file.
    package mutating func reserve(_ extra: Int) {
        let needed = count + extra
        if needed > capacity { reserveCapacity(Swift.max(needed, 2 * capacity)) }
    }
}
