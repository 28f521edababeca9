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
}
