// libFuzzer target `recipe-bytes`: the input is one recipe file, `fuzz.yaml`,
// linted and compiled next to the canonical `recipes/fruits.yaml`, and every
// diagnostic is rendered in every output format. The input is also cut into
// small pieces as a large file is (`LargeFileCut`): what the pieces give
// must be exactly what the whole file gives, or the target traps.

func fuzzRecipeBytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
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
    checkPieces(files[1])
    return 0
}

private func checkPieces(_ file: SourceFile) {
    guard let plan = LargeFileCut(bytes: file.bytes, cores: 2, minimumBytes: 0, pieceBytes: 48) else { return }
    var worker = DeclarationCollector.Worker()
    let pieces = plan.pieces.indices.map { worker.collect(piece: $0, of: plan, in: file) }
    var cut = RecipeWorkspace(analysis: true, pass: OpeningStockAnalysis()), whole = RecipeWorkspace(analysis: true, pass: OpeningStockAnalysis())
    cut.load(WorkspaceUnit(bookFile: file, plan: plan, pieces: pieces))
    whole.load(WorkspaceUnit(bookFile: file))
    let (mine, theirs) = (cut.snapshot(), whole.snapshot())
    guard mine.diagnostics == theirs.diagnostics, mine.index.definitions == theirs.index.definitions,
          mine.index.references == theirs.index.references
    else { fatalError("the pieces of the file differ from the whole file") }
}
