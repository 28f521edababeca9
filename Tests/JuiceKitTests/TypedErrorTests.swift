#if canImport(Glibc)
import Glibc
#endif
import Testing
@_spi(Internals) @testable import JuiceSupport
@testable import JuiceSource
@testable import JuiceDiagnostics
@testable import JuiceBook
@testable import JuiceSimulation
@testable import JuiceLint
@testable import JuiceCommandLine

/// Errors that end a command are values: the library throws them, and only
/// JuiceCommandLine prints them (see the end-to-end usage-error tests).
@Suite struct TypedErrorTests {
    static func options(_ set: (inout RunOptions) -> Void) -> RunOptions {
        var options = RunOptions()
        set(&options)
        return options
    }

    static let conflicts: [(RunOptions, RunUsageError)] = [
        (options { $0.capacity = true; $0.orders = ["banana-juice"] }, .capacityWithOrders),
        (options { $0.capacity = true; $0.interactive = true }, .capacityWithOrders),
        (options { $0.capacity = true; $0.saveStockPath = "s.yaml" }, .capacityWithSaveStock),
        (options { $0.interactive = true; $0.scripts = ["a.orders"] }, .interactiveWithOrders),
        (options { $0.seed = 1 }, .seedOrMixWithoutRandom),
        (options { $0.mix = "banana-juice=1" }, .seedOrMixWithoutRandom),
        (options { $0.randomCount = -1 }, .randomOutOfRange),
        (options { $0.randomCount = ShopRun.maxRandomOrders + 1 }, .randomOutOfRange),
        (options { $0.interactive = true; $0.format = .json }, .interactiveWithJSON),
    ]

    @Test(arguments: conflicts)
    func conflictingRunOptionsAreNamed(options: RunOptions, expected: RunUsageError) {
        #expect(throws: expected) { try options.validate() }
    }

    @Test func optionsThatGoTogetherPassValidation() throws {
        var options = RunOptions()
        options.randomCount = ShopRun.maxRandomOrders
        options.seed = 3
        options.mix = "banana-juice=1"
        options.format = .json
        try options.validate()
        var capacity = RunOptions()
        capacity.capacity = true
        try capacity.validate()
    }

    static func request(
        _ paths: [String], fix: Bool = false, diff: Bool = false, stdin: String? = nil, base: String? = nil
    ) -> LintRequest {
        LintRequest(paths: paths, fix: fix, diff: diff, stdinFilename: stdin, basePath: base)
    }

    static let lintConflicts: [(LintRequest, LintUsageError)] = [
        (request(["recipes"], base: "/nonexistent-base"), .basePathNotADirectory("/nonexistent-base")),
        (request(["recipes"], base: "/dev/null"), .basePathNotADirectory("/dev/null")),
        (request(["recipes"], diff: true), .diffWithoutFix),
        (request(["-"], fix: true, stdin: "recipes/menu.yaml"), .fixWithStandardInput),
        (request(["recipes"], fix: true, stdin: "recipes/menu.yaml"), .fixWithStandardInput),
        (request(["-", "-"], stdin: "recipes/menu.yaml"), .standardInputTwice),
        (request(["recipes", "-"]), .standardInputUnnamed),
        (request(["recipes"], stdin: "recipes/menu.yaml"), .stdinFilenameWithoutDash),
        (request(["-"], stdin: ""), .emptyStdinFilename),
        (request(["-"], stdin: "/"), .stdinFilenameIsADirectory("/")),
    ]

    @Test(arguments: lintConflicts)
    func conflictingLintOptionsAreNamed(request: LintRequest, expected: LintUsageError) {
        #expect(throws: expected) { try request.validate(isDirectory: FileChecks.isDirectory) }
    }

    @Test func lintOptionsThatGoTogetherPassValidation() throws {
        try Self.request(["recipes", "-"], stdin: "recipes/menu.yaml", base: "/").validate(isDirectory: FileChecks.isDirectory)
        try Self.request(["recipes"], fix: true, diff: true).validate(isDirectory: FileChecks.isDirectory)
        #expect(Self.request(["a", "-", "b"], stdin: "a/x.yaml").diskPaths == ["a", "b"])
    }

