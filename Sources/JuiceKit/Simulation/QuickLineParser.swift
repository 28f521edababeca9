#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the common order-script lines straight from their bytes:
/// `MENU-ID`, `MENU-ID xN` and `restock FRUIT N`, with optional spaces and a
/// trailing comment, and blank or comment-only lines.
///
/// Replaying millions of lines is dominated by per-line `String` work, so
/// these forms skip it: ids are found in a byte-keyed table. Anything else,
/// including every line with a mistake, is left to `ScriptParser`, which gives
/// the messages; for what it accepts, this reader gives the same commands.
struct QuickLineParser: Sendable {
    enum Result: Equatable {
        /// A blank or comment-only line.
        case nothing
        case command(ScriptCommand)
        /// Not a form this reader knows; parse the line as text.
        case undecided
    }

    private let menu: ByteTable
    private let fruits: ByteTable

    init(book: RecipeBook) {
        menu = ByteTable(book.menu.map(\.id))
        fruits = ByteTable(book.fruits.map(\.id))
    }

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> Result {
        var cursor = Cursor(line)
        cursor.skipSpaces()
        if cursor.atEndOrComment { return .nothing }
        let first = cursor.word()
        if let index = menu.index(of: first) {
            cursor.skipSpaces()
            if cursor.atEndOrComment { return .command(.order(menu: index, count: 1)) }
            let repeatWord = cursor.word()
            cursor.skipSpaces()
            guard cursor.atEndOrComment, repeatWord.count >= 2, repeatWord[0] == UInt8(ascii: "x"),
                  let count = Self.number(UnsafeBufferPointer(rebasing: repeatWord[1...])),
                  count >= 1, count <= ScriptParser.maxRepeat
            else { return .undecided }
            return .command(.order(menu: index, count: count))
        }
        if Self.equals(first, "restock") {
            cursor.skipSpaces()
            guard let fruit = fruits.index(of: cursor.word()) else { return .undecided }
            cursor.skipSpaces()
            let amountWord = cursor.word()
            cursor.skipSpaces()
            guard cursor.atEndOrComment, let amount = Self.number(amountWord), amount >= 1 else { return .undecided }
            return .command(.restock(fruit: fruit, amount: amount))
        }
        return .undecided
    }

    /// Plain decimal digits with no leading zero, or nil (including on overflow).
    private static func number(_ digits: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 18, digits.count == 1 || digits[0] != UInt8(ascii: "0") else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }

    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        bytes.elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Walks one line's bytes.
    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var atEndOrComment: Bool { position >= bytes.count || bytes[position] == UInt8(ascii: "#") }

        mutating func skipSpaces() {
            while position < bytes.count, bytes[position] == UInt8(ascii: " ") || bytes[position] == UInt8(ascii: "\t") || bytes[position] == UInt8(ascii: "\r") {
                position += 1
            }
        }

        /// The bytes up to the next space, tab or `#`.
        mutating func word() -> UnsafeBufferPointer<UInt8> {
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "#") || byte == UInt8(ascii: "\r") { break }
                position += 1
            }
            return UnsafeBufferPointer(rebasing: bytes[start..<position])
        }
    }
}

/// Looks names up by their UTF-8 bytes, with no `String` made per lookup:
/// open addressing over FNV-1a hashes. Each slot keeps its name's full hash,
/// so a probe compares bytes (with `memcmp`, in one contiguous store) only
/// when the hashes already agree.
struct ByteTable: Sendable {
    private let storage: [UInt8]
    /// Where each name starts in `storage`; one extra entry marks the end.
    private let offsets: [Int]
    private let slotIndex: [Int32]
    private let slotHash: [UInt64]
    private let mask: Int

    init(_ names: [String]) {
        var storage: [UInt8] = []
        var offsets: [Int] = [0]
        for name in names {
            storage.append(contentsOf: name.utf8)
            offsets.append(storage.count)
        }
        var size = 16
        while size < names.count * 2 { size *= 2 }
        var slotIndex = [Int32](repeating: -1, count: size)
        var slotHash = [UInt64](repeating: 0, count: size)
        storage.withUnsafeBufferPointer { store in
            for index in names.indices {
                let name = UnsafeBufferPointer(rebasing: store[offsets[index]..<offsets[index + 1]])
                let hash = Self.hash(name)
                var slot = Int(truncatingIfNeeded: hash) & (size - 1)
                var repeated = false
                while slotIndex[slot] >= 0 {
                    let other = Int(slotIndex[slot])
                    if slotHash[slot] == hash, store[offsets[other]..<offsets[other + 1]].elementsEqual(name) {
                        repeated = true  // A repeated name keeps its first index.
                        break
                    }
                    slot = (slot + 1) & (size - 1)
                }
                if !repeated {
                    slotIndex[slot] = Int32(truncatingIfNeeded: index)
                    slotHash[slot] = hash
                }
            }
        }
        self.storage = storage
        self.offsets = offsets
        self.slotIndex = slotIndex
        self.slotHash = slotHash
        mask = size - 1
    }

    func index(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let query = bytes.baseAddress, !bytes.isEmpty else { return nil }
        let hash = Self.hash(bytes)
        var slot = Int(truncatingIfNeeded: hash) & mask
        return storage.withUnsafeBufferPointer { store -> Int? in
            guard let base = store.baseAddress else { return nil }
            while true {
                let index = Int(slotIndex[slot])
                if index < 0 { return nil }
                if slotHash[slot] == hash {
                    let start = offsets[index], length = offsets[index + 1] - start
                    if length == bytes.count && memcmp(base + start, query, length) == 0 { return index }
                }
                slot = (slot + 1) & mask
            }
        }
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return value
    }
}
