import Foundation
import Testing
@testable import JuiceBook
@testable import JuiceShop

/// The journal export format (`JournalExport`): what `juice-serve journal
/// export` writes and `juice-run plan --history` reads.
@Suite struct JournalExportTests {
    /// One entry of every kind, with the fields each kind can carry filled
    /// (and a till and user that need quoting and the formula guard).
    static let everyKind: [JournalEntry] = {
        let made = JournalEntry.OrderMade(
            clientID: "till-1/42", item: "kiwi-juice", quantity: 2, price: 9000, cost: JournalEntry.Fraction(Money(2001, over: 3) ?? .zero),
            fruit: [.init(id: "kiwi", count: 6), .init(id: "banana", count: 1)], batches: [.init(id: "syrup", count: 1)],
            servings: [.init(recipe: "syrup", used: 2, made: 4, left: 2)],
            substitutions: [.init(fruit: "mango", substitute: "banana", units: 1, covered: 1)], resolves: 3
        )
        let plain = JournalEntry.OrderMade(
            clientID: "c2", item: "banana-juice", quantity: 1, price: nil, cost: nil,
            fruit: [.init(id: "banana", count: 2)], batches: [], servings: [], substitutions: [], resolves: nil
        )
        let stock = JournalEntry.Stock(fruit: [.init(id: "kiwi", count: 10), .init(id: "banana", count: 0)], servings: [.init(id: "syrup", count: 1)])
        let events: [JournalEntry.Event] = [
            .dayOpen(stock),
            .refusal(.init(clientID: "c1", item: "kiwi-juice", quantity: 2, shortages: [.init(fruit: "kiwi", need: 6, have: 5, standsInFor: nil), .init(fruit: "banana", need: 1, have: 0, standsInFor: "mango")])),
            .stockChange(.init(clientID: nil, target: .fruit, id: "kiwi", before: 5, after: 20)),
            .order(made),
            .order(plain),
            .void(JournalEntry.Correction(order: 4, made: made)),
            .refund(JournalEntry.Correction(order: 5, made: plain)),
            .stockChange(.init(clientID: "s1", target: .servings, id: "syrup", before: 2, after: 0)),
            .stockSet(.init(reason: "import, \"spring\" stock", stock: stock)),
            .dayClose,
        ]
        return events.enumerated().map { index, event in
            JournalEntry(
                sequence: Int64(index + 1), day: "2026-11-29", time: 1_795_960_987_123 + Int64(index) * 1000,
                user: index == 3 ? "=HYPERLINK(\"x\")" : "anna", till: index == 1 ? "front, left\nby the door" : "till-1", event: event
            )
        }
    }()

    @Test func everyKindRoundTripsThroughBothFormats() throws {
        let kinds = Set(Self.everyKind.map(\.event.kind))
        #expect(kinds == ["day-open", "order", "refusal", "stock", "stock-set", "void", "refund", "day-close"])
        for format in JournalExport.Format.allCases {
            let text = try JournalExport.document(Self.everyKind.map { (shop: "main, street", entry: $0) }, format: format)
            let read = try JournalExport.parse(text)
            #expect(read.map(\.entry) == Self.everyKind, "\(format)")
            #expect(read.allSatisfy { $0.shop == "main, street" })
            #expect(JournalExport.detectFormat(text) == format)
        }
    }

    @Test func aJSONLineIsTheEntrysOwnJSONPlusShopAndAt() throws {
        let entry = Self.everyKind[4]
        let line = try JournalExport.line(for: entry, shop: "north/1", format: .jsonl)
        #expect(line == #"{"at":"2026-11-29T14:03:11.123Z","batches":[],"clientID":"c2","day":"2026-11-29","fruit":[{"count":2,"id":"banana"}],"item":"banana-juice","kind":"order","quantity":1,"sequence":5,"servings":[],"shop":"north/1","substitutions":[],"till":"till-1","time":1795960991123,"user":"anna"}"#)
        #expect(try JSONDecoder().decode(JournalEntry.self, from: Data(line.utf8)) == entry)
        #expect(JournalExport.header(format: .jsonl) == nil)
    }

