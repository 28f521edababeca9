import Foundation
import Testing
@testable import JuiceSource
@testable import JuiceDiagnostics
@testable import JuiceBook
@testable import JuiceLint
@testable import JuiceCommandLine
@testable import JuiceEngine

/// Reading files in parallel must change nothing: the same diagnostics in the
/// same order, the same book, whatever the batch boundaries.
@Suite struct ParallelFilesTests {
    /// 13 files (so batches end unevenly on any core count) with a fruit
    /// catalogue, recipes and menu items, and mistakes that involve more than
    /// one file: duplicates across files, unknown fruits, bad amounts, YAML errors.
    static func files() -> [SourceFile] {
        var files = [SourceFile(path: "fruits.yaml", bytes: Array("""
            fruits:
              mango:
              kiwi:
              lime:
            stock:
              mango: 100
              kiwi: 100
            """.utf8))]
        for number in 0..<12 {
            var yaml = "recipes:\n  base-\(number): { mango: 1, kiwi: 2 }\nmenu:\n"
            for item in 0..<40 {
                let ingredient = item % 7 == 0 ? "mangoo" : (item % 5 == 0 ? "base-\((number + 1) % 12)" : "kiwi")
                yaml += "  juice-\(number)-\(item):\n    recipe: { \(ingredient): \(item % 11 == 0 ? 0 : 1 + item % 3), lime: 1 }\n"
            }
            // The same id in two files, and a broken document after a good one.
            yaml += "  shared-juice:\n    recipe: { mango: 1 }\n"
            if number % 4 == 3 { yaml += "---\nmenu: [unclosed\n" }
            files.append(SourceFile(path: "menu-\(number).yaml", bytes: Array(yaml.utf8)))
        }
        return files
    }

    /// Writes `files` (and `stock`) into a folder under their own relative
    /// paths, and loads them from there with `loader`. The same files go to
    /// the same folder, so that two loaders' diagnostics name the same paths.
    static func load(
        _ files: [SourceFile], stock: SourceFile?, analysis: Bool, pass: (any BookAnalysisPass)? = nil, book: Bool, loader: any BookLoader
    ) throws -> Compilation {
        var hasher = Hasher()
        for file in files + [stock].compactMap({ $0 }) {
            hasher.combine(file.path)
            hasher.combine(file.bytes)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallel-\(UInt(bitPattern: hasher.finalize()))")
        defer { try? FileManager.default.removeItem(at: folder) }
        for file in files + [stock].compactMap({ $0 }) {
            let url = folder.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: url)
        }
        var request = BookLoadRequest(
            paths: files.map { folder.appendingPathComponent($0.path).path },
            stockPath: stock.map { folder.appendingPathComponent($0.path).path }, analysis: analysis, assemblesBook: book,
            keepsText: false
        )
        request.pass = pass
        var loaded = try loader.load(request)
        return loaded.workspace.snapshot().compilation
    }

