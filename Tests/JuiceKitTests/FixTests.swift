import Foundation
import Testing
@_spi(Internals) @testable import JuiceSupport
@testable import JuiceSource
@testable import JuiceDiagnostics
@testable import JuiceBook
@testable import JuiceLint

/// Placing edits in a file's bytes, and applying a fix's edits.
@Suite struct FixApplyingTests {
    private func edit(_ start: SourcePosition, _ end: SourcePosition, _ text: String = "", file: String = "f.yaml") -> TextEdit {
        TextEdit(range: SourceRange(file: file, start: start, end: end), replacement: text)
    }

    private func apply(_ edits: [TextEdit], to bytes: [UInt8]) throws(FixError) -> [UInt8] {
        try Fix(title: "t", edits: edits).applied(to: bytes, path: "f.yaml")
    }

    @Test func asciiPositionsAreByteOffsets() throws {
        let bytes = Array("ab\ncd\n".utf8)
        #expect(edit(at(1, 1), at(1, 3)).byteRange(in: bytes) == 0..<2)
        #expect(edit(at(2, 1), at(2, 3)).byteRange(in: bytes) == 3..<5)
        // The end of the file: the empty line after the last break.
        #expect(edit(at(3, 1), at(3, 1)).byteRange(in: bytes) == 6..<6)
        #expect(try apply([edit(at(2, 1), at(2, 3), "xyz")], to: bytes) == Array("ab\nxyz\n".utf8))
    }

    @Test func multiByteScalarsAreOneColumn() throws {
        // 가 and 나 are 3 bytes each in UTF-8, 🍋 is 4: one column apiece.
        let bytes = Array("가나: 🍋x\n".utf8)
        #expect(edit(at(1, 2), at(1, 3)).byteRange(in: bytes) == 3..<6)
        #expect(edit(at(1, 5), at(1, 6)).byteRange(in: bytes) == 8..<12)
        #expect(edit(at(1, 6), at(1, 7)).byteRange(in: bytes) == 12..<13)
        #expect(try apply([edit(at(1, 5), at(1, 6), "망고")], to: bytes) == Array("가나: 망고x\n".utf8))
    }

    @Test func everyLineBreakLibyamlCountsEndsALine() {
        // CRLF is one break; a lone CR, NEL, U+2028 and U+2029 are breaks too.
        let bytes = Array("a\r\nb\rc\u{85}d\u{2028}e\u{2029}f".utf8)
        #expect(edit(at(1, 2), at(2, 1)).byteRange(in: bytes) == 1..<3)
        #expect(edit(at(2, 1), at(2, 2)).byteRange(in: bytes) == 3..<4)
        #expect(edit(at(3, 1), at(3, 2)).byteRange(in: bytes) == 5..<6)
        #expect(edit(at(4, 1), at(4, 2)).byteRange(in: bytes) == 8..<9)
        #expect(edit(at(5, 1), at(5, 2)).byteRange(in: bytes) == 12..<13)
        #expect(edit(at(6, 1), at(6, 2)).byteRange(in: bytes) == 16..<17)
    }

    @Test func aByteOrderMarkIsNoColumnAndABadByteIsOne() {
        #expect(edit(at(1, 1), at(1, 2)).byteRange(in: [0xEF, 0xBB, 0xBF] + Array("ab".utf8)) == 3..<4)
        // 0xFF decodes to one U+FFFD, as SourceDecoding shows it.
        #expect(edit(at(1, 3), at(1, 4)).byteRange(in: [0x61, 0xFF, 0x62]) == 2..<3)
    }

    @Test func positionsRoundTripWithSourcePosition() {
        let text = "fruits:\r\n  망고: { label: \"🍋\" }\r  kiwi:\u{2028}x\n\n"
        for bytes in [Array(text.utf8), [0xEF, 0xBB, 0xBF] + Array(text.utf8), utf16(text, littleEndian: true)] {
            let offsets = Array(bytes.indices) + [bytes.count]
            // Offsets inside a scalar decode as a U+FFFD, a column the file
            // does not have; every offset between scalars must round-trip.
            for offset in offsets where !SourceDecoding.text(of: bytes, upTo: offset).unicodeScalars.contains("\u{FFFD}") {
                let position = bytes.withUnsafeBufferPointer { SourcePosition.of(byteOffset: offset, in: $0) }
                guard let found = edit(position, position).byteRange(in: bytes)?.lowerBound else {
                    Issue.record("no offset for \(position) (byte \(offset))")
                    continue
                }
                // An offset inside a CRLF or the mark reads as the place
                // next to it; that place's offset reads back the same.
                let back = bytes.withUnsafeBufferPointer { SourcePosition.of(byteOffset: found, in: $0) }
                #expect(back == position, "byte \(offset)")
            }
        }
    }

