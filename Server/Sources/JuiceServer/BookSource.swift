import Foundation
import JuiceBook
import JuiceDiagnostics
import JuiceSource

/// The server's book: loaded from its recipe paths as juice-run loads it,
/// and refused, with its errors as juice-lint prints them, when it has any.
public struct BookSource: Sendable {
    public let paths: [String]
    public let stockPath: String?

    public init(paths: [String], stockPath: String? = nil) {
        self.paths = paths
        self.stockPath = stockPath
    }

    /// The book, or the text of its errors.
    public func load() -> Result<RecipeBook, BookProblem> {
        var loaded: LoadedBook
        do {
            loaded = try SequentialBookLoader().load(BookLoadRequest(paths: paths, stockPath: stockPath, analysis: false, assemblesBook: true, keepsText: true))
        } catch {
            return .failure(BookProblem(text: "\(error)\n"))
        }
        let compilation = loaded.workspace.snapshot().compilation
        let errors = compilation.diagnostics.filter { $0.severity == .error }
        if !errors.isEmpty {
            let printer = HumanDiagnosticPrinter(files: loaded.sources, color: false)
            return .failure(BookProblem(text: errors.map { printer.render($0) }.joined(separator: "\n") + "\n"))
        }
        guard let book = compilation.book else { return .failure(BookProblem(text: "the book cannot be assembled\n")) }
        return .success(book)
    }

    /// Every file the book is read from, with its modification time and
    /// size: what the watcher compares to see a change.
    public func fingerprint() -> [String: String] {
        var result: [String: String] = [:]
        let manager = FileManager.default
        for path in paths + (stockPath.map { [$0] } ?? []) {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { result[path] = "missing"; continue }
            var files = [path]
            if isDirectory.boolValue, let walker = manager.enumerator(atPath: path) {
                files = walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.map { path + "/" + $0 }
            }
            for file in files {
                let attributes = try? manager.attributesOfItem(atPath: file)
                let time = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                let size = (attributes?[.size] as? NSNumber)?.intValue ?? -1
                result[file] = "\(time):\(size)"
            }
        }
        return result
    }
}

/// Why a book was not taken: its errors, as juice-lint prints them.
public struct BookProblem: Error, Sendable {
    public let text: String
}