    @Test func csvHeaderAndRecordsQuoteAndGuard() throws {
        #expect(JournalExport.header(format: .csv) == "shop,sequence,day,at,user,till,kind,item,quantity,price,cost,fruit,target,resolves,client_id,detail")
        let lines = try Self.everyKind.map { try JournalExport.line(for: $0, shop: "-east", format: .csv) }
        /// The record's columns before `detail`.
        func prefix(_ line: String) -> String {
            guard let detail = line.range(of: ",\"{\"\"") else { return line }
            return String(line[..<detail.lowerBound])
        }
        #expect(prefix(lines[0]) == "'-east,1,2026-11-29,2026-11-29T14:03:07.123Z,anna,till-1,day-open,,,,,,,,")
        #expect(prefix(lines[1]) == "'-east,2,2026-11-29,2026-11-29T14:03:08.123Z,anna,\"front, left\nby the door\",refusal,kiwi-juice,2,,,,,,c1")
        #expect(prefix(lines[3]) == "'-east,4,2026-11-29,2026-11-29T14:03:10.123Z,\"'=HYPERLINK(\"\"x\"\")\",till-1,order,kiwi-juice,2,9000,667/1,kiwi:6 banana:1,,3,till-1/42")
        #expect(prefix(lines[5]) == "'-east,6,2026-11-29,2026-11-29T14:03:12.123Z,anna,till-1,void,kiwi-juice,,9000,667/1,kiwi:6 banana:1,4,,till-1/42")
        #expect(prefix(lines[6]) == "'-east,7,2026-11-29,2026-11-29T14:03:13.123Z,anna,till-1,refund,banana-juice,,,,banana:2,5,,c2")
        #expect(prefix(lines[7]) == "'-east,8,2026-11-29,2026-11-29T14:03:14.123Z,anna,till-1,stock,,,,,,,,s1")
        // The detail column is the JSON line, quotes doubled.
        let json = try JournalExport.line(for: Self.everyKind[3], shop: "-east", format: .jsonl)
        #expect(lines[3].hasSuffix(",\"" + json.replacingOccurrences(of: "\"", with: "\"\"") + "\""))
    }