    @Test func utf16FilesAreEditedInTheirOwnEncoding() throws {
        for littleEndian in [true, false] {
            let bytes = utf16("a: 🍋\n가: 1\n", littleEndian: littleEndian)
            // The mark is 2 bytes, 'a: ' 6, 🍋 a surrogate pair of 4: one column.
            #expect(edit(at(1, 4), at(1, 5)).byteRange(in: bytes) == 8..<12)
            #expect(edit(at(2, 1), at(2, 2)).byteRange(in: bytes) == 14..<16)
            let edited = try apply([edit(at(2, 1), at(2, 2), "망고")], to: bytes)
            #expect(edited == utf16("a: 🍋\n망고: 1\n", littleEndian: littleEndian))
            #expect(SourceDecoding.text(of: edited) == "a: 🍋\n망고: 1\n")
        }
    }

    @Test func aSpanOutsideTheFileIsRefused() {
        let bytes = Array("ab\ncd".utf8)
        #expect(edit(at(3, 1), at(3, 1)).byteRange(in: bytes) == nil)
        #expect(edit(at(1, 1), at(1, 4)).byteRange(in: bytes) == nil)
        #expect(edit(at(1, 2), at(1, 1)).byteRange(in: bytes) == nil)
        let outside = edit(at(2, 1), at(2, 9), "x")
        #expect(throws: FixError.outsideFile(outside)) { try apply([outside], to: bytes) }
    }

    @Test func overlappingEditsAreRefusedAndOtherFilesLeftAlone() throws {
        let bytes = Array("abcdef".utf8)
        let first = edit(at(1, 1), at(1, 4), "x"), second = edit(at(1, 3), at(1, 5), "y")
        #expect(throws: FixError.overlapping(first, second)) { try apply([second, first], to: bytes) }
        // Two insertions at one place have no clear order.
        let insertA = edit(at(1, 2), at(1, 2), "1"), insertB = edit(at(1, 2), at(1, 2), "2")
        #expect(throws: FixError.overlapping(insertA, insertB)) { try apply([insertA, insertB], to: bytes) }
        // Touching edits are fine, applied against the original bytes in any order given.
        let touching = [edit(at(1, 4), at(1, 7), "Z"), edit(at(1, 1), at(1, 4), "A")]
        #expect(try apply(touching, to: bytes) == Array("AZ".utf8))
        let elsewhere = edit(at(1, 1), at(1, 2), "!", file: "other.yaml")
        #expect(try apply([elsewhere, edit(at(1, 6), at(1, 7), "F")], to: bytes) == Array("abcdeF".utf8))
    }
}

/// `text` as UTF-16 with its byte-order mark.
func utf16(_ text: String, littleEndian: Bool) -> [UInt8] {
    var bytes: [UInt8] = littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]
    for unit in text.utf16 {
        let (high, low) = (UInt8(unit >> 8), UInt8(unit & 0xFF))
        bytes += littleEndian ? [low, high] : [high, low]
    }
    return bytes
}

/// Lints files, applies one diagnostic's fix, and lints again.
private enum Relint {
    static func lint(_ files: [SourceFile]) -> [Diagnostic] {
        Linter.check(files, configuration: LintConfiguration())
    }

    /// The one diagnostic of `rule` at `line`:`column` of `file`.
    static func find(_ diagnostics: [Diagnostic], _ rule: Rule, _ file: String, _ line: Int, _ column: Int) throws -> Diagnostic {
        let found = diagnostics.filter { Spot($0) == Spot(rule, file, line, column) }
        #expect(found.count == 1, "\(diagnostics.map { Spot($0) })")
        return try #require(found.first)
    }

