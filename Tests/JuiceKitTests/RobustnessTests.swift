import Testing
@_spi(Internals) @testable import JuiceYAML
@testable import JuiceBook

/// Hostile or odd input gives a diagnostic or a clean result: never a trap, never
/// a hang.
@Suite struct RobustnessTests {
    @Test func emptyFileIsACleanEmptyBook() throws {
        let compilation = try Fixture.compile("empty.yaml")
        #expect(compilation.diagnostics.isEmpty)
        let book = try #require(compilation.book)
        #expect(book.fruits.isEmpty)
        #expect(book.recipes.isEmpty)
        #expect(book.menu.isEmpty)
    }

    @Test func commentOnlyFileIsClean() {
        let compilation = compile(yaml: "# nothing here yet\n")
        #expect(compilation.diagnostics.isEmpty)
        #expect(compilation.book != nil)
    }

    @Test func noFilesAtAll() throws {
        let compilation = RecipeCompiler.compile([])
        #expect(compilation.diagnostics.isEmpty)
        #expect(compilation.fileCount == 0)
        #expect(try #require(compilation.book).fruits.isEmpty)
    }

    @Test func binaryFileStopsAtTheFirstControlCharacter() throws {
        // Bytes 0x00...0xFF: no BOM, so libyaml reads UTF-8 and refuses the NUL.
        let file = Fixture.path("binary.yaml")
        let compilation = try Fixture.compile("binary.yaml")
        let diagnostic = try compilation.single()
        #expect(diagnostic.spot == Spot(.yamlSyntax, file, 1, 1))
        #expect(diagnostic.message == "control characters are not allowed (U+0000)")
        #expect(compilation.book == nil)
    }

    @Test func invalidUTF8IsReportedAtTheBadByte() throws {
        // `  mango: { label: "` is 19 columns, so the 0xFF byte is column 20.
        let file = Fixture.path("invalid-utf8.yaml")
        let compilation = try Fixture.compile("invalid-utf8.yaml")
        let diagnostic = try compilation.single()
        #expect(diagnostic.spot == Spot(.yamlSyntax, file, 2, 20))
        #expect(diagnostic.message == "invalid leading UTF-8 octet (byte 0xFF)")
        #expect(compilation.book == nil)
    }

    @Test func invalidUTF8AfterHangulCountsScalars() throws {
        // `a: 망` is four scalars (망 is three bytes), so the bad byte is column 5.
        let diagnostic = try compile(bytes: Array("a: 망".utf8) + [0xFF]).single()
        #expect(diagnostic.spot == Spot(.yamlSyntax, "inline.yaml", 1, 5))
    }

    @Test func truncatedUTF8Sequence() throws {
        // 0xE1 0x84 starts a three-byte sequence the file never finishes.
        let diagnostic = try compile(bytes: Array("a: b".utf8) + [0xE1, 0x84]).single()
        #expect(diagnostic.spot == Spot(.yamlSyntax, "inline.yaml", 1, 5))
        #expect(diagnostic.message == "incomplete UTF-8 octet sequence")
    }

    @Test func controlCharacterInAKey() throws {
        let diagnostic = try compile(yaml: "fruits:\n  a\u{01}b:\n").single()
        #expect(diagnostic.spot == Spot(.yamlSyntax, "inline.yaml", 2, 4))
        #expect(diagnostic.message == "control characters are not allowed (U+0001)")
    }

    @Test func invalidUTF8AfterAByteOrderMark() throws {
        // libyaml does not count the BOM as a column (see the unknown-key check
        // below), so `a: ` puts the bad byte at column 4.
        let clean = try compile(bytes: [0xEF, 0xBB, 0xBF] + Array("fruitz:\n".utf8)).single()
        #expect(clean.spot == Spot(.unknownKey, "inline.yaml", 1, 1))
        let diagnostic = try compile(bytes: [0xEF, 0xBB, 0xBF] + Array("a: ".utf8) + [0xFF, 0x0A]).single()
        #expect(diagnostic.rule == .yamlSyntax)
        #expect(diagnostic.spot == Spot(.yamlSyntax, "inline.yaml", 1, 4))
    }

