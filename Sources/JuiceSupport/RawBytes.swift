/// Byte comparison for the hot paths that compare short UTF-8 in place:
/// ids in the replay's name table, keys and field names in the composer
/// and the collector.
@_spi(Internals) public enum RawBytes {
    /// Whether `count` bytes at `a` and `b` are the same, compared eight at
    /// a time in place: `memcmp` for an id of a dozen bytes was mostly the
    /// call, 6% of a quiet replay's time (perf).
    @inlinable public static func same(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        if count >= 8 {
            // The eights before the last, then the last eight, which may overlap them.
            var offset = 0
            while count - offset > 8 {
                if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
                    return false
                }
                offset += 8
            }
            return a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        for offset in 0..<count where a.load(fromByteOffset: offset, as: UInt8.self) != b.load(fromByteOffset: offset, as: UInt8.self) {
            return false
        }
        return true
    }

    /// Whether two buffers hold the same bytes.
    @inlinable public static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let first = a.baseAddress, let second = b.baseAddress else { return true }
        return same(UnsafeRawPointer(first), UnsafeRawPointer(second), count: a.count)
    }
}
