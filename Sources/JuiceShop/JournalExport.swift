#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The journal export format, written by `juice-serve journal export` and
/// read by `juice-run plan --history`: one home for both sides.
///
/// Two formats, one entry a line:
///
/// - **JSONL**: each line is the entry's own JSON object (the flat object
///   `JournalEntry` encodes, keys sorted, slashes unescaped) with two more
///   keys, `shop` (the shop's name) and `at` (`time` as ISO 8601 UTC with
///   milliseconds, `2026-11-29T14:03:07.123Z`). `JSONDecoder` reads a line
///   back as the `JournalEntry` (it ignores `shop` and `at`). No header.
/// - **CSV** (RFC 4180): a header line, then one record per entry with the
///   columns of `csvColumns`. The last column, `detail`, is the whole JSONL
///   line of the entry, so nothing is lost; the columns before it are a view
///   of it for spreadsheets. A field holding a comma, a quote, CR or LF is
///   quoted, quotes doubled.
///
/// Lines are returned without their line end: a writer ends each with
/// `"\n"` (the reader also takes `"\r\n"`).
///
/// **Formula injection.** A spreadsheet runs a cell that starts with `=`,
/// `+`, `-` or `@` as a formula. The CSV's free-text columns (`shop`,
/// `user`, `till`, `item`, `client_id`) get a leading `'` when they start
/// with one of those, a tab, a CR or a `'` (the last so that the guard can
/// be told from a name that had one). The `detail` column is never changed
/// (it starts with `{`), and the reader takes every value from it.
public enum JournalExport {
    /// An export's format.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        case csv, jsonl
    }

    /// The CSV columns, in order.
    public static let csvColumns = [
        "shop", "sequence", "day", "at", "user", "till", "kind", "item", "quantity", "price",
        "cost", "fruit", "target", "resolves", "client_id", "detail",
    ]

    /// The header line for `format` (without its line end), or nil for a
    /// format without one (JSONL).
    public static func header(format: Format) -> String? {
        switch format {
        case .csv: csvColumns.joined(separator: ",")
        case .jsonl: nil
        }
    }

    /// The line for one entry of the shop named `shop`, without its line end.
    ///
    /// It throws only what `JSONEncoder` throws, which it does not for a
    /// `JournalEntry` (no floating-point values).
    public static func line(for entry: JournalEntry, shop: String, format: Format) throws -> String {
        let json = try jsonLine(for: entry, shop: shop)
        switch format {
        case .jsonl: return json
        case .csv: return csvRecord(for: entry, shop: shop, detail: json)
        }
    }

    /// A whole export: the header (if any) and a line per entry, each ended
    /// by `"\n"`. The same text as `header` and `line` give, for a caller
    /// that holds every entry at once (tests, small exports).
    public static func document(_ entries: [(shop: String, entry: JournalEntry)], format: Format) throws -> String {
        var text = header(format: format).map { $0 + "\n" } ?? ""
        for item in entries {
            text += try line(for: item.entry, shop: item.shop, format: format)
            text += "\n"
        }
        return text
    }

    // MARK: Writing

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The entry's own keys plus `shop` and `at`, in one sorted object.
    private struct ExportedObject: Encodable {
        var entry: JournalEntry
        var shop: String

        private enum CodingKeys: String, CodingKey { case shop, at }

        func encode(to encoder: any Encoder) throws {
            try entry.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(shop, forKey: .shop)
            try container.encode(JournalExport.isoTime(milliseconds: entry.time), forKey: .at)
        }
    }

    private static func jsonLine(for entry: JournalEntry, shop: String) throws -> String {
        String(decoding: try encoder.encode(ExportedObject(entry: entry, shop: shop)), as: UTF8.self)
    }

    private static func csvRecord(for entry: JournalEntry, shop: String, detail: String) -> String {
        var item = "", quantity = "", price = "", cost = "", fruit = "", target = "", resolves = "", clientID = ""
        switch entry.event {
        case .order(let made):
            item = made.item
            quantity = String(made.quantity)
            price = made.price.map(String.init) ?? ""
            cost = made.cost.map(text) ?? ""
            fruit = text(made.fruit)
            resolves = made.resolves.map(String.init) ?? ""
            clientID = made.clientID
        case .refusal(let refused):
            item = refused.item
            quantity = String(refused.quantity)
            clientID = refused.clientID
        case .void(let correction), .refund(let correction):
            item = correction.item
            price = correction.price.map(String.init) ?? ""
            cost = correction.cost.map(text) ?? ""
            fruit = text(correction.fruit)
            target = String(correction.order)
            clientID = correction.clientID
        case .stockChange(let change):
            clientID = change.clientID ?? ""
        case .dayOpen, .stockSet, .dayClose:
            break
        }
        let fields = [
            guarded(shop), String(entry.sequence), entry.day, isoTime(milliseconds: entry.time),
            guarded(entry.user), guarded(entry.till), entry.event.kind, guarded(item), quantity, price,
            cost, fruit, target, resolves, guarded(clientID), detail,
        ]
        return fields.map(quoted).joined(separator: ",")
    }

    private static func text(_ fraction: JournalEntry.Fraction) -> String {
        "\(fraction.numerator)/\(fraction.denominator)"
    }

    private static func text(_ counts: [JournalEntry.Count]) -> String {
        counts.map { "\($0.id):\($0.count)" }.joined(separator: " ")
    }

    /// A free-text value a spreadsheet would not run as a formula.
    private static func guarded(_ value: String) -> String {
        guard let first = value.unicodeScalars.first, "=+-@\t\r'".unicodeScalars.contains(first) else { return value }
        return "'" + value
    }

    /// An RFC 4180 field: quoted when it holds a comma, a quote, CR or LF.
    private static func quoted(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A }) else {
            return field
        }
        var result = "\""
        for character in field.unicodeScalars {
            if character == "\"" { result += "\"\"" } else { result.unicodeScalars.append(character) }
        }
        return result + "\""
    }

    /// `milliseconds` since 1970 UTC as ISO 8601 with milliseconds,
    /// `2026-11-29T14:03:07.123Z` (proleptic Gregorian; years past 9999 get
    /// more digits, years before 1 a minus sign).
    public static func isoTime(milliseconds: Int64) -> String {
        let (days, millisecondOfDay) = floorDivision(milliseconds, 86_400_000)
        let date = civilDate(daysSince1970: days)
        let second = millisecondOfDay / 1000
        return "\(padded(date.year, 4))-\(padded(date.month, 2))-\(padded(date.day, 2))T"
            + "\(padded(second / 3600, 2)):\(padded(second / 60 % 60, 2)):\(padded(second % 60, 2)).\(padded(millisecondOfDay % 1000, 3))Z"
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        var quotient = value / divisor, remainder = value % divisor
        if remainder < 0 {
            quotient -= 1
            remainder += divisor
        }
        return (quotient, remainder)
    }

    /// The Gregorian date of a day counted from 1970-01-01 (Howard
    /// Hinnant's `civil_from_days`). Every Int64 millisecond count gives a
    /// day count within ±1.1 × 10¹¹, far from overflow here.
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = floorDivision(z, 146_097).quotient
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days from 1970-01-01 to a Gregorian date (`days_from_civil`), for
    /// months 1–12 and days 1–31; nil when the year is too far out to count.
    static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64? {
        guard (-1_000_000_000...1_000_000_000).contains(year) else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = floorDivision(y, 400).quotient
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day number (days since 1970-01-01) of a shop day written
    /// `YYYY-MM-DD`, as the journal's `day` is; nil for anything else,
    /// such as a month 13 or a 30 February.
    public static func dayNumber(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func digits(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = digits(0..<4), let month = digits(5..<7), let day = digits(8..<10), (1...12).contains(month), day >= 1 else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths: [Int64] = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day <= lengths[Int(month) - 1] else { return nil }
        return daysSince1970(year: year, month: month, day: day)
    }

    /// A day number as `YYYY-MM-DD`.
    public static func dayText(_ number: Int64) -> String {
        let date = civilDate(daysSince1970: number)
        return "\(padded(date.year, 4))-\(padded(date.month, 2))-\(padded(date.day, 2))"
    }

    /// The Gregorian weekday of a day number: 0 for Monday … 6 for Sunday
    /// (1970-01-01 was a Thursday).
    public static func weekday(_ number: Int64) -> Int {
        Int(floorDivision(number + 3, 7).remainder)
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let zeros = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + zeros + digits
    }

    // MARK: Reading

    /// One entry read back from an export.
    public struct ExportedEntry: Sendable, Hashable {
        /// The shop the entry belongs to.
        public var shop: String
        public var entry: JournalEntry
        /// The line it starts on, from 1.
        public var line: Int

        public init(shop: String, entry: JournalEntry, line: Int) {
            self.shop = shop
            self.entry = entry
            self.line = line
        }
    }

    /// Why an export could not be read: the line (from 1) when one line is
    /// at fault, and what is wrong with it.
    public struct ReadError: Error, Sendable, Hashable, CustomStringConvertible {
        public var line: Int?
        public var message: String

        public init(line: Int?, _ message: String) {
            self.line = line
            self.message = message
        }

        public var description: String {
            line.map { "line \($0): \(message)" } ?? message
        }
    }

    /// The format of an export's text: CSV when its first line that is not
    /// blank starts with `shop,sequence,` (the header), JSONL otherwise.
    public static func detectFormat(_ text: String) -> Format {
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            var content = Substring(line)
            if content.hasPrefix("\u{FEFF}") { content = content.dropFirst() }
            if content.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            return content.hasPrefix("shop,sequence,") ? .csv : .jsonl
        }
        return .jsonl
    }

    /// Every entry of an export, in either format (`detectFormat`), in file
    /// order. Blank lines are skipped; a UTF-8 byte-order mark is allowed.
    /// Throws a `ReadError` naming the first bad line (bad JSON, a missing
    /// field or column, an unknown kind), or saying that the text holds no
    /// entry. It never traps, whatever the text.
    public static func parse(_ text: String) throws(ReadError) -> [ExportedEntry] {
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        let entries: [ExportedEntry]
        switch detectFormat(String(body)) {
        case .jsonl: entries = try parseJSONLines(body)
        case .csv: entries = try parseCSV(body)
        }
        guard !entries.isEmpty else { throw ReadError(line: nil, "the export holds no journal entry") }
        return entries
    }

    private static func parseJSONLines(_ text: Substring) throws(ReadError) -> [ExportedEntry] {
        var entries: [ExportedEntry] = []
        var number = 0
        // By bytes: as Characters, CR LF is one and would not split at "\n".
        for line in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            let content = Substring(line)
            if content.unicodeScalars.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
            entries.append(try decodeObject(content, line: number, what: "the line"))
        }
        return entries
    }

    /// The shop's name beside the entry's own keys.
    private struct ShopKey: Decodable {
        var shop: String
    }

    private static func decodeObject(_ json: Substring, line: Int, what: String) throws(ReadError) -> ExportedEntry {
        let data = Data(json.utf8)
        let decoder = JSONDecoder()
        do {
            let entry = try decoder.decode(JournalEntry.self, from: data)
            let shop = try decoder.decode(ShopKey.self, from: data).shop
            return ExportedEntry(shop: shop, entry: entry, line: line)
        } catch let error as DecodingError {
            throw ReadError(line: line, describe(error, what: what))
        } catch {
            throw ReadError(line: line, "\(what) is not a JSON object")
        }
    }

    /// A decoding error in the style of the tools' messages.
    private static func describe(_ error: DecodingError, what: String) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let place = path(context.codingPath + [key])
            return "\(what) has no '\(place)'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            if context.codingPath.isEmpty { return "\(what) is not a JSON object" }
            return "'\(path(context.codingPath))' in \(what) has the wrong type"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "\(what) is not a JSON object" }
            let message = context.debugDescription
            if message.hasPrefix("unknown journal entry kind") { return message }
            return "'\(path(context.codingPath))' in \(what) is not valid"
        @unknown default:
            return "\(what) is not a journal entry"
        }
    }

    private static func parseCSV(_ text: Substring) throws(ReadError) -> [ExportedEntry] {
        let records = try CSVReader.records(text).drop { isBlank($0) }
        guard let header = records.first else { return [] }
        func column(_ name: String) throws(ReadError) -> Int {
            guard let index = header.fields.firstIndex(of: name) else {
                throw ReadError(line: header.line, "the header has no '\(name)' column")
            }
            return index
        }
        let detail = try column("detail"), sequence = try column("sequence"), kind = try column("kind")
        var entries: [ExportedEntry] = []
        for record in records.dropFirst() {
            if isBlank(record) { continue }
            guard record.fields.count == header.fields.count else {
                throw ReadError(line: record.line, "\(record.fields.count) fields, but the header has \(header.fields.count)")
            }
            let exported = try decodeObject(Substring(record.fields[detail]), line: record.line, what: "the 'detail' column")
            guard record.fields[sequence] == String(exported.entry.sequence) else {
                throw ReadError(line: record.line, "the 'sequence' column says '\(record.fields[sequence])' but 'detail' says \(exported.entry.sequence)")
            }
            guard record.fields[kind] == exported.entry.event.kind else {
                throw ReadError(line: record.line, "the 'kind' column says '\(record.fields[kind])' but 'detail' says '\(exported.entry.event.kind)'")
            }
            entries.append(exported)
        }
        return entries
    }

    private static func isBlank(_ record: CSVReader.Record) -> Bool {
        record.fields.count == 1 && record.fields[0].unicodeScalars.allSatisfy { $0 == " " || $0 == "\t" }
    }

    /// RFC 4180 records, each with the line it starts on. It takes LF and
    /// CR LF as record ends, and a quoted field may span lines.
    private enum CSVReader {
        struct Record {
            var fields: [String]
            var line: Int
        }

        static func records(_ text: Substring) throws(ReadError) -> [Record] {
            var records: [Record] = []
            var fields: [String] = []
            var field: [UInt8] = []
            var line = 1, recordLine = 1
            var inQuotes = false, afterQuote = false, fieldWasQuoted = false
            let bytes = Array(text.utf8)
            var index = 0
            func endField() {
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
                afterQuote = false
                fieldWasQuoted = false
            }
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if inQuotes {
                    if byte == UInt8(ascii: "\"") {
                        if index < bytes.count && bytes[index] == UInt8(ascii: "\"") {
                            field.append(byte)
                            index += 1
                        } else {
                            inQuotes = false
                            afterQuote = true
                        }
                    } else {
                        if byte == 0x0A { line += 1 }
                        field.append(byte)
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: ","):
                    endField()
                case 0x0A, 0x0D:
                    if byte == 0x0D {
                        guard index < bytes.count, bytes[index] == 0x0A else {
                            throw ReadError(line: line, "a CR that does not end a line (a bare CR inside a field must be quoted)")
                        }
                        index += 1
                    }
                    endField()
                    records.append(Record(fields: fields, line: recordLine))
                    fields.removeAll()
                    line += 1
                    recordLine = line
                case UInt8(ascii: "\""):
                    guard field.isEmpty && !fieldWasQuoted && !afterQuote else {
                        throw ReadError(line: line, "a quote inside a field that does not start with one")
                    }
                    inQuotes = true
                    fieldWasQuoted = true
                default:
                    guard !afterQuote else {
                        throw ReadError(line: line, "text after a quoted field's closing quote")
                    }
                    field.append(byte)
                }
            }
            if inQuotes { throw ReadError(line: recordLine, "a quoted field is not closed before the end of the file") }
            if !field.isEmpty || !fields.isEmpty || fieldWasQuoted {
                endField()
                records.append(Record(fields: fields, line: recordLine))
            }
            return records
        }
    }
}
