import DifferentialSupport
import Foundation
import Testing
@_spi(Internals) @testable import JuiceSupport
@testable import JuiceSource
@testable import JuiceBook
@testable import JuiceEngine
@testable import JuiceSimulation

/// The pieces a replay runs per line and per order (words, ids, numbers,
/// needs), several of which read or write bytes several at a time: each is
/// held here to the plain reading, over seeded cases.
@Suite struct ReplayPathTests {
    static let book: RecipeBook = {
        let yaml = """
            fruits: { kiwi: , mango: , passionfruit: , é: }
            stock: { kiwi: 2, mango: 1 }
            menu:
              kiwi-juice: { recipe: { kiwi: 1 } }
              mango-passionfruit-smoothie: { recipe: { mango: 1, passionfruit: 2 } }
              é-cup: { recipe: { é: 1 } }

            """
        return RecipeCompiler.compile([SourceFile(path: "r.yaml", bytes: Array(yaml.utf8))]).book!
    }()

    /// Words end at any run of spaces, tabs and carriage returns, at `#`, and
    /// at the line's end, wherever those fall: each line reads as its words
    /// joined by single spaces do.
    @Test func wordsSplitTheSameWhereverTheyEnd() {
        let parser = ScriptParser(book: Self.book, file: "r")
        let tokens = [
            "kiwi-juice", "mango-passionfruit-smoothie", "é-cup", "x3", "x1000000", "x0", "restock", "set", "stock",
            "kiwi", "passionfruit", "12", "0", "-1", "kiwi-juicex", "a", "é", "!", "\"q\"", "\u{1}", "9999999999999999999",
        ]
        let delimiters = [" ", "\t", "\r", "  ", " \t ", "\r\r"]
        var random = SplitMix64(seed: 15)
        for _ in 0..<20_000 {
            let words = (0..<random.int(in: 0...4)).map { _ in random.pick(tokens) }
            var line = random.chance(1, in: 4) ? random.pick(delimiters) : ""
            for (index, word) in words.enumerated() {
                if index > 0 { line += random.pick(delimiters) }
                line += word
            }
            if random.chance(1, in: 3) { line += random.pick(delimiters) }
            if random.chance(1, in: 4) { line += random.pick(["#", "# kiwi-juice x2", "#x", " #\t"]) }
            let plain = words.joined(separator: " ")
            #expect(Self.parse(line, parser) == Self.parse(plain, parser), "\(line.debugDescription)")
        }
    }

    private static func parse(_ line: String, _ parser: ScriptParser) -> ScriptParser.Line {
        Array(line.utf8).withUnsafeBufferPointer { parser.parse(bytes: $0, number: 1) }
    }

    /// Every name is found by its bytes, whatever its length against the
    /// eight-byte reads of the hash and the comparison, and a name that
    /// differs in one byte, or is one byte longer or shorter, is not.
    @Test func namesAreFoundByTheirBytesAtEveryLength() {
        var random = SplitMix64(seed: 7)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz-0123456789".utf8)
        var names: [[UInt8]] = []
        for length in 1...40 {
            for _ in 0..<3 { names.append((0..<length).map { _ in random.pick(alphabet) }) }
        }
        names = Array(Set(names))
        let table = NameTable<Int>(utf8Names: names.map { String(decoding: $0, as: UTF8.self) })
        let known = Set(names)
        for (index, name) in names.enumerated() {
            #expect(Self.lookUp(name, in: table) == index)
            var variants = [Array(name.dropLast()), name + [UInt8(ascii: "z")]]
            for position in name.indices {
                var changed = name
                changed[position] = changed[position] == UInt8(ascii: "a") ? UInt8(ascii: "b") : UInt8(ascii: "a")
                variants.append(changed)
            }
            for variant in variants where !known.contains(variant) {
                #expect(Self.lookUp(variant, in: table) == nil, "\(String(decoding: variant, as: UTF8.self))")
            }
        }
        #expect(Self.lookUp([], in: table) == nil)
    }

    private static func lookUp(_ bytes: [UInt8], in table: NameTable<Int>) -> Int? {
        bytes.withUnsafeBufferPointer { table.value(utf8: $0, hash: NameTable<Int>.utf8Hash($0)) }
    }

