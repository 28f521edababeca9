import Foundation
import Testing
@_spi(Internals) @testable import JuiceSupport
@testable import JuiceSource
@testable import JuiceDiagnostics
@_spi(Internals) @testable import JuiceYAML

/// The human, GitHub Actions and SARIF printers, asserted on their full output
/// where the output is the feature.
@Suite struct PrinterTests {
    // MARK: - Inputs

    static let menuPath = "recipes/menu.yaml"
    static let fruitsPath = "recipes/fruits.yaml"

    static let menu = SourceFile(path: menuPath, bytes: Array("""
        menu:
          smoothie:
            recipe: { mangoo: 2 }

        """.utf8))

    static let fruits = SourceFile(path: fruitsPath, bytes: Array("""
        fruits:
          mango: {}
          kiwi: {}

        """.utf8))

    static func range(_ file: String, _ line: Int, _ column: Int, _ endLine: Int, _ endColumn: Int) -> SourceRange {
        SourceRange(file: file, start: SourcePosition(line: line, column: column), end: SourcePosition(line: endLine, column: endColumn))
    }

    /// The diagnostic every format is shown with: a note in another file, and help.
    static let unknownMango = Diagnostic(
        .unknownFruit,
        at: range(menuPath, 3, 15, 3, 21),
        "unknown fruit 'mangoo'",
        notes: [.init(range: range(fruitsPath, 2, 3, 2, 8), message: "'mango' is declared here")],
        help: "did you mean 'mango'?"
    )

    static func printer(_ files: SourceFile..., color: Bool = false) -> HumanDiagnosticPrinter {
        HumanDiagnosticPrinter(files: files, color: color)
    }

    static func file(_ path: String, _ text: String) -> SourceFile {
        SourceFile(path: path, bytes: Array(text.utf8))
    }

    // MARK: - Human: layout

