import Testing
@_spi(Internals) @testable import JuiceSupport
@testable import JuiceSource
@_spi(Internals) @testable import JuiceYAML
@testable import JuiceBook

/// The YAML layer: bytes to located nodes, anchors, aliases and `<<` merges.
@Suite struct YAMLComposerTests {
    private func compose(_ yaml: String) -> YAMLComposer.Result {
        YAMLComposer.compose(bytes: Array(yaml.utf8), file: "inline.yaml")
    }

    /// The single document of `yaml`, with no diagnostics.
    private func document(_ yaml: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> YAMLDocument {
        let result = compose(yaml)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.spot))", sourceLocation: sourceLocation)
        try #require(result.documents.count == 1, sourceLocation: sourceLocation)
        return result.documents[0]
    }

    /// The node under a path of keys from the root.
    private func node(_ document: YAMLDocument, _ keys: String...) throws -> YAMLNode.ID {
        var id = try #require(document.root)
        for key in keys {
            id = try #require(document.value(key, in: id), "no key '\(key)'")
        }
        return id
    }

    // MARK: Positions

    @Test func positionsAreOneBased() throws {
        let document = try document("""
            fruits:
              mango: { label: Mango }
            """)
        let root = try #require(document.root)
        #expect(document[root].kind == .mapping)
        #expect(document[root].start == at(1, 1))
        let fruits = try node(document, "fruits")
        #expect(document.range(of: fruits).start == at(2, 3))
        let label = try node(document, "fruits", "mango", "label")
        #expect(document.text(of: label) == "Mango")
        // `  mango: { label: Mango }`: 'Mango' spans columns 19 to 23.
        #expect(document.range(of: label) == SourceRange(file: "inline.yaml", start: at(2, 19), end: at(2, 24)))
        let mango = try node(document, "fruits", "mango")
        #expect(document[mango].start == at(2, 10))
        #expect(document[mango].end == at(2, 26))
    }

    @Test func columnsCountUnicodeScalarsAfterHangul() throws {
        // `  mango: { label: "망고", emoji: x }`: the quote opens at column 19,
        // 망 is 20 and 고 21 (three bytes each, one column each), the quote
        // closes at 22, so 'emoji' starts at column 25 (byte column 29).
        let document = try document("""
            fruits:
              mango: { label: "망고", emoji: x }
            """)
        let label = try node(document, "fruits", "mango", "label")
        #expect(document.text(of: label) == "망고")
        #expect(document[label].style == .doubleQuoted)
        #expect(document.range(of: label).start == at(2, 19))
        #expect(document.range(of: label).end == at(2, 23))
        let emoji = try node(document, "fruits", "mango", "emoji")
        #expect(document.range(of: emoji).start == at(2, 32))
    }

    @Test func diagnosticAfterHangulUsesScalarColumns() throws {
        let diagnostic = try compile(yaml: """
            fruits:
              mango: { label: "망고", emojj: x }
            """).single()
        #expect(diagnostic.spot == Spot(.unknownKey, "inline.yaml", 2, 25))
        #expect(diagnostic.range.end == at(2, 30))
        #expect(diagnostic.help == "did you mean 'emoji'?")
    }

    @Test func anEmojiOutsideTheBasicPlaneIsOneColumn() throws {
        // 🥭 is four UTF-8 bytes, two UTF-16 units and one scalar: 'labl' is at 24.
        let diagnostic = try compile(yaml: """
            fruits:
              mango: { emoji: "🥭", labl: x }
            """).single()
        #expect(diagnostic.spot == Spot(.unknownKey, "inline.yaml", 2, 24))
    }

    @Test func aCombiningMarkIsItsOwnColumn() throws {
        // "e\u{301}" is one character but two scalars, so 'labl' is at 25, not 24.
        let diagnostic = try compile(yaml: "fruits:\n  mango: { label: \"e\u{301}\", labl: x }\n").single()
        #expect(diagnostic.spot == Spot(.unknownKey, "inline.yaml", 2, 25))
    }

    @Test(arguments: ["\r\n", "\r"])
    func crlfAndCRLineBreaksCountAsOneLine(_ lineBreak: String) throws {
        let yaml = ["fruits:", "  mango:", "recipes:", "  r: { mangoo: 1 }", ""].joined(separator: lineBreak)
        let diagnostic = try compile(yaml: yaml).single()
        #expect(diagnostic.spot == Spot(.unknownFruit, "inline.yaml", 4, 8))
        #expect(diagnostic.range.end == at(4, 14))
    }

    // MARK: Anchors, aliases and merges

    /// An alias is one node placed where the alias was written, sharing the
    /// anchored node's children: nothing under it is copied.
    @Test func aliasSharesTheAnchoredNodesChildren() throws {
        let document = try document("""
            base: &base { mango: 2 }
            copy: *base
            """)
        let base = try node(document, "base")
        let copy = try node(document, "copy")
        #expect(document.anchor(of: copy) == base)
        #expect(document.anchor(of: base) == nil)
        #expect(document[copy].childStart == document[base].childStart)
        #expect(document[copy].childCount == document[base].childCount)
        #expect(document.range(of: copy) == SourceRange(file: "inline.yaml", start: at(2, 7), end: at(2, 12)))
        #expect(document.scalarPairs(of: copy) == ["mango: 2"])
    }

    @Test func mergeKeysExplicitWinsThenEarlierSource() throws {
        let document = try document("""
            base: &base
              label: Base
              emoji: B
            extra: &extra
              label: Extra
              price: 4
            item:
              <<: [*base, *extra]
              emoji: E
            """)
        let item = try node(document, "item")
        // Explicit keys first; then 'base' gives 'label' (its 'emoji' loses to the
        // explicit one, though written after the merge); 'extra' gives only 'price'.
        #expect(document.scalarPairs(of: item) == ["emoji: E", "label: Base", "price: 4"])
    }

    @Test func mergeOfOneMappingDoesNotOverrideAnExplicitKeyBeforeIt() throws {
        let document = try document("""
            base: &base { label: Base, emoji: B }
            item:
              label: Mine
              <<: *base
            """)
        #expect(document.scalarPairs(of: try node(document, "item")) == ["label: Mine", "emoji: B"])
    }

    @Test func quotedOrTaggedMergeKeys() throws {
        let document = try document("""
            base: &base { label: Base }
            quoted:
              "<<": *base
            tagged:
              !!merge <<: *base
            """)
        // A quoted '<<' is an ordinary key; '!!merge' is a merge however written.
        let quoted = try node(document, "quoted")
        #expect(document.pairs(of: quoted).map { document.text(of: $0.key) } == ["<<"])
        #expect(document.scalarPairs(of: try node(document, "tagged")) == ["label: Base"])
    }

    @Test func mergeInARecipeCompiles() throws {
        let compilation = compile(yaml: """
            fruits:
              mango:
              kiwi:
            recipes:
              base: &base { mango: 2, kiwi: 1 }
            menu:
              juice:
                recipe:
                  <<: *base
                  mango: 5
            """)
        #expect(compilation.diagnostics.isEmpty, "\(compilation.spots)")
        let book = try #require(compilation.book)
        #expect(book.menu[0].needs == [
            RecipeBook.FruitAmount(fruit: 0, amount: 5),
            RecipeBook.FruitAmount(fruit: 1, amount: 1),
        ])
    }

    @Test func mergedNodesKeepTheirOwnPositions() throws {
        // The bad ingredient is reported where it is written, under the anchor.
        let compilation = compile(yaml: """
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
        // Both 'base' and 'juice' contain it; the one problem is reported once, at the anchor's text.
        #expect(compilation.spots == [
            Spot(.unknownFruit, "inline.yaml", 4, 17),
        ])
    }

    @Test func aSharedNodeDoesNotRepeatAnIdenticalDiagnostic() throws {
        // Two recipes are the same anchored mapping. Printed, two diagnostics
        // with the same rule, place and message are one line shown twice.
        let compilation = compile(yaml: """
            fruits:
              mango:
            recipes:
              a: &shared { nope: 1 }
              b: *shared
            """)
        #expect(compilation.diagnostics.map(\.spot).allSatisfy { $0 == Spot(.unknownFruit, "inline.yaml", 4, 16) })
        #expect(!compilation.diagnostics.isEmpty)
        let distinct = Set(compilation.diagnostics.map { "\($0.spot) \($0.range.end) \($0.message)" })
        #expect(distinct.count == compilation.diagnostics.count, "\(compilation.diagnostics.map(\.message))")
    }

    @Test func mergeOfAScalarIsInvalidType() throws {
        let result = compose("""
            item:
              <<: 3
              label: x
            """)
        #expect(result.diagnostics.map(\.spot) == [Spot(.invalidType, "inline.yaml", 2, 7)])
        #expect(result.diagnostics.first?.range.end == at(2, 8))
        #expect(result.diagnostics.first?.message == "a '<<' merge needs a mapping or a sequence of mappings, found a scalar")
        // The rest of the mapping survives.
        let document = try #require(result.documents.first)
        #expect(document.scalarPairs(of: try node(document, "item")) == ["label: x"])
    }

    @Test func mergeOfASequenceWithAScalarReportsTheScalar() throws {
        let result = compose("""
            base: &base { label: Base }
            item:
              <<: [*base, 4]
            """)
        #expect(result.diagnostics.map(\.spot) == [Spot(.invalidType, "inline.yaml", 3, 15)])
        let document = try #require(result.documents.first)
        #expect(document.scalarPairs(of: try node(document, "item")) == ["label: Base"])
    }

    @Test func mergeOfNullIsInvalidType() throws {
        let result = compose("item:\n  <<:\n  label: x\n")
        #expect(result.diagnostics.map(\.spot) == [Spot(.invalidType, "inline.yaml", 2, 6)])
        #expect(result.diagnostics.first?.message == "a '<<' merge needs a mapping or a sequence of mappings, found null")
    }

    @Test func undefinedAliasDropsOnlyItsDocument() throws {
        let yaml = """
            fruits:
              mango:
            ---
            recipes:
              r: *nope
            """
        let result = compose(yaml)
        #expect(result.documents.count == 1)
        #expect(result.diagnostics.map(\.spot) == [Spot(.yamlSyntax, "inline.yaml", 5, 6)])
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.range.end == at(5, 11))
        #expect(diagnostic.message == "undefined alias 'nope'")
        #expect(diagnostic.help == "an alias '*nope' must come after an anchor '&nope' in the same document")
        // The compiler still reads the first document and reports nothing more.
        let compilation = compile(yaml: yaml)
        #expect(compilation.spots == [Spot(.yamlSyntax, "inline.yaml", 5, 6)])
        #expect(compilation.book == nil)
    }

    @Test func anAliasCannotReachItsOwnCollection() throws {
        let result = compose("a: &a [*a]\n")
        #expect(result.documents.isEmpty)
        #expect(result.diagnostics.map(\.spot) == [Spot(.yamlSyntax, "inline.yaml", 1, 8)])
        #expect(result.diagnostics.first?.message == "alias '*a' is inside the node it names")
        #expect(result.diagnostics.first?.help == "a node cannot contain itself; move the alias out of '&a'")
    }

    @Test func anchorsDoNotCrossDocuments() throws {
        let result = compose("a: &a { x: 1 }\n---\nb: *a\n")
        #expect(result.documents.count == 1)
        #expect(result.diagnostics.map(\.spot) == [Spot(.yamlSyntax, "inline.yaml", 3, 4)])
    }

    // MARK: Duplicate keys

    @Test func duplicateKeyKeepsTheFirstValue() throws {
        let result = compose("item:\n  label: first\n  label: second\n")
        #expect(result.diagnostics.map(\.spot) == [Spot(.duplicateKey, "inline.yaml", 3, 3)])
        #expect(result.diagnostics.first?.noteSpots == [NoteSpot("inline.yaml", 2, 3, "'label' first appears here")])
        let document = try #require(result.documents.first)
        #expect(document.scalarPairs(of: try node(document, "item")) == ["label: first"])
    }

    /// Keys made to collide under the quick hash a large mapping's key
    /// check starts with (`NameTable.utf8Hash`, unseeded, so anyone can
    /// find such keys): every probe starts at one slot, the check turns to
    /// the seeded hash, and a repeat at the end is still found, once.
    @Test func keysThatCollideOnPurposeStillFindTheirRepeat() throws {
        let keys = Self.collidingKeys(count: 120)
        let hashes = keys.map { Array($0.utf8).withUnsafeBufferPointer { NameTable<Int>.utf8Hash($0) } }
        #expect(hashes.allSatisfy { $0 & 0xFF_FFFF == 0 })
        var yaml = "menu:\n"
        for key in keys { yaml += "  '\(key)': 1\n" }
        yaml += "  '\(keys[7])': 2\n"
        let result = compose(yaml)
        #expect(result.diagnostics.map(\.spot) == [Spot(.duplicateKey, "inline.yaml", keys.count + 2, 3)])
        let document = try #require(result.documents.first)
        let root = try #require(document.root)
        let menu = try #require(document.value("menu", in: root))
        #expect(document[menu].childCount == 2 * keys.count)
    }

    /// Ids that differ only in their last byte, as numbered ids do, spread
    /// over a table's slots: the hash's low bits see every byte.
    @Test func idsThatDifferAtTheEndSpreadOverSlots() {
        let ids = (0..<1_000).map { "juice-" + String(1_000_000 + $0).dropFirst() }
        let slots = Set(ids.map { Array($0.utf8).withUnsafeBufferPointer { NameTable<Int>.utf8Hash($0) } & 4_095 })
        #expect(slots.count > 850)
    }

    /// Eight printable bytes each, whose `utf8Hash` has its low 24 bits zero:
    /// the hash's steps run backwards from chosen values.
    static func collidingKeys(count: Int) -> [String] {
        func inverse(of multiplier: UInt64) -> UInt64 {
            var inverse = multiplier
            for _ in 0..<6 { inverse = inverse &* (2 &- multiplier &* inverse) }
            return inverse
        }
        let mixInverse = inverse(of: 0x9E37_79B9_7F4A_7C15), finishInverse = inverse(of: 0xD6E8_FEB8_6659_FD93)
        let start: UInt64 = 0xcbf2_9ce4_8422_2325 ^ 8
        var keys: [String] = []
        var target: UInt64 = 0
        while keys.count < count {
            target &+= 1 << 24
            let finished = (target ^ (target >> 32)) &* finishInverse  // undoes the last fold and the multiply
            let mixed = finished ^ (finished >> 32)                     // undoes the first fold
            let product = mixed ^ (mixed >> 29) ^ (mixed >> 58)         // undoes the shift-xor
            let word = (product &* mixInverse) ^ start                  // undoes the multiply and the start
            let bytes = (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) }
            guard bytes.allSatisfy({ $0 >= 0x30 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) else { continue }
            keys.append(String(decoding: bytes, as: UTF8.self))
        }
        return keys
    }

    @Test func duplicateKeyThroughAnAliasIsReportedAtTheAlias() throws {
        // The second 'x' key of 'b' is written as '*k' on line 4, column 3.
        let result = compose("""
            a: &k x
            b:
              x: 1
              *k : 2
            """)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.rule == .duplicateKey)
        #expect(diagnostic.noteSpots == [NoteSpot("inline.yaml", 3, 3, "'x' first appears here")])
        #expect(diagnostic.spot == Spot(.duplicateKey, "inline.yaml", 4, 3))
    }

    /// Repeats are found by the scan of a small mapping and by the hash
    /// table of a wide one, including keys that differ only past their
    /// eighth byte or only in length, which the byte comparison must tell apart.
    @Test(arguments: [3, 16, 17, 40, 300])
    func repeatedKeysAreFoundInMappingsOfEveryWidth(width: Int) throws {
        var lines = ["item:"]
        for index in 0..<width { lines.append("  key-with-a-long-prefix-\(index): \(index)") }
        lines.append("  key-with-a-long-prefix-\(width - 1): again")
        lines.append("  key-with-a-long-prefix-\(width - 1)x: longer")
        lines.append("  key-with-a-long-prefix-0: again")
        let result = compose(lines.joined(separator: "\n") + "\n")
        #expect(result.diagnostics.map(\.spot) == [
            Spot(.duplicateKey, "inline.yaml", width + 2, 3), Spot(.duplicateKey, "inline.yaml", width + 4, 3),
        ])
        #expect(result.diagnostics.first?.noteSpots == [
            NoteSpot("inline.yaml", width + 1, 3, "'key-with-a-long-prefix-\(width - 1)' first appears here"),
        ])
        let document = try #require(result.documents.first)
        let pairs = document.scalarPairs(of: try node(document, "item"))
        #expect(pairs.count == width + 1)
        #expect(pairs.first == "key-with-a-long-prefix-0: 0")
        #expect(pairs.last == "key-with-a-long-prefix-\(width - 1)x: longer")
    }

    /// Keys are one key when their bytes are: a composed `é` and `e` with a
    /// combining accent are two keys to YAML. As ids they are one name, so
    /// the book reports the second as a duplicate definition, at the same place.
    @Test func keysThatDifferOnlyInNormalizationAreTwoKeysButOneID() throws {
        let yaml = "fruits:\n  caf\u{E9}:\n  cafe\u{301}:\n"
        let document = try document(yaml)
        #expect(Array(document.pairs(of: try node(document, "fruits"))).count == 2)
        let compilation = compile(yaml: yaml)
        #expect(compilation.diagnostics.map(\.spot) == [Spot(.duplicateDefinition, "inline.yaml", 3, 3)])
    }

    /// A merge can bring any number of keys into a small mapping: past the
    /// scan's limit they move to a table, which grows as it fills; explicit
    /// keys still win, and a merged key the mapping has is not repeated.
    @Test(arguments: [5, 20, 200])
    func aMergeCanWidenASmallMapping(merged: Int) throws {
        var lines = ["base: &base"]
        for index in 0..<merged { lines.append("  k\(index): merged") }
        lines += ["item:", "  <<: *base", "  k1: own", "  extra: own"]
        let document = try document(lines.joined(separator: "\n") + "\n")
        let pairs = document.scalarPairs(of: try node(document, "item"))
        #expect(pairs.count == merged + 1)
        #expect(pairs.prefix(2) == ["k1: own", "extra: own"])
        #expect(pairs.filter { $0.hasPrefix("k1:") } == ["k1: own"])
        #expect(Set(pairs).count == pairs.count)
    }

    // MARK: Documents

    @Test func multiDocumentFile() throws {
        let yaml = """
            fruits:
              mango:
            ---
            fruits:
              kiwi:
            ---
            menu:
              juice:
                recipe: { mango: 1, kiwi: 1 }
            """
        let result = compose(yaml)
        #expect(result.diagnostics.isEmpty)
        #expect(result.documents.count == 3)
        #expect(result.documents.allSatisfy { $0.file == "inline.yaml" })
        #expect(result.documents.allSatisfy { $0.root != nil })
        // Each document's positions are in the file's own lines.
        let third = result.documents[2]
        #expect(third.range(of: try node(third, "menu")).start == at(8, 3))

        let compilation = compile(yaml: yaml)
        #expect(compilation.diagnostics.isEmpty)
        let book = try #require(compilation.book)
        #expect(book.fruits.map(\.id) == ["mango", "kiwi"])
        #expect(book.menu.first?.needs == [
            RecipeBook.FruitAmount(fruit: 0, amount: 1),
            RecipeBook.FruitAmount(fruit: 1, amount: 1),
        ])
    }

    @Test func emptyDocumentsAreSkipped() throws {
        let compilation = compile(yaml: "---\n---\n...\n")
        #expect(compilation.diagnostics.isEmpty)
        #expect(compilation.book != nil)
    }

    @Test func aDocumentMustBeAMapping() throws {
        let diagnostic = try compile(yaml: "- mango\n- kiwi\n").single()
        #expect(diagnostic.spot == Spot(.invalidType, "inline.yaml", 1, 1))
        #expect(diagnostic.message == "a recipe document must be a mapping, found a sequence")
    }

    // MARK: Depth

    @Test func depthOf64IsAllowedAnd65IsNot() throws {
        // The root mapping is level 1, so 63 brackets make 64 levels.
        let allowed = compose("f: " + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "\n")
        #expect(allowed.diagnostics.isEmpty)
        #expect(allowed.documents.count == 1)
        let tooDeep = compose("f: " + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "\n")
        // The 64th bracket is at column 3 + 64 = 67.
        #expect(tooDeep.diagnostics.map(\.spot) == [Spot(.resourceLimit, "inline.yaml", 1, 67)])
        #expect(tooDeep.documents.isEmpty)
    }

    @Test func tooDeepEndsTheFileButKeepsEarlierDocuments() throws {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        let result = compose("a: 1\n---\nb: \(deep)\n---\nc: 3\n")
        #expect(result.diagnostics.map(\.spot) == [Spot(.resourceLimit, "inline.yaml", 3, 67)])
        // The first document survives; the deep one and everything after it are not read.
        #expect(result.documents.count == 1)
    }

    @Test func deepBlockNestingIsBoundedToo() throws {
        // 300 nested block mappings, each two spaces deeper: 'k0:' ... 'k299:'.
        var yaml = ""
        for level in 0..<300 {
            yaml += String(repeating: " ", count: 2 * level) + "k\(level):\n"
        }
        let result = compose(yaml)
        // The mapping holding 'k0' is level 1, so the one holding 'k64' would be
        // level 65: line 65, column 2 * 64 + 1 = 129.
        #expect(result.diagnostics.map(\.spot) == [Spot(.resourceLimit, "inline.yaml", 65, 129)])
    }
}