    /// Applies `fix` to every file it edits, lints again, and expects
    /// `fixed` gone and nothing new: what remains is among the diagnostics
    /// before, less `fixed`, compared by rule and message, since an edit
    /// moves what follows it. (A renamed suppression may silence more than
    /// its own report.) Returns the edited files.
    @discardableResult
    static func expectResolves(
        _ fixed: Diagnostic, with fix: Fix, in files: [SourceFile], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [SourceFile] {
        let before = lint(files)
        let edited = try files.map { file in
            SourceFile(path: file.path, bytes: try fix.applied(to: file.bytes, path: file.path))
        }
        let after = lint(edited)
        var expected = before.map { "\($0.rule.id): \($0.message)" }
        if let index = expected.firstIndex(of: "\(fixed.rule.id): \(fixed.message)") { expected.remove(at: index) }
        for diagnostic in after {
            let key = "\(diagnostic.rule.id): \(diagnostic.message)"
            guard let index = expected.firstIndex(of: key) else {
                Issue.record("new after the fix: \(Spot(diagnostic)) \(diagnostic.message)", sourceLocation: sourceLocation)
                continue
            }
            expected.remove(at: index)
        }
        return edited
    }
}

private func file(_ path: String, _ text: String) -> SourceFile {
    SourceFile(path: path, bytes: Array(text.utf8))
}

private func replacement(_ title: String, _ file: String, _ start: SourcePosition, _ end: SourcePosition, _ text: String) -> Fix {
    Fix(title: title, edits: [TextEdit(range: SourceRange(file: file, start: start, end: end), replacement: text)])
}

/// Unknown names with one clear did-you-mean carry the fix that renames them.
@Suite struct NameFixTests {
    private let fruits = file("fruits.yaml", """
        fruits: { mango: , kiwi: , "null": }
        stock: { mango: 5, kiwi: 5, "null": 5 }
        menu:
          other: { recipe: { "null": 1, mango: 1 } }

        """)

    private func book(_ ingredient: String) -> [SourceFile] {
        [fruits, file("menu.yaml", """
            menu:
              juice: { recipe: { \(ingredient): 1, kiwi: 1 } }

            """)]
    }

