import Foundation
import Testing
@testable import JuiceDiagnostics
@testable import JuiceBook

/// Validates YAML against `schema/recipes.schema.json` with python's
/// `jsonschema` (Draft 2020-12), the validator editors and CI scripts use,
/// and PyYAML (`TestPython` says which python). Without them every test
/// that validates fails, saying so; none is skipped.
enum SchemaValidator {
    /// Why the validator cannot run, or nil when `import jsonschema, yaml` works.
    static let validatorProblem: String? = TestPython.problem(importing: ["jsonschema", "yaml"])
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let schemaPath = packageRoot.appendingPathComponent("schema/recipes.schema.json").path

    /// Reads `{name: yaml text}` as JSON on stdin and prints `{name: [error]}`:
    /// every error of every document in the text, as "/json/path: message".
    /// It checks the schema itself first, and fails if the schema is invalid.
    static let script = """
        import json, sys, yaml
        from jsonschema import Draft202012Validator
        with open(sys.argv[1], encoding="utf-8") as file:
            schema = json.load(file)
        Draft202012Validator.check_schema(schema)
        validator = Draft202012Validator(schema)
        results = {}
        for name, text in json.load(sys.stdin).items():
            try:
                documents = list(yaml.safe_load_all(text))
            except yaml.YAMLError as error:
                results[name] = ["not YAML: " + str(error).splitlines()[0]]
                continue
            results[name] = sorted(
                "/" + "/".join(str(part) for part in error.absolute_path) + ": " + error.message
                for document in documents for error in validator.iter_errors(document)
            )
        json.dump(results, sys.stdout)
        """

    /// Runs the python with `arguments`, feeding it `input`.
    static func python(_ arguments: [String], input: Data) throws -> (status: Int32, stdout: Data, stderr: String) {
        let process = TestPython.process(arguments)
        let inPipe = Pipe(), outPipe = Pipe(), errPipe = Pipe()
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = errPipe
        try process.run()
        // Drain stderr on its own thread so neither pipe can fill and block python.
        nonisolated(unsafe) var errData = Data()
        let errDone = DispatchSemaphore(value: 0)
        Thread {
            errData = errPipe.fileHandleForReading.readDataToEndOfFile()
            errDone.signal()
        }.start()
        inPipe.fileHandleForWriting.write(input)
        try inPipe.fileHandleForWriting.close()
        let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errDone.wait()
        return (process.terminationStatus, outData, String(decoding: errData, as: UTF8.self))
    }

    /// Every schema error of each named YAML text, in one python run; an empty
    /// list means the text is valid.
    static func errors(_ texts: [String: String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: [String]] {
        try TestPython.requireModules(validatorProblem, sourceLocation: sourceLocation)
        let input = try JSONEncoder().encode(texts)
        let result = try python(["-c", script, schemaPath], input: input)
        try #require(result.status == 0, "\(TestPython.name) failed: \(result.stderr)", sourceLocation: sourceLocation)
        return try JSONDecoder().decode([String: [String]].self, from: result.stdout)
    }
}

@Suite struct SchemaTests {
    @Test func schemaIsAValidDraft202012Schema() throws {
        // The script runs check_schema before anything else and exits non-zero if it fails.
        #expect(try SchemaValidator.errors([:]) == [:])
    }

    @Test func canonicalBookPasses() throws {
        var texts: [String: String] = [:]
        for path in ["recipes/fruits.yaml", "recipes/menu.yaml"] {
            texts[path] = try String(contentsOf: SchemaValidator.packageRoot.appendingPathComponent(path), encoding: .utf8)
        }
        #expect(try SchemaValidator.errors(texts) == ["recipes/fruits.yaml": [], "recipes/menu.yaml": []])
    }

    @Test func unknownKeyIsRejected() throws {
        let errors = try SchemaValidator.errors(["colour": "menu: { x: { recipe: { mango: 1 }, colour: red } }"])
        let only = try #require(errors["colour"]?.count == 1 ? errors["colour"]?.first : nil, "\(errors)")
        #expect(only.hasPrefix("/menu/x: "))
        #expect(only.contains("'colour'"))
    }

    @Test func zeroAmountIsRejected() throws {
        let errors = try SchemaValidator.errors(["zero": "menu: { x: { recipe: { mango: 0 } } }"])
        let only = try #require(errors["zero"]?.count == 1 ? errors["zero"]?.first : nil, "\(errors)")
        #expect(only.hasPrefix("/menu/x/recipe/mango: "))
        #expect(only.contains("minimum of 1"))
    }

