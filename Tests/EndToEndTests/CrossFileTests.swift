import Foundation
import Testing

/// Declarations that collide across files, across documents and across
/// sections, with and without a stock file.
///
/// Each file's declarations are collected on their own (in parallel for a big
/// book) and merged in file order, so the merge alone decides which
/// declaration came first. The expected outputs were recorded from the
/// sequential collector that came before, and must stay byte for byte, but
/// for what issue 11 (every problem at once) changed:
/// - a duplicate's note points at the first definition anywhere in the book,
///   even when the same file also defines the id again later;
/// - a stock entry repeated in a later file is reported as a duplicate, and
///   its amount (`-3`, `01`) is checked as if it stood alone, with a note
///   that it is left out of the book;
/// - a first stock entry with a bad amount still counts as the first, and its
///   fruit's stock is unknown, not short: no `never-makeable` follows from it.
@Suite struct CrossFileTests {
    static let folder = ToolRunner.fixtures.appendingPathComponent("cross-file")

    static func expected(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func textReport() throws {
        let result = try ToolRunner.lint("book", in: Self.folder)
        #expect(result.exitCode == 1)
        #expect(result.stdout == (try Self.expected("expected.txt")))
        #expect(result.stderr == "files: 3, errors: 16, warnings: 0, infos: 0\n")
    }

    @Test func jsonReport() throws {
        let result = try ToolRunner.lint("--format", "json", "book", in: Self.folder)
        #expect(result.exitCode == 1)
        #expect(result.stdout == (try Self.expected("expected.json")))
        // The cases the merge must get right, spelt out.
        let found = try Self.diagnostics(result.stdout)
        #expect(found.contains("duplicate-definition b.yaml:9:3 'lime' is already defined as a fruit -> b.yaml:4"))
        #expect(found.contains("duplicate-definition c.yaml:10:3 'kiwi' is already defined as a fruit -> a.yaml:4"))
        #expect(found.contains("duplicate-definition b.yaml:6:3 stock for 'mango' is set twice -> a.yaml:6"))
        #expect(found.contains("duplicate-definition c.yaml:13:3 stock for 'kiwi' is set twice -> a.yaml:7"))
        #expect(found.contains("duplicate-definition c.yaml:14:3 stock for 'pear' is set twice -> c.yaml:5"))
        #expect(found.contains("negative-amount b.yaml:6:10 stock of 'mango' is negative: '-3' -> b.yaml:6"))
        #expect(found.contains("invalid-amount c.yaml:14:9 stock of 'pear' is '01', with a leading zero that YAML 1.1 reads as octal -> c.yaml:14"))
        #expect(!found.contains { $0.hasPrefix("never-makeable") })
    }

    @Test func jsonReportWithStockFile() throws {
        let result = try ToolRunner.lint("--format", "json", "--stock", "stock.yaml", "book", in: Self.folder)
        #expect(result.exitCode == 1)
        #expect(result.stdout == (try Self.expected("expected-stock.json")))
        #expect(result.stderr == "files: 4, errors: 20, warnings: 0, infos: 2\n")
        let found = try Self.diagnostics(result.stdout)
        #expect(found.contains("duplicate-definition stock.yaml:6:3 stock for 'mango' is set twice -> stock.yaml:2"))
        #expect(found.contains { $0.hasPrefix("invalid-amount stock.yaml:6:") && $0.hasSuffix("-> stock.yaml:6") })
    }

    /// `rule file:line:column message -> note file:line` for each diagnostic.
    static func diagnostics(_ json: String) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let list = try #require(object?["diagnostics"] as? [[String: Any]])
        return list.map { item in
            let file = ((item["file"] as? String) ?? "").split(separator: "/").last.map(String.init) ?? ""
            var text = "\(item["rule"] ?? "") \(file):\(item["line"] ?? 0):\(item["column"] ?? 0) \(item["message"] ?? "")"
            if let note = (item["notes"] as? [[String: Any]])?.first {
                let noteFile = ((note["file"] as? String) ?? "").split(separator: "/").last.map(String.init) ?? ""
                text += " -> \(noteFile):\(note["line"] ?? 0)"
            }
            return text
        }
    }
}