    @Test func aPlainNameIsReplaced() throws {
        let files = book("mangoo")
        let diagnostic = try Relint.find(Relint.lint(files), .unknownFruit, "menu.yaml", 2, 22)
        #expect(diagnostic.fixes == [replacement("replace 'mangoo' with 'mango'", "menu.yaml", at(2, 22), at(2, 28), "mango")])
        let edited = try Relint.expectResolves(diagnostic, with: try #require(diagnostic.fixes.first), in: files)
        #expect(edited[1].bytes == book("mango")[1].bytes)
        #expect(edited[0].bytes == fruits.bytes)
    }

    @Test func quotesAreKept() throws {
        for quote in ["\"", "'"] {
            let files = book("\(quote)mangoo\(quote)")
            let diagnostic = try Relint.find(Relint.lint(files), .unknownFruit, "menu.yaml", 2, 22)
            #expect(diagnostic.fixes == [replacement("replace 'mangoo' with 'mango'", "menu.yaml", at(2, 23), at(2, 29), "mango")])
            let edited = try Relint.expectResolves(diagnostic, with: try #require(diagnostic.fixes.first), in: files)
            #expect(edited[1].bytes == book("\(quote)mango\(quote)")[1].bytes)
        }
    }

    @Test func aSuggestionPlainStyleWouldMisreadIsQuoted() throws {
        let files = book("nul")
        let diagnostic = try Relint.find(Relint.lint(files), .unknownFruit, "menu.yaml", 2, 22)
        #expect(diagnostic.fixes == [replacement("replace 'nul' with 'null'", "menu.yaml", at(2, 22), at(2, 25), "'null'")])
        try Relint.expectResolves(diagnostic, with: try #require(diagnostic.fixes.first), in: files)
    }

    @Test func noFixWhereTheNameIsNotPlainlyWritten() throws {
        // An escape, and an alias standing for the name (as wide as it, so
        // only knowing it is an alias tells): the span is not the name.
        for ingredient in ["\"mango\\x6F\"", "*abcde "] {
            let files = [fruits, file("menu.yaml", """
                menu:
                  juice: { label: &abcde mangoo, recipe: { \(ingredient): 1, kiwi: 1 } }

                """)]
            let diagnostic = try Relint.find(Relint.lint(files), .unknownFruit, "menu.yaml", 2, 44)
            #expect(diagnostic.message == "unknown fruit 'mangoo'")
            #expect(diagnostic.help == "did you mean 'mango'?")
            #expect(diagnostic.fixes.isEmpty)
        }
    }

    @Test func noFixWhenTwoNamesAreEquallyClose() throws {
        let files = [file("book.yaml", """
            fruits: { mango: , tango: }
            stock: { mango: 5, tango: 5 }
            menu:
              juice: { recipe: { xango: 1, tango: 1, mango: 1 } }

            """)]
        let diagnostic = try Relint.find(Relint.lint(files), .unknownFruit, "book.yaml", 4, 22)
        #expect(diagnostic.help == "did you mean 'mango'?")
        #expect(diagnostic.fixes.isEmpty)
    }

    @Test func noFixWhereTheRenameWouldRepeatAKey() throws {
        // The recipe lists the suggestion already, or dropped a key it may be.
        for (ingredients, column) in [("mangoo: 1, mango: 1", 22), ("mango: 0, mangoo: 1", 32)] {
            let files = [fruits, file("menu.yaml", """
                menu:
                  juice: { recipe: { \(ingredients), kiwi: 1 } }

                """)]
            let diagnostic = try Relint.find(Relint.lint(files), .unknownFruit, "menu.yaml", 2, column)
            #expect(diagnostic.help == "did you mean 'mango'?")
            #expect(diagnostic.fixes.isEmpty)
        }
        let key = [file("book.yaml", """
            fruits: { mango: }
            stock: { mango: 5 }
            menu:
              juice: { price: 3, prize: 4, recipe: { mango: 1 } }

            """)]
        let diagnostic = try Relint.find(Relint.lint(key), .unknownKey, "book.yaml", 4, 22)
        #expect(diagnostic.help == "did you mean 'price'?")
        #expect(diagnostic.fixes.isEmpty)
    }

    @Test func textSharedByAnAliasGetsAFixOnlyIfEveryUseAgrees() throws {
        // Both items use the anchored recipe; renaming it suits both.
        let shared = compile(yaml: """
            fruits: { mango: }
            menu:
              a: { recipe: &r { mangoo: 1 } }
              b: { recipe: *r }
            """)
        #expect(shared.spots == [Spot(.unknownFruit, "inline.yaml", 3, 21)])
        #expect(shared.diagnostics.first?.fixes == [replacement("replace 'mangoo' with 'mango'", "inline.yaml", at(3, 21), at(3, 27), "mango")])
        // 'juice' merges the recipe beside its own 'mango': there the rename
        // would repeat a key, so the one report carries no fix.
        let merged = compile(yaml: """
            fruits:
              mango:
            recipes:
              base: &base { mangoo: 2 }
            menu:
              juice:
                recipe:
                  <<: *base
                  mango: 1
            """)
        #expect(merged.spots == [Spot(.unknownFruit, "inline.yaml", 4, 17)])
        #expect(merged.diagnostics.first?.fixes == [])
    }

    @Test func anUnknownKeyIsReplaced() throws {
        let files = [file("book.yaml", """
            fruits: { mango: }
            stock: { mango: 5 }
            menu:
              juice: { prize: 3, recipe: { mango: 1 } }

            """)]
        let diagnostic = try Relint.find(Relint.lint(files), .unknownKey, "book.yaml", 4, 12)
        #expect(diagnostic.fixes == [replacement("replace 'prize' with 'price'", "book.yaml", at(4, 12), at(4, 17), "price")])
        try Relint.expectResolves(diagnostic, with: try #require(diagnostic.fixes.first), in: files)
    }

    @Test func aSoleMatchIsToldFromATie() {
        func described(_ match: (name: String, isSole: Bool)?) -> String {
            match.map { "\($0.name) \($0.isSole ? "sole" : "tied")" } ?? "none"
        }
        #expect(described(Suggestion.closestMatch(to: "mangoo", in: ["kiwi", "mango", "tango"])) == "mango sole")
        #expect(described(Suggestion.closestMatch(to: "xango", in: ["kiwi", "mango", "tango"])) == "mango tied")
        #expect(described(Suggestion.closestMatch(to: "kiwi", in: ["mango"])) == "none")
        // Past the scan limit, the one-deletion index judges ties the same way.
        let index = SuggestionIndex((0..<3_000).map { "fruit\($0)" } + ["mango", "tango"])
        #expect(described(index.closestMatch(to: "mangoo")) == "mango sole")
        #expect(described(index.closestMatch(to: "xango")) == "mango tied")
        #expect(index.closest(to: "xango") == "mango")
    }
}

/// A suppression that suppresses nothing is removed; a misspelt one renamed.
@Suite struct SuppressionFixTests {
    private let removeComment = "remove the suppression comment"

    @Test func aCommentAloneOnItsLineGoesWithTheLine() throws {
        let files = [file("book.yaml", """
            fruits: { mango: }
            stock: { mango: 5 }
            # juice-lint disable-next-line unused-fruit
            menu:
              juice: { recipe: { mango: 1 } }

            """)]
        let diagnostic = try Relint.find(Relint.lint(files), .unusedSuppression, "book.yaml", 3, 32)
        #expect(diagnostic.fixes == [replacement(removeComment, "book.yaml", at(3, 1), at(4, 1), "")])
        let edited = try Relint.expectResolves(diagnostic, with: try #require(diagnostic.fixes.first), in: files)
        #expect(edited[0].bytes == Array("fruits: { mango: }\nstock: { mango: 5 }\nmenu:\n  juice: { recipe: { mango: 1 } }\n".utf8))
    }

    @Test func aTrailingCommentGoesWithTheBlanksBeforeIt() throws {
        let files = [file("book.yaml", """
            fruits: { mango: }
            stock: { mango: 5 }  # juice-lint disable-line unused-fruit
            menu:
              juice: { recipe: { mango: 1 } }
            """)]
        let diagnostic = try Relint.find(Relint.lint(files), .unusedSuppression, "book.yaml", 2, 48)
        #expect(diagnostic.fixes == [replacement(removeComment, "book.yaml", at(2, 20), at(2, 60), "")])
        let edited = try Relint.expectResolves(diagnostic, with: try #require(diagnostic.fixes.first), in: files)
        #expect(edited[0].bytes == Array("fruits: { mango: }\nstock: { mango: 5 }\nmenu:\n  juice: { recipe: { mango: 1 } }".utf8))
    }

    private func partial(_ names: String) -> [SourceFile] {
        [file("book.yaml", """
            fruits:
              mango:
              # juice-lint disable-next-line \(names)
              plum:
            stock: { mango: 5, plum: 1 }
            menu:
              juice: { recipe: { mango: 1 } }

            """)]
    }

    @Test func onlyTheUnusedNameGoesWhenAnotherIsUsed() throws {
        let after = try Relint.find(Relint.lint(partial("unused-fruit, never-makeable")), .unusedSuppression, "book.yaml", 3, 48)
        #expect(after.fixes == [replacement("remove 'never-makeable' from the suppression", "book.yaml", at(3, 46), at(3, 62), "")])
        let edited = try Relint.expectResolves(after, with: try #require(after.fixes.first), in: partial("unused-fruit, never-makeable"))
        #expect(edited[0].bytes == partial("unused-fruit")[0].bytes)

        let before = try Relint.find(Relint.lint(partial("never-makeable, unused-fruit")), .unusedSuppression, "book.yaml", 3, 34)
        #expect(before.fixes == [replacement("remove 'never-makeable' from the suppression", "book.yaml", at(3, 34), at(3, 50), "")])
        let editedBefore = try Relint.expectResolves(before, with: try #require(before.fixes.first), in: partial("never-makeable, unused-fruit"))
        #expect(editedBefore[0].bytes == partial("unused-fruit")[0].bytes)
    }

    @Test func whenEveryNameIsUnusedEachFixRemovesTheComment() throws {
        let files = [file("book.yaml", """
            fruits: { mango: }
            stock: { mango: 5 }
            # juice-lint disable-next-line unused-fruit, unused-recipe
            menu:
              juice: { recipe: { mango: 1 } }

            """)]
        let diagnostics = Relint.lint(files)
        let first = try Relint.find(diagnostics, .unusedSuppression, "book.yaml", 3, 32)
        let second = try Relint.find(diagnostics, .unusedSuppression, "book.yaml", 3, 46)
        let whole = replacement(removeComment, "book.yaml", at(3, 1), at(4, 1), "")
        #expect(first.fixes == [whole])
        #expect(second.fixes == [whole])
        let edited = try files.map { SourceFile(path: $0.path, bytes: try whole.applied(to: $0.bytes, path: $0.path)) }
        #expect(Relint.lint(edited).isEmpty)
    }

    private func plum(_ comment: String) -> [SourceFile] {
        [file("book.yaml", """
            fruits:
              mango:
              plum:  \(comment)
            stock: { mango: 5, plum: 1 }
            menu:
              juice: { recipe: { mango: 1 } }

            """)]
    }

    @Test func aMisspeltRuleOrDirectiveIsRenamed() throws {
        let rule = plum("# juice-lint disable-line unused-friut")
        let misspeltRule = try Relint.find(Relint.lint(rule), .unusedSuppression, "book.yaml", 3, 36)
        #expect(misspeltRule.fixes == [
            replacement("replace 'unused-friut' with 'unused-fruit'", "book.yaml", at(3, 36), at(3, 48), "unused-fruit"),
        ])
        // Renamed, it silences plum's unused-fruit, as it was meant to.
        #expect(Relint.lint(try Relint.expectResolves(misspeltRule, with: try #require(misspeltRule.fixes.first), in: rule)).isEmpty)

        let directive = plum("# juice-lint disable-lin unused-fruit")
        let misspeltDirective = try Relint.find(Relint.lint(directive), .unusedSuppression, "book.yaml", 3, 23)
        #expect(misspeltDirective.fixes == [
            replacement("replace 'disable-lin' with 'disable-line'", "book.yaml", at(3, 23), at(3, 34), "disable-line"),
        ])
        #expect(Relint.lint(try Relint.expectResolves(misspeltDirective, with: try #require(misspeltDirective.fixes.first), in: directive)).isEmpty)
    }

    @Test func aCommentNamingNoRuleIsRemoved() throws {
        let files = plum("# juice-lint disable-line")
        let diagnostic = try Relint.find(Relint.lint(files), .unusedSuppression, "book.yaml", 3, 23)
        #expect(diagnostic.message == "suppression names no rule")
        #expect(diagnostic.fixes == [replacement(removeComment, "book.yaml", at(3, 8), at(3, 35), "")])
        try Relint.expectResolves(diagnostic, with: try #require(diagnostic.fixes.first), in: files)
    }

    @Test func noFixWhereTheHashIsInsideAScalar() throws {
        let files = [file("book.yaml", """
            fruits:
              mango: { label: "x # juice-lint disable-line unused-fruit " }
              kiwi: { label: "x # juice-lint disable-lin unused-fruit" }
            stock: { mango: 5, kiwi: 5 }
            menu:
              juice: { recipe: { mango: 1, kiwi: 1 } }

            """)]
        let diagnostics = Relint.lint(files)
        // The first reads as a comment naming 'unused-fruit', the second as
        // one misspelling its directive: both reported, neither edited.
        let unused = try Relint.find(diagnostics, .unusedSuppression, "book.yaml", 2, 48)
        #expect(unused.message == "suppression of 'unused-fruit' suppressed nothing")
        #expect(unused.fixes.isEmpty)
        let directive = try Relint.find(diagnostics, .unusedSuppression, "book.yaml", 3, 34)
        #expect(directive.message == "unknown suppression 'disable-lin'")
        #expect(directive.fixes.isEmpty)
    }
}

/// Fixes are data for later tools: the formats people read and JSON do not
/// show them; SARIF lists them as `fixes` (`SARIFFixTests`).
@Suite struct FixPrintingTests {
    @Test func everyFormatButSARIFIsUnchangedByFixes() throws {
        let source = file("book.yaml", """
            fruits: { mango: , kiwi: }
            stock: { mango: 5, kiwi: 5 }
            menu:
              juice: { prize: 3, recipe: { mangoo: 1, kiwi: 1 } }

            """)
        let withFixes = Relint.lint([source])
        #expect(withFixes.count == 2)
        #expect(withFixes.allSatisfy { !$0.fixes.isEmpty })
        let without = withFixes.map { diagnostic -> Diagnostic in
            var plain = diagnostic
            plain.fixes = []
            return plain
        }
        let counts = DiagnosticCounts(files: 1, diagnostics: withFixes)
        let human = HumanDiagnosticPrinter(files: [source], color: false)
        #expect(withFixes.map(human.render) == without.map(human.render))
        #expect(JSONDiagnosticPrinter.render(withFixes, counts: counts) == JSONDiagnosticPrinter.render(without, counts: counts))
        #expect(GitHubDiagnosticPrinter.render(withFixes) == GitHubDiagnosticPrinter.render(without))
        // SARIF differs by the fixes alone: without each result's "fixes",
        // the two logs are the same JSON.
        func results(_ log: String) throws -> [[String: Any]] {
            let object = try JSONSerialization.jsonObject(with: Data(log.utf8)) as? [String: Any]
            return try #require((object?["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        }
        var stripped = try results(SARIFDiagnosticPrinter.render(withFixes))
        #expect(stripped.allSatisfy { $0["fixes"] != nil })
        for index in stripped.indices { stripped[index]["fixes"] = nil }
        let plain = try results(SARIFDiagnosticPrinter.render(without))
        #expect(plain.allSatisfy { $0["fixes"] == nil })
        #expect(NSArray(array: stripped).isEqual(to: plain))
    }
}