    @Test func parallelAndSequentialCompilationAgree() throws {
        let files = Self.files()
        let sequential = try Self.load(files, stock: nil, analysis: true, pass: OpeningStockAnalysis(), book: true, loader: SequentialBookLoader())
        let parallel = try Self.load(files, stock: nil, analysis: true, pass: OpeningStockAnalysis(), book: true, loader: ParallelBookLoader(parallelAbove: 0))
        #expect(sequential.diagnostics.count > 100)
        #expect(Set(sequential.diagnostics.map(\.rule)).isSuperset(of: [.unknownFruit, .zeroAmount, .duplicateDefinition, .yamlSyntax]))
        #expect(parallel.diagnostics == sequential.diagnostics)
        let counts = DiagnosticCounts(files: files.count, diagnostics: sequential.diagnostics)
        #expect(JSONDiagnosticPrinter.render(parallel.diagnostics, counts: counts)
            == JSONDiagnosticPrinter.render(sequential.diagnostics, counts: counts))
    }

    /// The end-to-end cross-file fixture (ids and stock entries repeated
    /// across files, documents and sections; see CrossFileTests), with each
    /// file read on its own thread: the merge must give what reading the files
    /// one by one gives, with and without a stock file.
    @Test func crossFileCollisionsAreTheSameInParallel() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("EndToEndTests/Fixtures/cross-file")
        let files = try ["a", "b", "c"].map { name in
            SourceFile(path: "book/\(name).yaml", bytes: Array(try Data(contentsOf: folder.appendingPathComponent("book/\(name).yaml"))))
        }
        let stock = SourceFile(path: "stock.yaml", bytes: Array(try Data(contentsOf: folder.appendingPathComponent("stock.yaml"))))
        for stockFile in [nil, stock] {
            let sequential = try Self.load(files, stock: stockFile, analysis: true, pass: OpeningStockAnalysis(), book: true, loader: SequentialBookLoader())
            let parallel = try Self.load(files, stock: stockFile, analysis: true, pass: OpeningStockAnalysis(), book: true, loader: ParallelBookLoader(parallelAbove: 0))
            #expect(sequential.diagnostics.filter { $0.rule == .duplicateDefinition }.count == (stockFile == nil ? 9 : 10))
            #expect(parallel.diagnostics == sequential.diagnostics)
        }
    }

    /// A book big enough to be worth reading on every core (more than
    /// 20,000 ingredients), checked against needs worked out here, by hand,
    /// and against its unknown names, each at its own line.
    @Test func aBigBookIsLinkedRight() throws {
        let fruits = (0..<40).map { "fruit-\($0)" }
        var files = [SourceFile(path: "fruits.yaml", bytes: Array((
            "fruits:\n" + fruits.map { "  \($0):\n" }.joined()
            + "stock:\n" + fruits.map { "  \($0): 1000\n" }.joined()
            + "recipes:\n" + (0..<10).map { "  base-\($0): { fruit-\($0): 2, fruit-\($0 + 10): 1 }\n" }.joined()
        ).utf8))]
        var expected: [String: [Int: Int]] = [:]
        var unknownLines: [String: [Int]] = [:]
        let perFile = 1_500
        for file in 0..<4 {
            var yaml = "menu:\n"
            var line = 1
            for item in 0..<perFile {
                let number = file * perFile + item
                var needs: [Int: Int] = [:]
                var recipe: [String] = []
                for part in 0..<4 {
                    let fruit = (number * 7 + part * 11) % 40
                    let amount = 1 + (number + part) % 5
                    recipe.append("fruit-\(fruit): \(amount)")
                    needs[fruit, default: 0] += amount
                }
                let base = number % 10
                recipe.append("base-\(base): 3")
                needs[base, default: 0] += 6
                needs[base + 10, default: 0] += 3
                if number % 500 == 7 { recipe.append("fruit-x\(number): 1") }
                yaml += "  juice-\(number):\n    recipe: { \(recipe.joined(separator: ", ")) }\n"
                if number % 500 == 7 { unknownLines["menu-\(file).yaml", default: []].append(line + 2) }
                line += 2
                expected["juice-\(number)"] = needs
            }
            files.append(SourceFile(path: "menu-\(file).yaml", bytes: Array(yaml.utf8)))
        }
        let compilation = RecipeCompiler.snapshot(files, stock: nil, analysis: true, pass: OpeningStockAnalysis(), book: true).compilation
        let unknown = compilation.diagnostics.filter { $0.rule == .unknownFruit }
        #expect(unknown.count == 12)
        #expect(Dictionary(grouping: unknown, by: \.file).mapValues { $0.map(\.range.start.line) } == unknownLines)
        #expect(unknown.allSatisfy { $0.message.hasPrefix("unknown fruit 'fruit-x") })
        // With unknown names the book has errors; without them it must build.
        let clean = files.map { file in
            SourceFile(path: file.path, bytes: Array(String(decoding: file.bytes, as: UTF8.self)
                .replacingOccurrences(of: #", fruit-x[0-9]+: 1"#, with: "", options: .regularExpression).utf8))
        }
        let book = try #require(RecipeCompiler.snapshot(clean, stock: nil, analysis: false, book: true).compilation.book)
        #expect(book.menu.count == 4 * perFile)
        for item in book.menu {
            let needs = Dictionary(uniqueKeysWithValues: item.needs.map { (Int(book.fruits[$0.fruit].id.dropFirst(6))!, $0.amount) })
            #expect(needs == expected[item.id], "\(item.id)")
        }
    }

    /// Both tools' path: files read by the workers themselves, each built
    /// into its unit there and loaded into a workspace. In parallel and one
    /// by one it must give the same diagnostics, every file's unit (the
    /// stock file's as the stock), and the text back in file order (the
    /// stock file last) when asked for it.
    @Test func readingOnTheWorkersGivesEverythingInOrder() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("EndToEndTests/Fixtures/cross-file")
        let paths = ["a", "b", "c"].map { folder.appendingPathComponent("book/\($0).yaml").path }
        let stockPath = folder.appendingPathComponent("stock.yaml").path
        var results: [(loaded: LoadedBook, compilation: Compilation)] = []
        for loader in [ParallelBookLoader(parallelAbove: 0), SequentialBookLoader()] as [any BookLoader] {
            var loaded = try loader.load(BookLoadRequest(
                paths: paths, stockPath: stockPath, analysis: true, assemblesBook: false, keepsText: true
            ))
            results.append((loaded, loaded.workspace.snapshot().compilation))
        }
        // Every path is shown relative to the working directory, as discovery shows it.
        let shown = (paths + [stockPath]).map(RecipeSources.displayPath)
        for result in results {
            #expect(result.loaded.workspace.paths + [result.loaded.workspace.stockPath] == shown)
            #expect(result.loaded.sources.map(\.path) == shown)
            #expect(try result.loaded.sources.map(\.bytes) == (paths + [stockPath]).map { Array(try Data(contentsOf: URL(fileURLWithPath: $0))) })
            #expect(result.compilation.fileCount == 4)
        }
        #expect(results[0].compilation.diagnostics == results[1].compilation.diagnostics)
        #expect(results[0].compilation.diagnostics.filter { $0.rule == .duplicateDefinition }.count == 10)
        // Without `keepingText`, no text is kept.
        let bare = try ParallelBookLoader().load(BookLoadRequest(paths: paths, stockPath: stockPath, analysis: true, assemblesBook: false, keepsText: false))
        #expect(bare.sources.isEmpty)
    }

    @Test func aValidBookIsTheSameBook() throws {
        // Without the mistakes: every file valid, so both paths build a book.
        let files = Self.files().map { file in
            SourceFile(path: file.path, bytes: Array(String(decoding: file.bytes, as: UTF8.self)
                .replacingOccurrences(of: "mangoo", with: "mango")
                .replacingOccurrences(of: ": 0, lime", with: ": 1, lime")
                .replacingOccurrences(of: "  shared-juice:\n    recipe: { mango: 1 }\n", with: "")
                .replacingOccurrences(of: "---\nmenu: [unclosed\n", with: "").utf8))
        }
        let sequential = try Self.load(files, stock: nil, analysis: false, book: true, loader: SequentialBookLoader())
        let parallel = try Self.load(files, stock: nil, analysis: false, book: true, loader: ParallelBookLoader(parallelAbove: 0))
        let book = try #require(sequential.book, "\(sequential.diagnostics.prefix(3))")
        let parallelBook = try #require(parallel.book)
        #expect(parallelBook.menu.map(\.id) == book.menu.map(\.id))
        #expect(parallelBook.menu == book.menu)
        #expect(RecipeGraph.render(parallelBook, format: .mermaid) == RecipeGraph.render(book, format: .mermaid))
    }
}
