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
/// open addressing over FNV-1a hashes, confirmed byte for byte.
struct ByteTable: Sendable {
    private let names: [[UInt8]]
    private let slots: [Int32]
    private let mask: Int

    init(_ names: [String]) {
        self.names = names.map { Array($0.utf8) }
        var size = 16
        while size < names.count * 2 { size *= 2 }
        mask = size - 1
        var slots = [Int32](repeating: -1, count: size)
        for (index, name) in self.names.enumerated() {
            var slot = Int(truncatingIfNeeded: name.withUnsafeBufferPointer(Self.hash)) & mask
            while slots[slot] >= 0 {
                if self.names[Int(slots[slot])] == name { break }  // A repeated name keeps its first index.
                slot = (slot + 1) & mask
            }
            if slots[slot] < 0 { slots[slot] = Int32(truncatingIfNeeded: index) }
        }
        self.slots = slots
    }

    func index(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var slot = Int(truncatingIfNeeded: Self.hash(bytes)) & mask
        while slots[slot] >= 0 {
            let index = Int(slots[slot])
            if names[index].count == bytes.count && names[index].elementsEqual(bytes) { return index }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return value
    }
}
