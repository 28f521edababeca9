// libFuzzer target `recipe-bytes`: the input is one recipe file, `fuzz.yaml`,
// linted and compiled next to the canonical `recipes/fruits.yaml`, and every
// diagnostic is rendered in every output format.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecipeBytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let files = [
        SourceFile(path: "recipes/fruits.yaml", bytes: Array(canonicalFruitsYAML.utf8)),
        SourceFile(path: "fuzz.yaml", bytes: inputBytes(data, size)),
    ]
    // The lint path: analyses, suppression comments, rule levels.
    let diagnostics = Linter.check(files, configuration: LintConfiguration())
    // The run path: the book itself.
    let compilation = RecipeCompiler.compile(files)
    for printer in [HumanDiagnosticPrinter(files: files, color: true), HumanDiagnosticPrinter(files: files, color: false)] {
        for diagnostic in diagnostics + compilation.diagnostics { _ = printer.render(diagnostic) }
    }
    let counts = DiagnosticCounts(files: files.count, diagnostics: diagnostics)
    _ = HumanDiagnosticPrinter.summary(counts)
    _ = JSONDiagnosticPrinter.render(diagnostics, counts: counts)
    _ = GitHubDiagnosticPrinter.render(diagnostics)
    _ = SARIFDiagnosticPrinter.render(diagnostics)
    return 0
}
