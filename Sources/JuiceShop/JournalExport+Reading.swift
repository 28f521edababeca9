#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JuiceSupport

/// Reading an export back (`juice-run plan --history`): both formats, each
/// bad line named.
extension JournalExport {
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
            throw ReadError(line: line, notJSON(json, what: what) ?? describe(error, what: what))
        } catch {
            throw ReadError(line: line, notJSON(json, what: what) ?? "\(what) is not a journal entry")
        }
    }

    /// What is wrong with text that Foundation would not decode at all:
    /// not JSON, not an object, or (when it is one) a number that is not a
    /// whole number in range, which Foundation reports as invalid JSON.
    private static func notJSON(_ json: Substring, what: String) -> String? {
        guard let value = try? JSONValue.parse(String(json)) else { return "\(what) is not a JSON object" }
        guard value.isObject else { return "\(what) is not a JSON object" }
        guard !containsOddNumber(value) else { return "a number in \(what) is not a whole number in range" }
        return nil
    }

    private static func containsOddNumber(_ value: JSONValue) -> Bool {
        switch value {
        case .double: return true
        case .array(let elements): return elements.contains(where: containsOddNumber)
        case .object(let members): return members.contains { containsOddNumber($0.value) }
        default: return false
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