    @Test func singleLineSpanWithHelp() {
        let diagnostic = Diagnostic(.unknownFruit, at: Self.range(Self.menuPath, 3, 15, 3, 21), "unknown fruit 'mangoo'", help: "did you mean 'mango'?")
        #expect(Self.printer(Self.menu).render(diagnostic) == """
            recipes/menu.yaml:3:15: error: unknown fruit 'mangoo' [unknown-fruit]
              |
            3 |     recipe: { mangoo: 2 }
              |               ^~~~~~
              = help: did you mean 'mango'?
            """)
    }

    @Test func spanAtColumnOneWithoutHelp() {
        let diagnostic = Diagnostic(.unknownKey, at: Self.range(Self.fruitsPath, 1, 1, 1, 7), "unknown key 'fruits'")
        #expect(Self.printer(Self.fruits).render(diagnostic) == """
            recipes/fruits.yaml:1:1: error: unknown key 'fruits' [unknown-key]
              |
            1 | fruits:
              | ^~~~~~
            """)
    }

    @Test func multiLineSpanIsUnderlinedToTheEndOfItsFirstLine() {
        let diagnostic = Diagnostic(.emptyRecipe, at: Self.range(Self.menuPath, 2, 3, 4, 1), "menu item 'smoothie' has no ingredients")
        #expect(Self.printer(Self.menu).render(diagnostic) == """
            recipes/menu.yaml:2:3: error: menu item 'smoothie' has no ingredients [empty-recipe]
              |
            2 |   smoothie:
              |   ^~~~~~~~~
            """)
    }

    @Test func noteInAnotherFileGetsItsOwnSnippet() {
        #expect(Self.printer(Self.menu, Self.fruits).render(Self.unknownMango) == """
            recipes/menu.yaml:3:15: error: unknown fruit 'mangoo' [unknown-fruit]
              |
            3 |     recipe: { mangoo: 2 }
              |               ^~~~~~
            recipes/fruits.yaml:2:3: note: 'mango' is declared here
              |
            2 |   mango: {}
              |   ^~~~~
              = help: did you mean 'mango'?
            """)
    }

    @Test func gutterIsSizedByTheLargestLineShownIncludingNotes() {
        let lines = (1...11).map { "  key\($0): \($0)" }.joined(separator: "\n")
        let file = Self.file("book.yaml", lines)
        let diagnostic = Diagnostic(
            .duplicateKey,
            at: Self.range("book.yaml", 9, 3, 9, 7),
            "duplicate key 'key9'",
            notes: [.init(range: Self.range("book.yaml", 11, 3, 11, 8), message: "'key11' is here")],
            help: "remove one of them"
        )
        #expect(Self.printer(file).render(diagnostic) == """
            book.yaml:9:3: error: duplicate key 'key9' [duplicate-key]
               |
             9 |   key9: 9
               |   ^~~~
            book.yaml:11:3: note: 'key11' is here
               |
            11 |   key11: 11
               |   ^~~~~
               = help: remove one of them
            """)
    }

    @Test func missingFileOrLinePrintsHeadlinesOnly() {
        let diagnostic = Diagnostic(
            .duplicateDefinition,
            at: Self.range("gone.yaml", 4, 2, 4, 7),
            "fruit 'mango' is defined twice",
            notes: [.init(range: Self.range(Self.fruitsPath, 99, 1, 99, 2), message: "first defined here")],
            help: "rename one of them"
        )
        #expect(Self.printer(Self.fruits).render(diagnostic) == """
            gone.yaml:4:2: error: fruit 'mango' is defined twice [duplicate-definition]
            recipes/fruits.yaml:99:1: note: first defined here
              = help: rename one of them
            """)
        // Line 0 and a negative line are out of range too, not a crash.
        let zero = Diagnostic(.yamlSyntax, at: Self.range(Self.fruitsPath, 0, 0, 0, 0), "broken")
        #expect(Self.printer(Self.fruits).render(zero) == "recipes/fruits.yaml:0:0: error: broken [yaml-syntax]")
        let negative = Diagnostic(.yamlSyntax, at: Self.range(Self.fruitsPath, -3, 1, -3, 1), "broken")
        #expect(Self.printer(Self.fruits).render(negative) == "recipes/fruits.yaml:-3:1: error: broken [yaml-syntax]")
    }

    @Test func emptySpanAndSpanAtEndOfLineGetALoneCaret() {
        let file = Self.file("a.yaml", "menu: [1, 2\nnext: 1\n")
        let atEnd = Diagnostic(.yamlSyntax, at: Self.range("a.yaml", 1, 12, 1, 12), "did not find expected ',' or ']'")
        #expect(Self.printer(file).render(atEnd) == """
            a.yaml:1:12: error: did not find expected ',' or ']' [yaml-syntax]
              |
            1 | menu: [1, 2
              |            ^
            """)
        let empty = Diagnostic(.yamlSyntax, at: Self.range("a.yaml", 2, 5, 2, 5), "here")
        #expect(Self.printer(file).render(empty) == """
            a.yaml:2:5: error: here [yaml-syntax]
              |
            2 | next: 1
              |     ^
            """)
        // A column past the end is clamped to the end of the line.
        let pastEnd = Diagnostic(.yamlSyntax, at: Self.range("a.yaml", 2, 40, 2, 45), "far")
        #expect(Self.printer(file).render(pastEnd).hasSuffix("""
            2 | next: 1
              |        ^
            """))
    }

    @Test func lastEmptyLineOfAFileHasNoTrailingSpace() {
        let file = Self.file("a.yaml", "menu:\n")
        let diagnostic = Diagnostic(.yamlSyntax, at: Self.range("a.yaml", 2, 1, 2, 1), "unexpected end of input")
        #expect(Self.printer(file).render(diagnostic) == """
            a.yaml:2:1: error: unexpected end of input [yaml-syntax]
              |
            2 |
              | ^
            """)
    }

    // MARK: - Human: display width

    @Test func hangulBeforeTheSpanTakesTwoCellsEach() {
        // `과일` is columns 3 and 4 but four terminal cells.
        let file = Self.file("k.yaml", "fruits:\n  과일: { mangoo: 1 }\n")
        let diagnostic = Diagnostic(.unknownFruit, at: Self.range("k.yaml", 2, 9, 2, 15), "unknown fruit 'mangoo'")
        #expect(Self.printer(file).render(diagnostic) == """
            k.yaml:2:9: error: unknown fruit 'mangoo' [unknown-fruit]
              |
            2 |   과일: { mangoo: 1 }
              |           ^~~~~~
            """)
    }

    @Test func hangulSpanIsUnderlinedAcrossBothCells() {
        let file = Self.file("k.yaml", "fruits:\n  망고: {}\n")
        let diagnostic = Diagnostic(.unusedFruit, at: Self.range("k.yaml", 2, 3, 2, 5), "fruit '망고' is never used")
        #expect(Self.printer(file).render(diagnostic) == """
            k.yaml:2:3: warning: fruit '망고' is never used [unused-fruit]
              |
            2 |   망고: {}
              |   ^~~~
            """)
    }

    @Test func tabBeforeTheSpanIsShownAsFourSpaces() {
        let file = Self.file("t.yaml", "menu: {\tkiwii: 1 }\n")
        let diagnostic = Diagnostic(.unknownFruit, at: Self.range("t.yaml", 1, 9, 1, 14), "unknown fruit 'kiwii'")
        #expect(Self.printer(file).render(diagnostic) == """
            t.yaml:1:9: error: unknown fruit 'kiwii' [unknown-fruit]
              |
            1 | menu: {    kiwii: 1 }
              |            ^~~~~
            """)
        // A tab inside the span is underlined as four cells: tab + `kiwii` is nine.
        let spanning = Diagnostic(.unknownFruit, at: Self.range("t.yaml", 1, 8, 1, 14), "x")
        #expect(Self.printer(file).render(spanning).hasSuffix("""
            1 | menu: {    kiwii: 1 }
              |        ^~~~~~~~~
            """))
    }

    @Test func emojiBeforeAndInsideTheSpan() {
        let file = Self.file("e.yaml", "label: \"🥭 mangoo\"\n")
        let after = Diagnostic(.unknownFruit, at: Self.range("e.yaml", 1, 11, 1, 17), "after")
        #expect(Self.printer(file).render(after) == """
            e.yaml:1:11: error: after [unknown-fruit]
              |
            1 | label: "🥭 mangoo"
              |            ^~~~~~
            """)
        let on = Diagnostic(.unknownFruit, at: Self.range("e.yaml", 1, 9, 1, 10), "on")
        #expect(Self.printer(file).render(on).hasSuffix("""
            1 | label: "🥭 mangoo"
              |         ^~
            """))
    }

    @Test func combiningMarksTakeNoCell() {
        // `é` written as e + U+0301 is two columns but one cell.
        let file = Self.file("c.yaml", "cafe\u{301}: mangoo\n")
        let diagnostic = Diagnostic(.unknownFruit, at: Self.range("c.yaml", 1, 8, 1, 14), "x")
        #expect(Self.printer(file).render(diagnostic).hasSuffix("""
            1 | cafe\u{301}: mangoo
              |       ^~~~~~
            """))
    }

    // MARK: - Human: line endings and encodings

    @Test func crlfLinesLoseTheirCarriageReturn() {
        let file = SourceFile(path: "w.yaml", bytes: Array("fruits:\r\n  mango: {}\r\n  kiwii: {}\r\n".utf8))
        let diagnostic = Diagnostic(.unusedFruit, at: Self.range("w.yaml", 3, 3, 3, 8), "fruit 'kiwii' is never used")
        let rendered = Self.printer(file).render(diagnostic)
        #expect(rendered == """
            w.yaml:3:3: warning: fruit 'kiwii' is never used [unused-fruit]
              |
            3 |   kiwii: {}
              |   ^~~~~
            """)
        #expect(!rendered.unicodeScalars.contains("\r"))
    }

    @Test func loneCarriageReturnAndByteOrderMark() {
        // The BOM is not a column, and a lone CR ends a line, as in libyaml.
        let file = SourceFile(path: "m.yaml", bytes: [0xEF, 0xBB, 0xBF] + Array("a: 1\rb: x\r".utf8))
        let diagnostic = Diagnostic(.invalidAmount, at: Self.range("m.yaml", 2, 4, 2, 5), "invalid amount 'x'")
        #expect(Self.printer(file).render(diagnostic) == """
            m.yaml:2:4: error: invalid amount 'x' [invalid-amount]
              |
            2 | b: x
              |    ^
            """)
        let first = Diagnostic(.unknownKey, at: Self.range("m.yaml", 1, 1, 1, 2), "unknown key 'a'")
        #expect(Self.printer(file).render(first).hasSuffix("""
            1 | a: 1
              | ^
            """))
    }

    @Test func controlCharactersInTheSourceAreShownAsSymbols() {
        let file = Self.file("x.yaml", "name: \u{1B}[31mred\u{7}\u{202E}x\n")
        let diagnostic = Diagnostic(.yamlSyntax, at: Self.range("x.yaml", 1, 7, 1, 8), "control characters are not allowed")
        let rendered = Self.printer(file).render(diagnostic)
        #expect(rendered == """
            x.yaml:1:7: error: control characters are not allowed [yaml-syntax]
              |
            1 | name: \u{241B}[31mred\u{2407}\u{FFFD}x
              |       ^
            """)
        #expect(!rendered.utf8.contains(0x1B))
    }

    // MARK: - Human: colour

    @Test func colourUsesTheDocumentedSGRSequences() {
        let e = "\u{1B}["
        let rendered = Self.printer(Self.menu, Self.fruits, color: true).render(Self.unknownMango)
        let expected = [
            "\(e)1mrecipes/menu.yaml:3:15:\(e)0m \(e)1;31merror:\(e)0m \(e)1munknown fruit 'mangoo' [unknown-fruit]\(e)0m",
            "\(e)1;34m  |\(e)0m",
            "\(e)1;34m3 |\(e)0m     recipe: { mangoo: 2 }",
            "\(e)1;34m  |\(e)0m               \(e)1;31m^~~~~~\(e)0m",
            "\(e)1mrecipes/fruits.yaml:2:3:\(e)0m \(e)1;36mnote:\(e)0m 'mango' is declared here",
            "\(e)1;34m  |\(e)0m",
            "\(e)1;34m2 |\(e)0m   mango: {}",
            "\(e)1;34m  |\(e)0m   \(e)1;36m^~~~~\(e)0m",
            "  \(e)1;34m=\(e)0m \(e)1;32mhelp:\(e)0m did you mean 'mango'?",
        ].joined(separator: "\n")
        #expect(rendered == expected)
    }

    @Test(arguments: [
        (Severity.warning, "\u{1B}[1;33m"),
        (Severity.info, "\u{1B}[1;36m"),
    ])
    func warningAndInfoColours(severity: Severity, sgr: String) {
        let diagnostic = Diagnostic(.unusedFruit, at: Self.range(Self.fruitsPath, 3, 3, 3, 7), "fruit 'kiwi' is never used", severity: severity)
        let rendered = Self.printer(Self.fruits, color: true).render(diagnostic)
        let e = "\u{1B}["
        #expect(rendered == [
            "\(e)1mrecipes/fruits.yaml:3:3:\(e)0m \(sgr)\(severity.rawValue):\(e)0m \(e)1mfruit 'kiwi' is never used [unused-fruit]\(e)0m",
            "\(e)1;34m  |\(e)0m",
            "\(e)1;34m3 |\(e)0m   kiwi: {}",
            "\(e)1;34m  |\(e)0m   \(sgr)^~~~\(e)0m",
        ].joined(separator: "\n"))
    }

    @Test func colourOffHasNoEscapeByteEvenFromHostileInput() {
        let file = Self.file("h\u{1B}.yaml", "key: \u{1B}]0;title\u{7}\u{9B}31m\n")
        var diagnostic = Diagnostic(
            .yamlSyntax,
            at: Self.range("h\u{1B}.yaml", 1, 6, 1, 7),
            "bad \u{1B}[2J",
            notes: [.init(range: Self.range("h\u{1B}.yaml", 1, 1, 1, 4), message: "note \u{1B}[1m")],
            help: "help \u{1B}[0m"
        )
        // Even a message changed after construction is escaped on the way out.
        diagnostic.message += "\u{1B}[5m"
        let rendered = Self.printer(file).render(diagnostic)
        #expect(!rendered.utf8.contains(0x1B))
        #expect(!rendered.unicodeScalars.contains("\u{9B}"))
        #expect(rendered.contains("1 | key: \u{241B}]0;title\u{2407}\u{FFFD}31m"))
        // And the normal, colourless rendering of the shared example has none either.
        #expect(!Self.printer(Self.menu, Self.fruits).render(Self.unknownMango).utf8.contains(0x1B))
    }

    // MARK: - Human: summary

    @Test func summaryCountsInfos() {
        let diagnostics = [
            Self.unknownMango,
            Diagnostic(.missingStock, at: Self.range(Self.fruitsPath, 2, 3, 2, 8), "fruit 'mango' has no stock"),
            Diagnostic(.neverMakeable, at: Self.range(Self.menuPath, 2, 3, 2, 11), "menu item 'smoothie' can never be made"),
            Diagnostic(.unusedFruit, at: Self.range(Self.fruitsPath, 3, 3, 3, 7), "fruit 'kiwi' is never used"),
        ]
        let counts = DiagnosticCounts(files: 2, diagnostics: diagnostics)
        #expect(HumanDiagnosticPrinter.summary(counts) == "files: 2, errors: 1, warnings: 1, infos: 2")
    }

    // MARK: - Colour decision

    @Test(arguments: [
        // Explicit choices win over everything.
        (ColorChoice.always, false, ["NO_COLOR": "1"], true),
        (ColorChoice.never, true, ["FORCE_COLOR": "1"], false),
        (ColorChoice.never, true, [:], false),
        (ColorChoice.always, false, [:], true),
        // NO_COLOR, when non-empty, beats FORCE_COLOR and a terminal.
        (ColorChoice.auto, true, ["NO_COLOR": "1"], false),
        (ColorChoice.auto, true, ["NO_COLOR": "1", "FORCE_COLOR": "1"], false),
        (ColorChoice.auto, true, ["NO_COLOR": ""], true),
        // FORCE_COLOR colours a non-terminal unless empty or 0.
        (ColorChoice.auto, false, ["FORCE_COLOR": "1"], true),
        (ColorChoice.auto, false, ["FORCE_COLOR": "true"], true),
        (ColorChoice.auto, false, ["FORCE_COLOR": "0"], false),
        (ColorChoice.auto, false, ["FORCE_COLOR": ""], false),
        (ColorChoice.auto, false, ["NO_COLOR": "", "FORCE_COLOR": "3"], true),
        // Otherwise the terminal decides.
        (ColorChoice.auto, true, [:], true),
        (ColorChoice.auto, false, [:], false),
        (ColorChoice.auto, true, ["FORCE_COLOR": "0"], true),
    ])
    func colourDecision(flag: ColorChoice, isTerminal: Bool, environment: [String: String], expected: Bool) {
        #expect(TerminalColor.shouldColor(flag: flag, isTerminal: isTerminal, environment: environment) == expected)
    }

    @Test func colourChoicesAreTheFlagValues() {
        #expect(ColorChoice.allCases.map(\.rawValue) == ["auto", "always", "never"])
    }

    // MARK: - Display width

    @Test(arguments: [
        ("a", 1), (" ", 1), ("~", 1), ("é", 1),
        ("\u{0301}", 0), ("\u{200D}", 0), ("\u{200B}", 0), ("\u{FEFF}", 0), ("\u{FE0F}", 0),
        ("\u{1161}", 0), ("\u{11A8}", 0),
        ("한", 2), ("망", 2), ("\u{1100}", 2), ("中", 2), ("の", 2), ("Ａ", 2), ("　", 2), ("𠀋", 2),
        ("🥭", 2), ("😀", 2), ("🇫", 2),
        ("☺", 1), ("❤", 1), ("#", 1), ("\u{2400}", 1), ("\u{FFFD}", 1),
    ])
    func scalarWidth(text: String, width: Int) throws {
        let scalar = try #require(text.unicodeScalars.first)
        #expect(text.unicodeScalars.count == 1)
        #expect(DisplayWidth.of(scalar) == width)
    }

    @Test(arguments: [
        ("mango", 5),
        ("망고", 4),
        ("과일: {", 7),
        ("e\u{0301}", 1),                          // decomposed é
        ("\u{1100}\u{1161}\u{11A8}", 2),           // conjoining jamo 각
        ("🥭 mango", 8),
        ("👩\u{200D}🍳", 2),                        // ZWJ sequence: one glyph
        ("👍🏽", 2),                                 // skin-tone modifier
        ("🇰🇷", 2),                                  // flag
        ("❤\u{FE0F}", 2),                           // text emoji with emoji presentation
        ("1\u{FE0F}\u{20E3}", 2),                   // keycap
        ("", 0),
    ])
    func textWidth(text: String, width: Int) {
        #expect(DisplayWidth.of(text) == width)
    }

    // MARK: - Source lines

    @Test func sourceLinesSplitLikeLibyaml() {
        let lines = SourceLines(bytes: Array("a\nb\r\nc\rd\u{85}e\u{2028}f\u{2029}g".utf8))
        #expect(lines.count == 7)
        #expect((1...7).compactMap { lines[line: $0] } == ["a", "b", "c", "d", "e", "f", "g"])
        #expect(lines[line: 0] == nil)
        #expect(lines[line: 8] == nil)
        // CR then LF is one break; LF then CR is two.
        let pairs = SourceLines(bytes: Array("a\r\n\n\r".utf8))
        #expect((1...pairs.count).compactMap { pairs[line: $0] } == ["a", "", "", ""])
    }

    @Test func sourceLinesDecodeUTF16AndDropByteOrderMarks() {
        let text = "망고: 1\nkiwi: 2"
        let little: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let big: [UInt8] = [0xFE, 0xFF] + text.utf16.flatMap { unit -> [UInt8] in [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        let utf8: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(text.utf8)
        for bytes in [little, big, utf8] {
            let lines = SourceLines(bytes: bytes)
            #expect(lines[line: 1] == "망고: 1")
            #expect(lines[line: 2] == "kiwi: 2")
        }
    }

    @Test func sourceLinesMatchLibyamlPositions() throws {
        // libyaml itself says where `kiwii` is after a U+2028 line break and a CRLF.
        let yaml = "fruits:\r\n  mango: {}\u{2028}  kiwii: {}\nmenu: {}\n"
        let composed = YAMLComposer.compose(bytes: Array(yaml.utf8), file: "ls.yaml")
        #expect(composed.diagnostics.isEmpty, "\(composed.diagnostics.map(\.spot))")
        let document = try #require(composed.documents.first)
        let root = try #require(document.root)
        let fruits = try #require(document.value("fruits", in: root))
        let kiwi = try #require(Array(document.pairs(of: fruits)).last?.key)
        let range = document.range(of: kiwi)
        #expect(range.start == at(3, 3))
        let diagnostic = Diagnostic(.unusedFruit, at: range, "fruit 'kiwii' is never used")
        #expect(HumanDiagnosticPrinter(files: [Self.file("ls.yaml", yaml)], color: false).render(diagnostic) == """
            ls.yaml:3:3: warning: fruit 'kiwii' is never used [unused-fruit]
              |
            3 |   kiwii: {}
              |   ^~~~~
            """)
    }

    // MARK: - GitHub Actions

    @Test func gitHubCommandCarriesNotesAndHelp() {
        #expect(GitHubDiagnosticPrinter.render([Self.unknownMango]) == """
            ::error file=recipes/menu.yaml,line=3,col=15,endLine=3,endColumn=20,title=unknown-fruit::unknown fruit 'mangoo'%0Anote: recipes/fruits.yaml:2:3: 'mango' is declared here%0Ahelp: did you mean 'mango'?
            """)
    }

    @Test func gitHubCommandPerSeverityJoinedByNewlines() {
        let diagnostics = [
            Diagnostic(.unknownKey, at: Self.range("a.yaml", 1, 1, 1, 4), "unknown key 'foo'"),
            Diagnostic(.unusedFruit, at: Self.range("a.yaml", 2, 3, 2, 7), "fruit 'kiwi' is never used"),
            Diagnostic(.missingStock, at: Self.range("a.yaml", 3, 3, 3, 8), "fruit 'mango' has no stock"),
        ]
        #expect(GitHubDiagnosticPrinter.render(diagnostics) == """
            ::error file=a.yaml,line=1,col=1,endLine=1,endColumn=3,title=unknown-key::unknown key 'foo'
            ::warning file=a.yaml,line=2,col=3,endLine=2,endColumn=6,title=unused-fruit::fruit 'kiwi' is never used
            ::notice file=a.yaml,line=3,col=3,endLine=3,endColumn=7,title=missing-stock::fruit 'mango' has no stock
            """)
        #expect(GitHubDiagnosticPrinter.render([]) == "")
    }

    @Test func gitHubEscaping() {
        #expect(GitHubDiagnosticPrinter.escapeData("100% a\r\nb:c,d %0A") == "100%25 a%0D%0Ab:c,d %250A")
        #expect(GitHubDiagnosticPrinter.escapeProperty("a:b,c%d\re\nf") == "a%3Ab%2Cc%25d%0De%0Af")
        #expect(GitHubDiagnosticPrinter.escapeProperty("망고 🥭") == "망고 🥭")
    }

    @Test func gitHubEscapesMessagesAndProperties() {
        var diagnostic = Diagnostic(
            .invalidAmount,
            at: Self.range("dir:x,y/100%.yaml", 2, 5, 2, 9),
            "amount '50%' is not a whole number",
            notes: [.init(range: Self.range("n,o:te.yaml", 1, 1, 1, 2), message: "see 1,000: here")],
            help: "write 50"
        )
        // Diagnostics escape control characters themselves; a raw CR/LF can only
        // arrive through a mutated message, and must still not end the command.
        diagnostic.message += "\r\n::error::injected"
        #expect(GitHubDiagnosticPrinter.render([diagnostic]) == """
            ::error file=dir%3Ax%2Cy/100%25.yaml,line=2,col=5,endLine=2,endColumn=8,title=invalid-amount::amount '50%25' is not a whole number%0D%0A::error::injected%0Anote: n,o:te.yaml:1:1: see 1,000: here%0Ahelp: write 50
            """)
        #expect(!GitHubDiagnosticPrinter.render([diagnostic]).contains("\n"))
    }

    // MARK: - SARIF

    static let sarifDiagnostics: [Diagnostic] = [
        unknownMango,
        Diagnostic(
            .unusedFruit,
            at: range("recipes/my menu.yaml", 4, 3, 4, 7),
            "fruit 'kiwi' is never used \"quoted\" \\ 망고",
            notes: [
                .init(range: range("recipes/my menu.yaml", 1, 1, 1, 7), message: "declared under 'fruits'"),
                .init(range: range("/abs/other#1.yaml", 2, 2, 2, 3), message: "and mentioned here"),
            ]
        ),
        Diagnostic(.missingStock, at: range("recipes/fruits.yaml", 2, 3, 2, 8), "fruit 'mango' has no stock", help: "add 'mango' under 'stock'"),
    ]

    static func parse(_ json: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test func sarifLogDescribesTheToolAndEveryRule() throws {
        let log = try Self.parse(SARIFDiagnosticPrinter.render(Self.sarifDiagnostics))
        #expect(log["$schema"] as? String == "https://json.schemastore.org/sarif-2.1.0.json")
        #expect(log["version"] as? String == "2.1.0")
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let run = runs[0]
        #expect(run["columnKind"] as? String == "unicodeCodePoints")
        let bases = try #require(run["originalUriBaseIds"] as? [String: Any])
        #expect(bases.keys.sorted() == ["%SRCROOT%"])
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "juice-lint")
        #expect(driver["version"] as? String == JuiceMakerVersion.current)
        // No home page exists yet, so no informationUri: SARIF makes it optional.
        #expect(driver["informationUri"] == nil)
        #expect(driver.keys.sorted() == ["name", "rules", "version"])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == Rule.allCases.map(\.id))
        for (rule, entry) in zip(Rule.allCases, rules) {
            #expect((entry["shortDescription"] as? [String: Any])?["text"] as? String == rule.summary)
            #expect((entry["fullDescription"] as? [String: Any])?["text"] as? String == rule.fullDescription)
            #expect((entry["help"] as? [String: Any])?["text"] as? String == rule.helpText)
            let level = (entry["defaultConfiguration"] as? [String: Any])?["level"] as? String
            #expect(level == SARIFDiagnosticPrinter.level(rule.defaultSeverity), "\(rule.id)")
        }
        #expect(rules.first { $0["id"] as? String == "unused-fruit" }.flatMap { ($0["defaultConfiguration"] as? [String: Any])?["level"] as? String } == "warning")
        #expect(rules.first { $0["id"] as? String == "missing-stock" }.flatMap { ($0["defaultConfiguration"] as? [String: Any])?["level"] as? String } == "note")
    }

    @Test func sarifResultsCarryLocationsNotesAndHelp() throws {
        let log = try Self.parse(SARIFDiagnosticPrinter.render(Self.sarifDiagnostics))
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.map { $0["ruleId"] as? String } == ["unknown-fruit", "unused-fruit", "missing-stock"])
        #expect(results.map { $0["ruleIndex"] as? Int } == [Rule.unknownFruit, .unusedFruit, .missingStock].map { Rule.allCases.firstIndex(of: $0) })
        #expect(results.map { $0["level"] as? String } == ["error", "warning", "note"])
        #expect(results.map { ($0["message"] as? [String: Any])?["text"] as? String } == [
            "unknown fruit 'mangoo'\nhelp: did you mean 'mango'?",
            "fruit 'kiwi' is never used \"quoted\" \\ 망고",
            "fruit 'mango' has no stock\nhelp: add 'mango' under 'stock'",
        ])

        func physical(_ object: [String: Any]?) throws -> (uri: String?, base: String?, region: [String: Int]) {
            let location = try #require(object?["physicalLocation"] as? [String: Any])
            let artifact = try #require(location["artifactLocation"] as? [String: Any])
            let region = try #require(location["region"] as? [String: Int])
            return (artifact["uri"] as? String, artifact["uriBaseId"] as? String, region)
        }

        let first = try physical((results[0]["locations"] as? [[String: Any]])?.first)
        #expect(first.uri == "recipes/menu.yaml")
        #expect(first.base == "%SRCROOT%")
        #expect(first.region == ["startLine": 3, "startColumn": 15, "endLine": 3, "endColumn": 21])
        #expect((results[0]["locations"] as? [[String: Any]])?.count == 1)

        let second = try physical((results[1]["locations"] as? [[String: Any]])?.first)
        #expect(second.uri == "recipes/my%20menu.yaml")
        #expect(second.region == ["startLine": 4, "startColumn": 3, "endLine": 4, "endColumn": 7])

        let related = try #require(results[1]["relatedLocations"] as? [[String: Any]])
        #expect(related.map { $0["id"] as? Int } == [1, 2])
        #expect(related.map { ($0["message"] as? [String: Any])?["text"] as? String } == ["declared under 'fruits'", "and mentioned here"])
        let noteInFile = try physical(related[0])
        #expect(noteInFile.uri == "recipes/my%20menu.yaml")
        #expect(noteInFile.base == "%SRCROOT%")
        #expect(noteInFile.region == ["startLine": 1, "startColumn": 1, "endLine": 1, "endColumn": 7])
        // An absolute path is a file URI, which a base id may not qualify.
        let absolute = try physical(related[1])
        #expect(absolute.uri == "file:///abs/other%231.yaml")
        #expect(absolute.base == nil)

        #expect(results[0]["relatedLocations"] as? [[String: Any]] != nil)
        #expect(results[2]["relatedLocations"] == nil)
    }

    @Test func sarifWithoutDiagnosticsHasEmptyResults() throws {
        let rendered = SARIFDiagnosticPrinter.render([])
        #expect(rendered.hasSuffix("""
                  "results": []
                }
              ]
            }
            """))
        let run = try #require((try Self.parse(rendered)["runs"] as? [[String: Any]])?.first)
        #expect((run["results"] as? [Any])?.isEmpty == true)
    }

    @Test func sarifLayoutAndKeyOrderAreFixed() {
        var mango = Self.unknownMango
        mango.fixes = [Fix(title: "replace 'mangoo' with 'mango'", edits: [TextEdit(range: Self.range(Self.menuPath, 3, 15, 3, 21), replacement: "mango")])]
        let root = SourceRoot(path: "/srv/juice shop", workingDirectory: "/srv/juice shop")
        let rendered = SARIFDiagnosticPrinter.render([mango], root: root)
        #expect(rendered.hasPrefix("""
            {
              "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
              "version": "2.1.0",
              "runs": [
                {
                  "tool": {
                    "driver": {
                      "name": "juice-lint",
                      "version": "\(JuiceMakerVersion.current)",
                      "rules": [
                        {
                          "id": "yaml-syntax",
                          "shortDescription": {
            """))
        // Everything after the rule catalogue, whose texts are written elsewhere.
        let tail = """
                  "originalUriBaseIds": {
                    "%SRCROOT%": {
                      "uri": "file:///srv/juice%20shop/",
                      "description": {
                        "text": "The base path (--base-path): by default the git work tree juice-lint ran in, else the directory it ran in. Relative uris are resolved against it."
                      }
                    }
                  },
                  "columnKind": "unicodeCodePoints",
                  "results": [
                    {
                      "ruleId": "unknown-fruit",
                      "ruleIndex": 8,
                      "level": "error",
                      "message": {
                        "text": "unknown fruit 'mangoo'\\nhelp: did you mean 'mango'?"
                      },
                      "locations": [
                        {
                          "physicalLocation": {
                            "artifactLocation": {
                              "uri": "recipes/menu.yaml",
                              "uriBaseId": "%SRCROOT%"
                            },
                            "region": {
                              "startLine": 3,
                              "startColumn": 15,
                              "endLine": 3,
                              "endColumn": 21
                            }
                          }
                        }
                      ],
                      "relatedLocations": [
                        {
                          "id": 1,
                          "physicalLocation": {
                            "artifactLocation": {
                              "uri": "recipes/fruits.yaml",
                              "uriBaseId": "%SRCROOT%"
                            },
                            "region": {
                              "startLine": 2,
                              "startColumn": 3,
                              "endLine": 2,
                              "endColumn": 8
                            }
                          },
                          "message": {
                            "text": "'mango' is declared here"
                          }
                        }
                      ],
                      "partialFingerprints": {
                        "juiceLint/v1": "473cfee16a760372:1"
                      },
                      "fixes": [
                        {
                          "description": {
                            "text": "replace 'mangoo' with 'mango'"
                          },
                          "artifactChanges": [
                            {
                              "artifactLocation": {
                                "uri": "recipes/menu.yaml",
                                "uriBaseId": "%SRCROOT%"
                              },
                              "replacements": [
                                {
                                  "deletedRegion": {
                                    "startLine": 3,
                                    "startColumn": 15,
                                    "endLine": 3,
                                    "endColumn": 21
                                  },
                                  "insertedContent": {
                                    "text": "mango"
                                  }
                                }
                              ]
                            }
                          ]
                        }
                      ]
                    }
                  ]
                }
              ]
            }
            """
        #expect(rendered.hasSuffix("\n" + tail), "\(rendered)")
    }

    @Test(arguments: [
        ("recipes/menu.yaml", "recipes/menu.yaml"),
        ("my menu.yaml", "my%20menu.yaml"),
        ("a:b/c?d#e%f.yaml", "a%3Ab/c%3Fd%23e%25f.yaml"),
        ("과일/망고.yaml", "%EA%B3%BC%EC%9D%BC/%EB%A7%9D%EA%B3%A0.yaml"),
        ("../up/~x_y-z.yaml", "../up/~x_y-z.yaml"),
    ])
    func sarifPathsArePercentEncoded(path: String, uri: String) {
        #expect(SARIFDiagnosticPrinter.percentEncodedPath(path) == uri)
    }

    // MARK: - JSON pretty printing

    @Test func prettyPrintingIndentsAndKeepsStringsIntact() {
        var json = JSONWriter()
        json.beginObject()
        json.key("a")
        json.beginArray()
        json.endArray()
        json.key("b")
        json.beginObject()
        json.key("c")
        json.beginArray()
        json.int(1)
        json.bool(true)
        json.null()
        json.endArray()
        json.endObject()
        json.field("d", "x:, {[\"]} \\ 망고\n")
        json.key("e")
        json.beginObject()
        json.endObject()
        json.endObject()
        #expect(json.output == #"{"a":[],"b":{"c":[1,true,null]},"d":"x:, {[\"]} \\ 망고\n","e":{}}"#)
        #expect(json.prettyPrintedOutput == #"""
            {
              "a": [],
              "b": {
                "c": [
                  1,
                  true,
                  null
                ]
              },
              "d": "x:, {[\"]} \\ 망고\n",
              "e": {}
            }
            """#)
        #expect(JSONWriter.prettyPrinted("[ ]") == "[]")
        #expect(JSONWriter.prettyPrinted(#"{"k":[ {"x":1} ]}"#, indentWidth: 4) == """
            {
                "k": [
                    {
                        "x": 1
                    }
                ]
            }
            """)
    }
}

// MARK: - Schema validation

/// Validates JSON against the SARIF 2.1.0 schema in `Schemas/` with python's
/// `jsonschema`, the reference validator, so a SARIF log that GitHub would
/// reject for its shape fails here first (`TestPython` says which python).
enum SARIFSchema {
    static let path = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("Schemas/sarif-schema-2.1.0.json")
        .path

    /// Why the validator cannot run, or nil when `import jsonschema` works.
    static let validatorProblem: String? = TestPython.problem(importing: ["jsonschema"])

    /// Prints one line per schema error and exits 1 when there are any.
    static let script = """
        import json, sys, jsonschema
        with open(sys.argv[1]) as f:
            schema = json.load(f)
        document = json.load(sys.stdin)
        validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
        errors = sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.absolute_path)))
        for error in errors:
            print("/".join(map(str, error.absolute_path)) + ": " + error.message)
        sys.exit(1 if errors else 0)
        """

    /// The validator's exit status and what it printed.
    /// Fails the test (it is not skipped) when there is no validator.
    static func validate(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (status: Int32, output: String) {
        try TestPython.requireModules(validatorProblem, sourceLocation: sourceLocation)
        return try run(["-c", script, path], input: json)
    }

    private static func run(_ arguments: [String], input: String) throws -> (status: Int32, output: String) {
        let process = TestPython.process(arguments)
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stdout
        try process.run()
        // python reads all of stdin before it prints, so writing first cannot deadlock.
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}

@Suite struct SARIFSchemaTests {
    @Test func renderedLogsMatchTheOfficialSchema() throws {
        var everySeverity = PrinterTests.sarifDiagnostics
        everySeverity.append(Diagnostic(.yamlSyntax, at: PrinterTests.range("dir with spaces/ü.yaml", 1, 1, 2, 1), "bad\tthing"))
        for diagnostics in [everySeverity, []] {
            let result = try SARIFSchema.validate(SARIFDiagnosticPrinter.render(diagnostics))
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.isEmpty, "\(result.output)")
        }
    }

    /// Everything the log can hold at once: fingerprints on every result,
    /// fixes (a replacement, a deletion, an insertion, two files), the
    /// omission notification, a base URI, and a file outside the base.
    @Test func fixesFingerprintsAndNotificationsMatchTheOfficialSchema() throws {
        var fixed = PrinterTests.unknownMango
        fixed.fixes = [
            Fix(title: "replace 'mangoo' with 'mango'", edits: [TextEdit(range: PrinterTests.range("recipes/menu.yaml", 3, 15, 3, 21), replacement: "mango")]),
            Fix(title: "remove and add", edits: [
                TextEdit(range: PrinterTests.range("recipes/menu.yaml", 4, 1, 5, 1), replacement: ""),
                TextEdit(range: PrinterTests.range("recipes/fruits.yaml", 2, 3, 2, 3), replacement: "mangoo: {}\n  "),
            ]),
        ]
        let outside = Diagnostic(.unusedFruit, at: PrinterTests.range("/elsewhere/ü #1.yaml", 1, 1, 1, 5), "fruit 'kiwi' is not used by any menu item")
        let log = SARIFDiagnosticPrinter.render(
            [fixed, fixed, outside], omitted: 3, root: SourceRoot(path: "/srv/juice shop", workingDirectory: "/srv/juice shop")
        )
        #expect(log.contains("\"fixes\""))
        #expect(log.contains("\"partialFingerprints\""))
        #expect(log.contains("\"toolExecutionNotifications\""))
        let result = try SARIFSchema.validate(log)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.isEmpty, "\(result.output)")
        // And the schema does look into them: a fix without changes is refused.
        let broken = try SARIFSchema.validate(log.replacingOccurrences(of: "\"artifactChanges\"", with: "\"artifactChangez\""))
        #expect(broken.status == 1)
        #expect(broken.output.contains("'artifactChanges' is a required property"), "\(broken.output)")
    }

    @Test func theValidatorRejectsAnInvalidLog() throws {
        // Guards the test above: a validator that accepts anything would pass it.
        let broken = SARIFDiagnosticPrinter.render(PrinterTests.sarifDiagnostics)
            .replacingOccurrences(of: "\"startLine\": 3", with: "\"startLine\": 0")
            .replacingOccurrences(of: "\"level\": \"note\"", with: "\"level\": \"info\"")
        let result = try SARIFSchema.validate(broken)
        #expect(result.status == 1)
        #expect(result.output.contains("startLine: 0 is less than the minimum of 1"), "\(result.output)")
        #expect(result.output.contains("'info' is not one of"), "\(result.output)")
    }
}

@Suite struct SnippetClippingTests {
    /// A generated file can hold a whole book on one line: the snippet shows a
    /// window around the span, never the whole line.
    @Test func longLinesAreClippedAroundTheSpan() {
        let line = String(repeating: "a: 1, ", count: 100) + "mangoo: 2" + String(repeating: ", b: 1", count: 100)
        let file = SourceFile(path: "long.yaml", bytes: Array(line.utf8))
        let start = 601
        let diagnostic = Diagnostic(
            .unknownFruit,
            at: SourceRange(file: "long.yaml", start: SourcePosition(line: 1, column: start), end: SourcePosition(line: 1, column: start + 6)),
            "unknown fruit 'mangoo'"
        )
        let rendered = HumanDiagnosticPrinter(files: [file], color: false).render(diagnostic)
        let expectedLine = "1 | …" + String(String(repeating: "a: 1, ", count: 100).suffix(60)) + "mangoo: 2"
            + String(String(repeating: ", b: 1", count: 100).prefix(57)) + "…"
        #expect(rendered == """
            long.yaml:1:601: error: unknown fruit 'mangoo' [unknown-fruit]
              |
            \(expectedLine)
              |  \(String(repeating: " ", count: 60))^~~~~~
            """)
    }
}
