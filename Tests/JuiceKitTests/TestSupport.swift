import DifferentialSupport
import Foundation
import Testing
@_spi(Internals) @testable import JuiceSupport
@testable import JuiceSource
@testable import JuiceDiagnostics
@_spi(Internals) @testable import JuiceYAML
@testable import JuiceBook
@testable import JuiceEngine
@testable import JuiceSimulation

/// Loads the YAML fixtures beside these tests and compiles them.
///
/// Fixtures are compiled under the display path `Fixtures/NAME`, so assertions
/// name a stable path whatever directory the tests run from.
enum Fixture {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// The display path a fixture is compiled under.
    static func path(_ name: String) -> String { "Fixtures/" + name }

    static func source(_ name: String) throws -> SourceFile {
        let bytes = try RecipeSources.readFile(directory.appendingPathComponent(name).path)
        return SourceFile(path: path(name), bytes: bytes)
    }

    /// Compiles the named fixtures together, as one book.
    static func compile(_ names: String...) throws -> Compilation {
        RecipeCompiler.compile(try names.map(source))
    }

    /// The composed YAML of one fixture.
    static func compose(_ name: String) throws -> YAMLComposer.Result {
        let file = try source(name)
        return YAMLComposer.compose(bytes: file.bytes, file: file.path)
    }
}

/// The book in `Fixtures/shop.yaml`: fruits mango 0, kiwi 1, lime 2, opening
/// stock [5, 2, 1]; menu smoothie (mango 2, kiwi 1, lime 3), mango-juice
/// (base = mango 1 + lime 1, plus mango 1: mango 2, lime 1), kiwi-cup (kiwi 1).
func shopBook() throws -> RecipeBook {
    let compilation = try Fixture.compile("shop.yaml")
    #expect(compilation.diagnostics.isEmpty, "\(compilation.spots)")
    return try #require(compilation.book)
}

/// Compiles YAML written inline in a test, as one file.
func compile(yaml: String, path: String = "inline.yaml") -> Compilation {
    RecipeCompiler.compile([SourceFile(path: path, bytes: Array(yaml.utf8))])
}

/// Compiles raw bytes as one file.
func compile(bytes: [UInt8], path: String = "inline.yaml") -> Compilation {
    RecipeCompiler.compile([SourceFile(path: path, bytes: bytes)])
}

/// A diagnostic's rule and where it starts, compared as one value so a failure
/// prints all of it: `unknown-fruit at Fixtures/x.yaml:3:5`.
struct Spot: Equatable, CustomStringConvertible {
    var rule: Rule
    var file: String
    var line: Int
    var column: Int

    init(_ rule: Rule, _ file: String, _ line: Int, _ column: Int) {
        self.rule = rule
        self.file = file
        self.line = line
        self.column = column
    }

    init(_ diagnostic: Diagnostic) {
        self.init(diagnostic.rule, diagnostic.file, diagnostic.line, diagnostic.column)
    }

    var description: String { "\(rule.id) at \(file):\(line):\(column)" }
}

/// A position as `line:column`, for asserting ends and notes compactly.
func at(_ line: Int, _ column: Int) -> SourcePosition { SourcePosition(line: line, column: column) }

/// A note's place and text.
struct NoteSpot: Equatable, CustomStringConvertible {
    var file: String
    var line: Int
    var column: Int
    var message: String

    init(_ file: String, _ line: Int, _ column: Int, _ message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    init(_ note: Diagnostic.Note) {
        self.init(note.range.file, note.range.start.line, note.range.start.column, note.message)
    }

    var description: String { "\(file):\(line):\(column): \(message)" }
}

extension Diagnostic {
    var spot: Spot { Spot(self) }
    var noteSpots: [NoteSpot] { notes.map(NoteSpot.init) }
}

extension Compilation {
    var spots: [Spot] { diagnostics.map(\.spot) }

    /// The only diagnostic, or a failed requirement naming all of them.
    func single(sourceLocation: SourceLocation = #_sourceLocation) throws -> Diagnostic {
        try #require(diagnostics.count == 1, "expected one diagnostic, got \(spots)", sourceLocation: sourceLocation)
        return diagnostics[0]
    }
}

extension YAMLDocument {
    /// A mapping's pairs as scalar text, for comparing whole mappings.
    func scalarPairs(of id: YAMLNode.ID) -> [String] {
        pairs(of: id).map { "\(text(of: $0.key)): \(text(of: $0.value))" }
    }

    /// The value under a scalar key of a mapping.
    func value(_ key: String, in mapping: YAMLNode.ID) -> YAMLNode.ID? {
        pairs(of: mapping).first { hasText($0.key, equalTo: key) }?.value
    }
}

extension OrderRecord {
    /// The engine's report of one order, in the reference model's terms (ids,
    /// not indices), so the two compare as plain values.
    init(line: Int, menu: Int, outcome: JuiceMaker.Outcome, book: RecipeBook) {
        let refusal: [Shortfall]?
        switch outcome {
        case .served:
            refusal = nil
        case .refused(let short):
            refusal = short.map {
                Shortfall(fruit: book.fruits[$0.fruit].id, need: $0.need, have: $0.have, standsInFor: $0.standsInFor.map { book.fruits[$0].id })
            }
        }
        self.init(line: line, menu: book.menu[menu].id, refusal: refusal)
    }

    /// The same, with the substitutes that stood in for a served order.
    init(line: Int, menu: Int, outcome: JuiceMaker.Outcome, substitutions: [Substitution], book: RecipeBook) {
        self.init(line: line, menu: menu, outcome: outcome, book: book)
        for substitution in substitutions {
            substituted[book.fruits[substitution.fruit].id, default: [:]][book.fruits[substitution.substitute].id, default: 0] += substitution.units
        }
    }
}

/// The JSON Lines events written the plain way, with `JSONWriter`: the
/// tests' oracle for the reporter's byte-level fast path.
extension JSONLinesSimulationReporter {
    /// The order event as `JSONWriter` writes it: the reference the reporter's
    /// fast path (`JSONLinesSimulationReporter.order`) is held to.
    static func orderEventText(book: RecipeBook, sequence: Int, line: Int, source: String? = nil, menu: Int, outcome: JuiceMaker.Outcome) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.field("type", "order")
        json.field("seq", sequence)
        json.field("line", line)
        if let source { json.field("source", source) }
        json.field("menu", book.menu[menu].id)
        let short: [Shortage]
        switch outcome {
        case .served:
            json.field("status", "served")
            short = []
        case .refused(let shortages):
            json.field("status", "refused")
            short = shortages
        }
        json.key("short")
        json.beginArray()
        for shortage in short {
            json.beginObject()
            json.field("fruit", book.fruits[shortage.fruit].id)
            json.field("need", shortage.need)
            json.field("have", shortage.have)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.output
    }

    /// The restock event as `JSONWriter` writes it, the same way.
    static func restockEventText(book: RecipeBook, line: Int, source: String? = nil, fruit: Int, amount: Int, stock: Int) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.field("type", "restock")
        json.field("line", line)
        if let source { json.field("source", source) }
        json.field("fruit", book.fruits[fruit].id)
        json.field("amount", amount)
        json.field("stock", stock)
        json.endObject()
        return json.output
    }
}
