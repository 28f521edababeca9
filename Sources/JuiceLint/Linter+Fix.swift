@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics
import JuiceBook
import JuiceEngine
/// `juice-lint --fix` and `--fix --diff`: load the book, make the fixes in
/// memory (`FixRun`), then write each changed file in place, or print the
/// changes as a unified diff and write nothing.
///
/// What was fixed goes with the summary to standard error, so standard
/// output is the usual report in the chosen format (json and sarif stay
/// machine-readable), or, with `--diff`, the diff alone.
extension Linter {
    /// Fixes the book at `options.paths`. Writing: every file a fix changed
    /// is replaced atomically (`AtomicFile`), unless it changed on disk
    /// since it was read; then the book is linted again from disk and
    /// reported as usual. With `diffOnly`, nothing is written: the report is
    /// the diff, and the exit code is the one the fixed book would give.
    /// A file that could not be written is named and makes the exit code 3.
    public func fix(diffOnly: Bool) throws(LintError) -> Report {
        let configuration = try runConfiguration()
        let paths = bookPaths
        var workspace: RecipeWorkspace
        let sources: [SourceFile]
        do throws(SourceError) {
            var request = BookLoadRequest(
                paths: paths, stockPath: options.stockPath, analysis: true, rulesOff: configuration.rulesOff, assemblesBook: false,
                keepsLabels: false, keepsText: true
            )
            request.pass = OpeningStockAnalysis()
            let loaded = try loader.load(request)
            workspace = loaded.workspace
            sources = loaded.sources
        } catch {
            throw .source(error)
        }
        let stockPath = workspace.stockPath
        let fixing = FixRun(files: sources) { edited in
            for file in edited {
                if file.path == stockPath { workspace.replaceStock(with: file) }
                if workspace.unit(at: file.path) != nil { workspace.update(path: file.path, bytes: file.bytes) }
            }
            let snapshot = workspace.snapshot()
            return FixRun.Findings(
                diagnostics: configuration.finish(snapshot),
                unreadable: Set(snapshot.diagnostics.lazy.filter { $0.rule == .yamlSyntax }.map(\.file))
            )
        }
        var lines = fixing.noticeLines()
        var changed: [(old: SourceFile, new: SourceFile)] = []
        var seen = Set<String>()
        for (old, new) in zip(fixing.original, fixing.files) where old.bytes != new.bytes && seen.insert(old.path).inserted {
            changed.append((old, new))
        }
        if diffOnly {
            // Named from the base (the repository's root by default), as
            // SARIF names them: `patch -p1` and `git apply` refuse `..`.
            let root = sourceRoot()
            let diff = changed.map { change in
                UnifiedDiff.render(old: change.old.bytes, new: change.new.bytes, path: root.diffPath(of: change.old.path))
            }.joined()
            lines.append(fixing.total(fixes: fixing.changes.count, files: changed.count, diff: true))
            let counts = DiagnosticCounts(files: workspace.snapshot().compilation.fileCount, diagnostics: fixing.findings.diagnostics)
            lines.append(HumanDiagnosticPrinter.summary(counts))
            let failed = counts.errors > 0 || (options.strict && counts.warnings > 0)
            // The diff ends with its own newline; the report is printed with
            // one more. Only the `\n` byte goes: a CRLF line keeps its `\r`
            // (as a `Character`, `\r\n` would go whole).
            return Report(
                body: .text(String(decoding: diff.utf8.dropLast(), as: UTF8.self)), messages: lines.joined(separator: "\n"),
                exitCode: failed ? .failure : .success, counts: counts
            )
        }
        var unwritten: Set<String> = []
        for (old, new) in changed {
            // An editor may have saved the file meanwhile: never overwrite that.
            guard (try? RecipeSources.readFile(old.path)) == old.bytes else {
                lines.append("\(old.path.escapingControlCharacters): not written: it changed on disk while it was being fixed")
                unwritten.insert(old.path)
                continue
            }
            do {
                try AtomicFile.write(bytes: new.bytes, to: old.path)
            } catch {
                lines.append("\(old.path.escapingControlCharacters): not written: \(error)")
                unwritten.insert(old.path)
            }
        }
        let written = fixing.changes.filter { !unwritten.contains($0.file) }.count
        lines.append(fixing.total(fixes: written, files: changed.count - unwritten.count, diff: false, unwritten: unwritten.count))
        var report = try run()
        report.messages = (lines + [report.messages]).joined(separator: "\n")
        if !unwritten.isEmpty { report.exitCode = .internalFailure }
        return report
    }
}

extension FixRun {
    /// What was fixed, file by file, in the files' order: a headline per
    /// file with a fix or a file left alone, then a line per fix, placed as
    /// in the file as read.
    func noticeLines() -> [String] {
        var lines: [String] = []
        var seen = Set<String>()
        let changesByFile = Dictionary(grouping: changes, by: \.file)
        let skippedByFile = Dictionary(grouping: skipped, by: \.change.file)
        for file in original.map(\.path) where seen.insert(file).inserted {
            let name = file.escapingControlCharacters
            if unreadable.contains(file) {
                lines.append("\(name): not edited: it has a YAML syntax error")
                continue
            }
            if spoilt.contains(file) {
                lines.append("\(name): not edited: the fixes would leave a YAML syntax error")
                continue
            }
            let made = changesByFile[file] ?? []
            let notMade = skippedByFile[file] ?? []
            guard !made.isEmpty || !notMade.isEmpty else { continue }
            lines.append("\(name): " + (made.isEmpty ? "no fix made" : Self.count(made.count, "fix", "fixes")))
            var entries = made.map { change in
                (change.position, "  \(change.position): \(change.title) [\(change.rule.id)]"
                    + (change.waited ? " (made after linting again: it overlapped an earlier fix)" : ""))
            }
            entries += notMade.map { skip in
                let change = skip.change
                let reason = switch skip {
                case .overlapped(_, let other): "it overlapped '\(other)', and after that fix it was no longer offered"
                case .unplaceable: "its edits are not in the file as it stands"
                case .outsideBook(_, let other): "it edits '\(other.escapingControlCharacters)', which is not in the book"
                }
                return (change.position, "  \(change.position): not fixed: \(change.title) [\(change.rule.id)]: \(reason)")
            }
            lines += entries.sorted { $0.0 < $1.0 }.map(\.1)
        }
        if left > 0 {
            lines.append("stopped after \(Self.maxRounds) rounds with \(Self.count(left, "fix", "fixes")) still to make; run --fix again")
        }
        return lines
    }

    /// The last line: how many fixes were made in how many files.
    func total(fixes made: Int, files: Int, diff: Bool, unwritten: Int = 0) -> String {
        guard made > 0 || unwritten > 0 else { return "no fixes to make" }
        if diff { return "the diff makes \(Self.count(made, "fix", "fixes")) in \(Self.count(files, "file", "files")); no file was changed" }
        let written = "made \(Self.count(made, "fix", "fixes")) in \(Self.count(files, "file", "files"))"
        return unwritten == 0 ? written : written + "; \(Self.count(unwritten, "file", "files")) not written"
    }

    private static func count(_ number: Int, _ one: String, _ many: String) -> String {
        "\(number) \(number == 1 ? one : many)"
    }
}