    @Test func anExactCostIsWrittenAsItsFraction() throws {
        var entry = Self.everyKind[3]
        guard case .order(var made) = entry.event else { Issue.record("not an order"); return }
        made.cost = JournalEntry.Fraction(try #require(Money(2001, over: 6)))
        entry.event = .order(made)
        let line = try JournalExport.line(for: entry, shop: "s", format: .csv)
        #expect(line.contains(",667/2,"))
        let header = try #require(JournalExport.header(format: .csv))
        #expect(try JournalExport.parse(header + "\n" + line).first?.entry == entry)
    }

    @Test func isoTimesAreUTCWithMilliseconds() {
        #expect(JournalExport.isoTime(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(JournalExport.isoTime(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(JournalExport.isoTime(milliseconds: 951_782_400_000) == "2000-02-29T00:00:00.000Z")
        #expect(JournalExport.isoTime(milliseconds: 253_402_300_799_999) == "9999-12-31T23:59:59.999Z")
        // Never traps, whatever the clock said.
        _ = JournalExport.isoTime(milliseconds: .max)
        _ = JournalExport.isoTime(milliseconds: .min)
        for days: Int64 in [-800_000, -1, 0, 59, 11_016, 20_000, 3_000_000] {
            let date = JournalExport.civilDate(daysSince1970: days)
            #expect(JournalExport.daysSince1970(year: date.year, month: date.month, day: date.day) == days)
        }
    }

    @Test func crlfLineEndsBlankLinesAndAByteOrderMarkAreRead() throws {
        let entries = Array(Self.everyKind.prefix(4))
        for format in JournalExport.Format.allCases {
            let text = try JournalExport.document(entries.map { (shop: "s", entry: $0) }, format: format)
            let windows = "\u{FEFF}\r\n" + text.replacingOccurrences(of: "\n", with: "\r\n").replacingOccurrences(of: "\r\n\"", with: "\n\"") + "\r\n  \r\n"
            #expect(try JournalExport.parse(windows).map(\.entry) == entries, "\(format)")
        }
    }

    /// The error for `text`, as text, or nil when it read.
    private func error(_ text: String) -> String? {
        do {
            _ = try JournalExport.parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func badLinesAreNamedWithTheirLineNumber() throws {
        let good = try JournalExport.line(for: Self.everyKind[0], shop: "s", format: .jsonl)
        #expect(error("") == "the export holds no journal entry")
        #expect(error("\n \n") == "the export holds no journal entry")
        let header = try #require(JournalExport.header(format: .csv))
        #expect(error(header + "\n") == "the export holds no journal entry")
        #expect(error(good + "\n\n{\"sequence\": 2\n") == "line 3: the line is not a JSON object")
        #expect(error(good + "\nnot json\n") == "line 2: the line is not a JSON object")
        #expect(error(good + "\n[1, 2]\n") == "line 2: the line is not a JSON object")
        let noShop = good.replacingOccurrences(of: #""shop":"s","#, with: "")
        #expect(error(good + "\n" + noShop) == "line 2: the line has no 'shop'")
        let unknown = good.replacingOccurrences(of: #""kind":"day-open""#, with: #""kind":"party""#)
        #expect(error(unknown) == "line 1: unknown journal entry kind 'party'")
        let noItem = try JournalExport.line(for: Self.everyKind[1], shop: "s", format: .jsonl).replacingOccurrences(of: #""item":"kiwi-juice","#, with: "")
        #expect(error("\n" + noItem) == "line 2: the line has no 'item'")
        let badQuantity = try JournalExport.line(for: Self.everyKind[1], shop: "s", format: .jsonl).replacingOccurrences(of: #""quantity":2"#, with: #""quantity":"two""#)
        #expect(error(badQuantity) == "line 1: 'quantity' in the line has the wrong type")
        let badCount = good.replacingOccurrences(of: #""count":10"#, with: #""count":1.5"#)
        #expect(error(badCount) == "line 1: a number in the line is not a whole number in range")
        let huge = good.replacingOccurrences(of: #""count":10"#, with: #""count":99999999999999999999"#)
        #expect(error(huge) == "line 1: a number in the line is not a whole number in range")
    }

    @Test func badCSVRecordsAreNamedWithTheirLineNumber() throws {
        let header = try #require(JournalExport.header(format: .csv))
        let line = try JournalExport.line(for: Self.everyKind[1], shop: "s", format: .csv)
        #expect(error("shop,sequence,day\n" + line) == "line 1: the header has no 'detail' column")
        #expect(error(header + "\n" + line + "\ns,2,x\n") == "line 4: 3 fields, but the header has 16")
        #expect(error(header + "\n\ns,2,\"x\"y\n") == "line 3: text after a quoted field's closing quote")
        #expect(error(header + "\ns,2,x\"y\n") == "line 2: a quote inside a field that does not start with one")
        #expect(error(header + "\n" + line + "\ns,\"2\n") == "line 4: a quoted field is not closed before the end of the file")
        #expect(error(header + "\ns\r2\n") == "line 2: a CR that does not end a line (a bare CR inside a field must be quoted)")
        let detail = String(repeating: ",", count: 15) + "{}"
        #expect(error(header + "\n" + detail) == "line 2: the 'detail' column has no 'sequence'")
        let wrongKind = line.replacingOccurrences(of: ",refusal,", with: ",order,")
        #expect(error(header + "\n" + wrongKind) == "line 2: the 'kind' column says 'order' but 'detail' says 'refusal'")
        // A record spanning lines (the till holds a line feed) is named by its first line.
        let spanning = line.replacingOccurrences(of: ",refusal,", with: ",order,")
        #expect(error(header + "\n" + line + "\n" + spanning) == "line 4: the 'kind' column says 'order' but 'detail' says 'refusal'")
    }

    /// Random and mangled text never traps: it reads or throws.
    @Test func anyTextReadsOrThrows() throws {
        let text = try JournalExport.document(Self.everyKind.map { (shop: "s", entry: $0) }, format: .csv)
            + (try JournalExport.document(Self.everyKind.map { (shop: "s", entry: $0) }, format: .jsonl))
        var seed: UInt64 = 0x5EED
        func next() -> UInt64 {
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let alphabet = Array(",\"\r\n{}[]:shop,sequence,0123456789-a\u{FEFF}é".utf8)
        for round in 0..<2000 {
            var bytes = Array(text.utf8)
            if round % 2 == 0 {
                bytes = Array(bytes.prefix(Int(next() % UInt64(bytes.count))))
            }
            for _ in 0..<(1 + next() % 6) {
                let at = Int(next() % UInt64(bytes.count + 1))
                switch next() % 3 {
                case 0: bytes.insert(alphabet[Int(next() % UInt64(alphabet.count))], at: at)
                case 1: if at < bytes.count { bytes.remove(at: at) }
                default: if at < bytes.count { bytes[at] = UInt8(truncatingIfNeeded: next()) }
                }
            }
            _ = try? JournalExport.parse(String(decoding: bytes, as: UTF8.self))
        }
    }
}
