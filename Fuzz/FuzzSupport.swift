import Foundation

// Shared by the libFuzzer targets. Each target is built by compiling the
// library layers' sources (their imports of one another dropped), this file, the generated canonical book
// (`.build/fuzz/CanonicalBook.swift`, from `recipes/` by `make fuzz`) and its
// own entry file into one module, so nothing here goes through SwiftPM.

/// Everything the report writers produce goes here: one descriptor for the
/// whole process, so a long run does not use up descriptors.
let devNull: Int32 = {
    let descriptor = open("/dev/null", O_WRONLY)
    precondition(descriptor >= 0, "cannot open /dev/null")
    return descriptor
}()

/// The canonical book (`recipes/fruits.yaml` and `recipes/menu.yaml`), compiled once.
let canonicalBook: RecipeBook = {
    let compilation = RecipeCompiler.compile([
        SourceFile(path: "recipes/fruits.yaml", bytes: Array(canonicalFruitsYAML.utf8)),
        SourceFile(path: "recipes/menu.yaml", bytes: Array(canonicalMenuYAML.utf8)),
    ])
    guard let book = compilation.book else {
        // Not input-reachable: the canonical recipes are checked by `make test`.
        preconditionFailure("the canonical recipes do not compile: \(compilation.diagnostics)")
    }
    return book
}()

/// Copies libFuzzer's input into an array.
func inputBytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
    Array(UnsafeBufferPointer(start: data, count: size))
}

/// The orders one input may hand the reporters that print an event per order.
/// An event costs about 1.6 µs in a release build (about 100 bytes of text),
/// several times that under AddressSanitizer, so a few `MENU-ID x1000000`
/// lines took a run past libFuzzer's 10 s timeout: work in proportion to what
/// the input asks, not a hang (`juice-run` prints 100 MB for such a line). The
/// quiet run still takes every count whole, the one-step `xN` path included.
let eventOrderBudget = 10_000

/// Runs `script` against `book` as `juice-run` does (lines split at `\n`, a
/// trailing `\r` dropped, each line handed over as bytes), once with the text
/// reporter and once with the JSON Lines reporter; also parses every line as
/// a `String` with `ScriptParser`, the path `--order` and the counter use, and
/// runs what that gives quietly. Past `eventOrderBudget` orders in all, an
/// order line reaches the two event reporters with its count cut to what the
/// budget has left (none once it is spent).
func runScript(_ script: [UInt8], against book: RecipeBook, file: String = "fuzz.orders") {
    let output = OutputBuffer(descriptor: devNull)
    let errors = OutputBuffer(descriptor: devNull)
    var text = Simulation(book: book, file: file, reporter: TextSimulationReporter(book: book, output: output, errors: errors))
    var json = Simulation(book: book, file: file, reporter: JSONLinesSimulationReporter(book: book, output: output, errors: errors))
    var quiet = Simulation(book: book, file: file, reporter: TextSimulationReporter(book: book, output: output, errors: errors, quiet: true))
    let parser = ScriptParser(book: book, file: file)
    var budget = eventOrderBudget
    script.withUnsafeBufferPointer { all in
        var start = 0
        var number = 0
        // As `LineReader`: a last line without `\n` counts when it has bytes.
        while start < all.count {
            var end = start
            while end < all.count && all[end] != UInt8(ascii: "\n") { end += 1 }
            number += 1
            var lineEnd = end
            if lineEnd > start && all[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
            var lineStart = start
            // As `LineReader`: a byte-order mark opening the input is not part of line 1.
            if number == 1, lineEnd - lineStart >= 3, all[lineStart] == 0xEF, all[lineStart + 1] == 0xBB, all[lineStart + 2] == 0xBF {
                lineStart += 3
            }
            let line = UnsafeBufferPointer(rebasing: all[lineStart..<lineEnd])
            // The quiet run takes what `ScriptParser.parse` made of the line as
            // a `String`, so a misspelt line's did-you-mean is searched three
            // times, not four: a book of 434 items with 2,267 misspelt lines
            // took 6 s under the sanitizers, most of it in the search.
            let parsed: ScriptCommand?
            do throws(ScriptProblem) {
                parsed = try parser.parse(String(decoding: line, as: UTF8.self), number: number)
                if let parsed { quiet.run(parsed, line: number, file: file) }
            } catch {
                parsed = nil
                quiet.skip(error)
            }
            if case .order(let menu, let count) = parsed, count > budget {
                if budget > 0 {
                    text.run(.order(menu: menu, count: budget), line: number, file: file)
                    json.run(.order(menu: menu, count: budget), line: number, file: file)
                    budget = 0
                }
            } else {
                if case .order(_, let count) = parsed { budget -= count }
                text.run(bytes: line, number: number, file: file)
                json.run(bytes: line, number: number, file: file)
            }
            start = end + 1
        }
    }
    _ = text.finish()
    _ = json.finish()
    _ = quiet.finish()
    output.flush()
    errors.flush()
}