    /// Each invalid text, and where in the document its one error is reported
    /// ("/" is the document itself). A bad id is reported at the mapping that
    /// holds it.
    static let rejected: [String: String] = [
        "version: 3": "/version",
        "version: '1'": "/version",
        "fruits: { restock: }": "/fruits",
        "fruits: { set: }": "/fruits",
        "fruits: { 'mango juice': }": "/fruits",
        "fruits: { 'mango#1': }": "/fruits",
        "fruits: { \"\": }": "/fruits",
        "fruits: { \"a\\tb\": }": "/fruits",
        "fruits: { \"a\\u200Bb\": }": "/fruits",
        "fruits: { mango: { color: yellow } }": "/fruits/mango",
        "fruits: { mango: { label: [a] } }": "/fruits/mango/label",
        "fruits: { mango: { label: ~ } }": "/fruits/mango/label",
        "fruits: [mango]": "/fruits",
        "stock: { mango: -1 }": "/stock/mango",
        "stock: { mango: '3' }": "/stock/mango",
        "stock: { mango: 9223372036854775808 }": "/stock/mango",
        "recipes: { base: {} }": "/recipes/base",
        "recipes: { base: }": "/recipes/base",
        "recipes: { base: { mango: 1.5 } }": "/recipes/base/mango",
        "recipes: { base: { 'a b': 1 } }": "/recipes/base",
        "menu: { x: { price: 100 } }": "/menu/x",
        "menu: { x: { recipe: {} } }": "/menu/x/recipe",
        "menu: { x: { price: -1, recipe: { mango: 1 } } }": "/menu/x/price",
        "menu: { x: }": "/menu/x",
        "flavours: {}": "/",
    ]

    @Test func invalidDocumentsAreRejectedWhereTheProblemIs() throws {
        let errors = try SchemaValidator.errors(Dictionary(uniqueKeysWithValues: Self.rejected.keys.map { ($0, $0) }))
        for (text, path) in Self.rejected.sorted(by: { $0.key < $1.key }) {
            let found = errors[text] ?? []
            #expect(found.count == 1 && found[0].hasPrefix(path + ": "), "\(text): \(found)")
        }
    }

    @Test func validDocumentsAreAccepted() throws {
        let texts = [
            "",
            "---\n---\nversion: 1\n",
            "fruits:\nstock:\nrecipes:\nmenu:\n",
            "fruits: { mango:, kiwi: { label: Kiwi, emoji: 🥝 } }\nstock: { mango: 0, kiwi: 9223372036854775807 }\n",
            "recipes: { base: { mango: 1 } }\nmenu: { 'a\"b<c>': { label: 'x', price: 0, recipe: { base: !!int 2 } } }\n",
            "menu:\n  a: &item { recipe: { mango: 1 } }\n  b: { <<: *item, label: B }\n",
            // juice-lint reads any non-null scalar as text, and so does the schema.
            "fruits: { mango: { label: 2024, emoji: 1.5 } }\nmenu: { m: { label: true, recipe: { mango: 1 } } }\n",
        ]
        let errors = try SchemaValidator.errors(Dictionary(uniqueKeysWithValues: texts.map { ($0, $0) }))
        for text in texts {
            #expect(errors[text] == [], "\(text): \(errors[text] ?? [])")
        }
    }

