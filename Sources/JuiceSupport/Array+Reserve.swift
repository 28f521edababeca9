extension Array {
    /// Room for `extra` more elements, growing at least geometrically:
    /// `reserveCapacity` alone allocates exactly what is asked, so calling it
    /// once per file would copy the whole array once per file.
    package mutating func reserve(_ extra: Int) {
        let needed = count + extra
        if needed > capacity { reserveCapacity(Swift.max(needed, 2 * capacity)) }
    }
}

extension Array {
    /// The most elements a list is given ahead of need from a guess (a
    /// rate per KiB of input, a bound summed over the graph): 256 MB of
    /// address space. Room never used is never touched, so it costs address
    /// space rather than memory; past it, the list grows as arrays do. The
    /// one cap for every such guess, so that none reserves without limit.
    package static var maximumRoomAhead: Int { (256 << 20) / Swift.max(1, MemoryLayout<Element>.stride) }
}