    @Test func utf16FileIsRead() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]  // UTF-16LE BOM
        for unit in "fruitz:\n  mango:\n".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let diagnostic = try compile(bytes: bytes).single()
        #expect(diagnostic.spot == Spot(.unknownKey, "inline.yaml", 1, 1))
        #expect(diagnostic.help == "did you mean 'fruits'?")
    }

    @Test func badSurrogateInUTF16IsPlacedInCharacters() throws {
        // UTF-16LE `a: 망`, then a high surrogate followed by 'A' instead of a low
        // surrogate. The broken character is the fifth; libyaml blames the unit
        // after it, which would be the sixth. Either way, not byte 12.
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "a: 망".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        bytes += [0x00, 0xD8, 0x41, 0x00]
        let diagnostic = try compile(bytes: bytes).single()
        #expect(diagnostic.rule == .yamlSyntax)
        #expect(diagnostic.line == 1)
        #expect((5...6).contains(diagnostic.column), "column \(diagnostic.column)")
    }

    @Test func tabIndentationGetsAHint() throws {
        let file = Fixture.path("tabs.yaml")
        let compilation = try Fixture.compile("tabs.yaml")
        let diagnostic = try compilation.single()
        #expect(diagnostic.spot == Spot(.yamlSyntax, file, 2, 1))
        #expect(diagnostic.message == "found character that cannot start any token")
        #expect(diagnostic.help == "YAML indents with spaces; replace the tab with spaces")
        // libyaml's context is at the same place, so it is not repeated as a note.
        #expect(diagnostic.notes.isEmpty)
        #expect(compilation.book == nil)
    }

    @Test func twentyLevelAliasBombIsStopped() throws {
        // l1 = [lol, lol]; each l(k) = [*l(k-1), *l(k-1)], so l(k) stands for
        // w(k) = 2^(k+1) - 1 nodes. Expanded by the end of level k:
        // E(k) = sum for j in 2...k of 2 * w(j-1) = 2^(k+2) - 8 - 2(k-1).
        // E(17) = 524288 - 8 - 32 = 524248; line 18's first alias adds
        // w(17) = 262143 (786391), its second another 262143: 1048534 > 1000000.
        var yaml = "l1: &l1 [lol, lol]\n"
        for level in 2...20 {
            yaml += "l\(level): &l\(level) [*l\(level - 1), *l\(level - 1)]\n"
        }
        let compilation = compile(yaml: yaml)
        let diagnostic = try compilation.single()
        // `l18: &l18 [*l17, *l17]`: the second alias is column 18.
        #expect(diagnostic.spot == Spot(.resourceLimit, "inline.yaml", 18, 18))
        #expect(diagnostic.range.end == at(18, 22))
        #expect(compilation.book == nil)
    }

    @Test func aliasesUnderTheLimitAreFine() throws {
        // Ten levels of doubling stand for 2^11 - 1 = 2047 nodes: far below the bound.
        var yaml = "l1: &l1 [lol, lol]\n"
        for level in 2...10 {
            yaml += "l\(level): &l\(level) [*l\(level - 1), *l\(level - 1)]\n"
        }
        let result = YAMLComposer.compose(bytes: Array(yaml.utf8), file: "inline.yaml")
        #expect(result.diagnostics.isEmpty)
        #expect(result.documents.count == 1)
    }

    @Test func theExpansionBudgetIsPerFile() throws {
        // Two documents each expanding about 600000 nodes: neither alone is over,
        // but together they are, and a budget per document would let a file of
        // many documents multiply it. The second document is dropped; the first stays.
        var document = "l1: &l1 [lol, lol]\n"
        for level in 2...17 {
            document += "l\(level): &l\(level) [*l\(level - 1), *l\(level - 1)]\n"
        }
        let result = YAMLComposer.compose(bytes: Array((document + "---\n" + document).utf8), file: "inline.yaml")
        #expect(result.diagnostics.map(\.spot) == [Spot(.resourceLimit, "inline.yaml", 35, 18)])
        #expect(result.diagnostics.first?.message == "aliases in this file expand to more than 1000000 nodes")
        #expect(result.documents.count == 1)
    }

    @Test func unterminatedFlowCollection() throws {
        let diagnostic = try compile(yaml: "fruits: { mango: { label: x }\n").single()
        #expect(diagnostic.rule == .yamlSyntax)
        #expect(diagnostic.spot == Spot(.yamlSyntax, "inline.yaml", 2, 1))
    }

    @Test func messagesNeverCarryRawControlCharacters() throws {
        // A message is one line: a raw newline in it breaks the text format's
        // `file:line:col:` lines and CI annotations.
        let file = Fixture.path("control-characters.yaml")
        let compilation = try Fixture.compile("control-characters.yaml")
        #expect(compilation.spots == [
            Spot(.unsupportedVersion, file, 2, 10),
            Spot(.invalidName, file, 4, 3),
            Spot(.duplicateKey, file, 5, 3),
            // The repeated key is checked as if it stood alone.
            Spot(.invalidName, file, 5, 3),
            Spot(.invalidName, file, 6, 3),
            Spot(.unknownKey, file, 6, 13),
            Spot(.invalidName, file, 8, 3),
            Spot(.zeroAmount, file, 8, 21),
            Spot(.invalidName, file, 9, 3),
            Spot(.recipeCycle, file, 9, 13),
        ])
        // The invalid-name messages escape them already.
        #expect(compilation.diagnostics[1].message == "id 'a\\u{a}b' contains whitespace")
        let texts = compilation.diagnostics.flatMap { [$0.message] + $0.notes.map(\.message) + [$0.help ?? ""] }
        let raw = texts.filter { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }
        #expect(raw.isEmpty, "\(raw.map(\.debugDescription))")
    }

    @Test func nullAndEmptyKeys() throws {
        let compilation = compile(yaml: "fruits:\n  \"\":\n")
        let diagnostic = try compilation.single()
        #expect(diagnostic.spot == Spot(.invalidName, "inline.yaml", 2, 3))
        #expect(diagnostic.message == "an id cannot be empty")
    }
}