    /// A library caller that skips validation gets the same value thrown by
    /// the run, before anything is read or written.
    @Test func aRunValidatesItsOptionsToo() throws {
        let null = open("/dev/null", O_WRONLY)
        try #require(null >= 0)
        defer { close(null) }
        var options = RunOptions()
        options.capacity = true
        options.saveStockPath = "stock.yaml"
        let streams = RunStreams(
            output: OutputBuffer(descriptor: null), errors: OutputBuffer(descriptor: null),
            input: DescriptorSource(null, closing: false), inputIsTerminal: false, errorsAreTerminal: false
        )
        var reported: [String] = []
        do {
            _ = try ShopRun(options: options, streams: streams, environment: POSIXRunEnvironment()).run { error in
                reported.append("\(error)")
                return .usage
            }
            Issue.record("the run did not throw")
        } catch {
            guard case .usage(.capacityWithSaveStock) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
        }
        #expect(reported.isEmpty)
    }

    /// Rule lookup has its own error, in Diagnostics; the configuration turns
    /// it into its own error, keeping the place and the suggestion.
    @Test func anUnknownRuleIsTheCataloguesError() throws {
        #expect(throws: UnknownRuleError(id: "zero-amout", place: nil, help: "did you mean 'zero-amount'?")) {
            try Rule.named("zero-amout")
        }
        let error = UnknownRuleError(id: "nope", place: "--rule", help: "run 'juice-lint rules' to list them")
        #expect(error.description == "--rule: unknown rule 'nope'\n  help: run 'juice-lint rules' to list them")
        var configuration = LintConfiguration()
        #expect(throws: ConfigurationError("--rule: unknown rule 'unused-friut'", help: "did you mean 'unused-fruit'?")) {
            try configuration.override("unused-friut=error")
        }
    }

    @Test func runErrorsSayWhatTheyAlwaysSaid() {
        #expect("\(RunError.invalidBook(stockFile: false))" == "the recipe book is invalid")
        #expect("\(RunError.invalidBook(stockFile: true))" == "the recipe book or the stock file is invalid")
        #expect("\(RunError.scriptIsDirectory("recipes"))" == "cannot read 'recipes': it is a directory\n  help: did you mean '--recipes recipes'?")
        #expect("\(RunError.usage(.seedOrMixWithoutRandom))" == "--seed and --mix apply to --random N")
        #expect("\(LintError.invalidBookHasNoGraph)" == "the recipe book is invalid, so it has no graph")
    }
}

/// The two types that cache lazily are shared between threads honestly: many
/// threads querying one instance get what one thread gets. These check the
/// answers, not the absence of races: ThreadSanitizer cannot be the judge on
/// Linux today, because `Mutex` takes a contended lock with a kernel PI futex
/// it does not see, so it flags even a minimal correct `withLock` (checked
/// with a ten-line program on this toolchain).
@Suite struct SharedCacheTests {
    @Test func oneSuggestionIndexServesManyThreads() async {
        let index = SuggestionIndex(SuggestionIndexTests.names)
        let typos = ["item-79191", "tem-15838", "mangoo", "pinaple", "durian", "strawbery"]
        let expected = typos.map { SuggestionIndexTests.bruteForce($0) }
        let answers = await withTaskGroup(of: [String?].self) { group in
            for _ in 0..<8 { group.addTask { typos.map { index.closest(to: $0) } } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == 8)
        for answer in answers { #expect(answer == expected) }
    }

    @Test func onePrinterRendersOnManyThreads() async throws {
        let text = "fruits:\n  mango:\nmenu:\n  a: { recipe: { mangoo: 2 } }\n  b: { recipe: { mango: 1, kiwii: 2 } }\n"
        let compilation = compile(yaml: text)
        let file = SourceFile(path: "inline.yaml", bytes: Array(text.utf8))
        let printer = HumanDiagnosticPrinter(files: [file], color: false)
        let diagnostics = compilation.diagnostics
        try #require(diagnostics.count >= 2)
        let expected = diagnostics.map(printer.render)
        #expect(expected[0].hasPrefix("inline.yaml:4:18: error: unknown fruit 'mangoo' [unknown-fruit]\n"))
        #expect(expected[1].hasPrefix("inline.yaml:5:28: error: unknown fruit 'kiwii' [unknown-fruit]\n"))
        let answers = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 { group.addTask { (0..<50).flatMap { _ in diagnostics.map(printer.render) } } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        for answer in answers { #expect(answer == Array((0..<50).map { _ in expected }.joined())) }
    }
}
