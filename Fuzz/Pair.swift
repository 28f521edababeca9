// libFuzzer target `pair`: the input is a book and a script, split at the first
// 0x00 byte (no 0x00: all book, no script). The book is compiled alone, without
// the canonical fruits; when it yields a book, the script runs against it.

func fuzzPair(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = inputBytes(data, size)
    let separator = input.firstIndex(of: 0) ?? input.endIndex
    let book = Array(input[..<separator])
    let script = separator < input.endIndex ? Array(input[(separator + 1)...]) : []
    let compilation = RecipeCompiler.compile([SourceFile(path: "book.yaml", bytes: book)])
    if let compiled = compilation.book {
        runScript(script, against: compiled)
    }
    return 0
}
