import Testing
@_spi(Internals) @testable import JuiceSupport

/// The namespace's slots keep only the low half of each hash (8-byte slots,
/// for peak memory): names whose hashes agree there must still be told
/// apart by name, at every size the table grows through.
@Suite struct NameTableTests {
    /// Hashes equal in their low 32 bits and different above them.
    private static func sharedLowHalf(_ index: Int) -> Int { index << 32 | 0x5A5A }

    @Test func namesWhoseHashesShareTheLowHalfAreToldApart() {
        var table = NameTable<Int>()
        let names = (0..<300).map { "name-\($0)" }
        for (index, name) in names.enumerated() {
            #expect(table.insertIfAbsent(name, hash: Self.sharedLowHalf(index), index) == nil)
        }
        #expect(table.count == 300)
        for (index, name) in names.enumerated() {
            #expect(table.value(for: name, hash: Self.sharedLowHalf(index)) == index)
        }
        // A name not stored, probed with a hash that matches stored tags.
        #expect(table.value(for: "absent", hash: Self.sharedLowHalf(7)) == nil)
        // The first value stays when a name comes again.
        #expect(table.insertIfAbsent("name-3", hash: Self.sharedLowHalf(3), 99) == 3)
        #expect(table.count == 300)
    }

    @Test func aReservedTableFindsWhatItHeldBefore() {
        var table = NameTable<Int>()
        for index in 0..<40 { _ = table.insertIfAbsent("id\(index)", hash: "id\(index)".hashValue, index) }
        table.reserve(100_000)
        for index in 0..<40 { #expect(table.value(for: "id\(index)") == index) }
        #expect(table.value(for: "id40") == nil)
    }
}