    /// Numbers are written digit pair by digit pair straight into the
    /// buffer: the text must be `String(value)`'s for every length and sign.
    @Test func decimalsAreWrittenAsStringWritesThem() {
        var values = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, -1, -9, -10, -100, Int.max, Int.min, Int.min + 1]
        var power = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power, -(power - 1)]
        }
        var random = SplitMix64(seed: 42)
        for _ in 0..<2_000 {
            let value = Int(truncatingIfNeeded: random.next()) >> random.int(in: 0...62)
            values.append(value)
        }
        let written = Self.output { buffer in
            for value in values {
                buffer.append(decimal: value)
                buffer.endLine()
            }
        }
        #expect(written == values.map { "\($0)\n" }.joined())
    }

    /// A line longer than the room left grows the buffer rather than losing
    /// or splitting bytes, and flushes keep the order.
    @Test func longPiecesAndSmallBuffersKeepEveryByte() {
        let long = String(repeating: "kiwi-juice ", count: 1_000)
        let written = Self.output(capacity: 16) { buffer in
            buffer.line("start")
            buffer.write(long)
            buffer.append(decimal: Int.min)
            buffer.endLine()
            for number in 0..<100 {
                buffer.append("n=" as StaticString)
                buffer.append(decimal: number)
                buffer.append(byte: UInt8(ascii: ";"))
            }
            buffer.endLine()
        }
        let numbers = (0..<100).map { "n=\($0);" }.joined()
        #expect(written == "start\n" + long + "\(Int.min)\n" + numbers + "\n")
    }

    /// What `body` writes through an `OutputBuffer` into a file.
    private static func output(capacity: Int = 1 << 16, _ body: (OutputBuffer) -> Void) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { unlink(path) }
        let buffer = OutputBuffer(descriptor: descriptor, capacity: capacity)
        body(buffer)
        buffer.flush()
        close(descriptor)
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// The maker reads each item's needs from its own table: what it takes
    /// and which fruits it lists as short must be what the book's needs say,
    /// over seeded stocks and orders.
    @Test func theMakersNeedTableIsTheBooks() {
        var random = SplitMix64(seed: 3)
        for _ in 0..<500 {
            let counts = Self.book.fruits.indices.map { _ in random.int(in: 0...3) }
            var quiet = JuiceMaker(book: Self.book, store: FruitStore(counts: counts))
            var listing = quiet
            var shortages: [Shortage] = []
            for _ in 0..<8 {
                let menu = random.int(in: 0...(Self.book.menu.count - 1))
                let needs = Self.book.menu[menu].needs
                let expectedShort = listing.store.shortages(for: needs)
                var expectedCounts = listing.store.counts
                if expectedShort.isEmpty {
                    for need in needs { expectedCounts[need.fruit] -= need.amount }
                }
                #expect(quiet.makeIfAvailable(menu) == expectedShort.isEmpty)
                #expect(listing.make(menu, shortages: &shortages) == expectedShort.isEmpty)
                #expect(shortages == expectedShort)
                #expect(quiet.store.counts == expectedCounts)
                #expect(listing.store.counts == expectedCounts)
            }
        }
    }

    static let pricedBook: RecipeBook = {
        let yaml = """
            fruits: { apple: , pear: , kiwi: }
            stock: { apple: 9, pear: 4, kiwi: 2 }
            recipes:
              base: { apple: 1, pear: 1 }
            menu:
              apple-juice: { price: 3000, recipe: { apple: 2 } }
              mix-juice: { price: 9223372036854775807, recipe: { base: 3, apple: 1 } }
              kiwi-cup: { recipe: { kiwi: 4611686018427387904 } }
              pear-cup: { price: 1, recipe: { pear: 1 } }

            """
        return RecipeCompiler.compile([SourceFile(path: "p.yaml", bytes: Array(yaml.utf8))]).book!
    }()

    /// A quiet run takes `MENU-ID xN` in one step (`FruitStore.take(upTo:)`);
    /// a run that reports events takes it order by order. Over seeded
    /// scripts of repeats, restocks and sets, stocks near `Int.max` and needs
    /// whose repeats pass it, both must end with the same summary (orders,
    /// refusals by item, revenue, shortfall) and the same stock.
    @Test func repeatedOrdersTallyAsOneByOne() {
        let book = Self.pricedBook
        let items = book.menu.map(\.id)
        let fruits = book.fruits.map(\.id)
        let amounts = ["1", "2", "7", "40", "4611686018427387904", "9223372036854775807"]
        var random = SplitMix64(seed: 615)
        for _ in 0..<150 {
            var quiet = Simulation(book: book, file: "q", reporter: Silent(listening: false))
            var listening = Simulation(book: book, file: "q", reporter: Silent(listening: true))
            for number in 1...random.int(in: 1...30) {
                let line: String
                switch random.int(in: 0...9) {
                case 0...5: line = "\(random.pick(items)) x\(random.pick([1, 2, 3, 5, 17, 60]))"
                case 6, 7: line = "restock \(random.pick(fruits)) \(random.pick(amounts))"
                case 8: line = "set \(random.pick(fruits)) \(random.pick(["0"] + amounts))"
                default: line = random.pick(items)
                }
                quiet.run(line: line, number: number)
                listening.run(line: line, number: number)
            }
            let summary = quiet.finish()
            #expect(summary == listening.finish())
            #expect(quiet.maker.store == listening.maker.store)
        }
    }
}

/// A reporter that keeps nothing; `listening` says whether it asks for
/// every event, which sends the simulation down the order-by-order path.
private struct Silent: SimulationReporter {
    let listening: Bool
    var wantsEvents: Bool { listening }
    mutating func order(sequence: Int, line: Int, menu: Int, outcome: JuiceMaker.Outcome) {}
    mutating func restock(line: Int, fruit: Int, amount: Int, stock: Int) {}
    mutating func set(line: Int, fruit: Int, stock: Int) {}
    mutating func stock(line: Int, counts: [Int]) {}
    mutating func problem(_ problem: ScriptProblem) {}
    mutating func finish(_ summary: SimulationSummary) {}
}