    /// The schema's keys are the collector's: a key added to one and not
    /// the other fails here.
    @Test func theSchemasKeysAreTheCollectors() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: SchemaValidator.schemaPath))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let definitions = try #require(schema["$defs"] as? [String: Any])
        func keys(_ name: String) throws -> Set<String> {
            let definition = try #require(definitions[name] as? [String: Any], "\(name)")
            return Set(try #require(definition["properties"] as? [String: Any], "\(name)").keys)
        }
        #expect(try keys("fruit") == Set(DeclarationCollector.fruitKeys))
        #expect(try keys("fruitVersion1") == Set(DeclarationCollector.fruitKeys).subtracting(DeclarationCollector.versionTwoKeys))
        #expect(try keys("longRecipe") == Set(DeclarationCollector.recipeKeys))
        #expect(try keys("restock") == Set(DeclarationCollector.restockKeys))
        #expect(try keys("menuItem") == Set(DeclarationCollector.menuKeys))
    }

    /// The planner's keys (docs/planning.md): a fruit's `keeps` and
    /// `restock`, a long-form recipe's `keeps`, accepted in version 2 and
    /// rejected, where juice-lint rejects them, with the error where it is.
    @Test func plannerKeysFollowTheLanguage() throws {
        let accepted = [
            "fruits: { mango: { keeps: 3, restock: { up-to: 30 } } }\n",
            "version: 2\nfruits: { kiwi: { cost: 500, pack: 6, keeps: 5, restock: { below: 10, up-to: 40, lead: 2 } } }\n",
            "fruits: { kiwi: { restock: { up-to: 0, below: 0, lead: 0 } } }\n",
            "recipes: { syrup: { yield: 4, keeps: 1, recipe: { mango: 3 } } }\n",
        ]
        let rejected: [String: String] = [
            "fruits: { mango: { keeps: 0 } }": "/fruits/mango/keeps",
            "fruits: { mango: { keeps: 1.5 } }": "/fruits/mango/keeps",
            "fruits: { mango: { restock: 30 } }": "/fruits/mango/restock",
            "fruits: { mango: { restock: ~ } }": "/fruits/mango/restock",
            "fruits: { mango: { restock: { below: 3 } } }": "/fruits/mango/restock",
            "fruits: { mango: { restock: { up-to: 30, leed: 2 } } }": "/fruits/mango/restock",
            "fruits: { mango: { restock: { up-to: -1 } } }": "/fruits/mango/restock/up-to",
            "fruits: { mango: { restock: { up-to: 30, below: '3' } } }": "/fruits/mango/restock/below",
            "fruits: { mango: { restock: { up-to: 30, lead: -1 } } }": "/fruits/mango/restock/lead",
            "recipes: { syrup: { keeps: 0, recipe: { mango: 3 } } }": "/recipes/syrup/keeps",
            // A menu item is made to order and never kept.
            "menu: { x: { keeps: 1, recipe: { mango: 1 } } }": "/menu/x",
            // Version 1 has none of them, as it has no cost or pack.
            "version: 1\nfruits: { mango: { keeps: 3 } }": "/fruits/mango",
            "version: 1\nfruits: { mango: { restock: { up-to: 30 } } }": "/fruits/mango",
        ]
        let errors = try SchemaValidator.errors(Dictionary(uniqueKeysWithValues: (accepted + rejected.keys).map { ($0, $0) }))
        for text in accepted {
            #expect(errors[text] == [], "\(text): \(errors[text] ?? [])")
        }
        for (text, path) in rejected.sorted(by: { $0.key < $1.key }) {
            let found = errors[text] ?? []
            #expect(found.count == 1 && found[0].hasPrefix(path + ": "), "\(text): \(found)")
        }
        #expect(errors["fruits: { mango: { restock: { below: 3 } } }"]?.first?.contains("'up-to' is a required property") == true)
        #expect(errors["fruits: { mango: { restock: { up-to: 30, leed: 2 } } }"]?.first?.contains("'leed'") == true)
    }

    /// A fruit's `substitutes` (issue 37): fruit id -> ratio of at least 1,
    /// accepted in version 2 and rejected where juice-lint rejects it, with
    /// the error where it is.
    @Test func substitutesFollowTheLanguage() throws {
        let accepted = [
            "fruits: { mango: { substitutes: { mango-puree: 2, frozen-mango: 1 } } }\n",
            "version: 2\nfruits: { strawberry: { cost: 300, substitutes: { frozen-strawberry: 1 } } }\n",
            "fruits: { mango: { substitutes: } }\n",
        ]
        let rejected: [String: String] = [
            "fruits: { mango: { substitutes: { kiwi: 0 } } }": "/fruits/mango/substitutes/kiwi",
            "fruits: { mango: { substitutes: { kiwi: -1 } } }": "/fruits/mango/substitutes/kiwi",
            "fruits: { mango: { substitutes: { kiwi: 1.5 } } }": "/fruits/mango/substitutes/kiwi",
            "fruits: { mango: { substitutes: { kiwi: '2' } } }": "/fruits/mango/substitutes/kiwi",
            "fruits: { mango: { substitutes: [kiwi] } }": "/fruits/mango/substitutes",
            "fruits: { mango: { substitutes: { 'bad id': 1 } } }": "/fruits/mango/substitutes",
            "version: 1\nfruits: { mango: { substitutes: { kiwi: 1 } } }": "/fruits/mango",
        ]
        let errors = try SchemaValidator.errors(Dictionary(uniqueKeysWithValues: (accepted + rejected.keys).map { ($0, $0) }))
        for text in accepted {
            #expect(errors[text] == [], "\(text): \(errors[text] ?? [])")
        }
        for (text, path) in rejected.sorted(by: { $0.key < $1.key }) {
            let found = errors[text] ?? []
            #expect(found.count == 1 && found[0].hasPrefix(path + ": "), "\(text): \(found)")
        }
    }

    /// The rules whose wrong example is visible in one document's shape; the
    /// others need the whole book (names, cycles, totals) or are about YAML.
    static let rulesTheSchemaSees: Set<Rule> = [
        .invalidType, .unknownKey, .unsupportedVersion, .invalidName,
        .zeroAmount, .negativeAmount, .invalidAmount, .emptyRecipe,
    ]

    @Test func ruleExamplesAgreeWithTheSchema() throws {
        var texts: [String: String] = [:]
        for rule in Rule.allCases {
            texts["fixed " + rule.id] = rule.fixedExample
            if rule != .yamlSyntax && rule != .resourceLimit { texts["wrong " + rule.id] = rule.wrongExample }
        }
        let errors = try SchemaValidator.errors(texts)
        for rule in Rule.allCases {
            #expect(errors["fixed " + rule.id] == [], "\(rule.id): \(errors["fixed " + rule.id] ?? [])")
            guard let wrong = errors["wrong " + rule.id] else { continue }
            if Self.rulesTheSchemaSees.contains(rule) {
                #expect(!wrong.isEmpty, "the schema accepts the wrong example of \(rule.id)")
            } else {
                #expect(wrong == [], "\(rule.id): \(wrong)")
            }
        }
    }
}
