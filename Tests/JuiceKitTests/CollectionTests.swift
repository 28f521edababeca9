import Testing
@testable import JuiceSource
@testable import JuiceBook

/// The compiler reports every problem it can see, in output order.
@Suite struct CollectionTests {
    @Test func everyProblemIsReportedSortedByPosition() throws {
        let file = Fixture.path("many-errors.yaml")
        let compilation = try Fixture.compile("many-errors.yaml")
        #expect(compilation.spots == [
            Spot(.unsupportedVersion, file, 1, 10),
            Spot(.invalidName, file, 4, 3),
            Spot(.negativeAmount, file, 6, 10),
            Spot(.unknownFruit, file, 9, 5),
            Spot(.zeroAmount, file, 10, 12),
            Spot(.unknownKey, file, 13, 5),
            Spot(.invalidAmount, file, 14, 18),
        ])
        #expect(compilation.diagnostics[3].help == "did you mean 'mango'?")
        #expect(compilation.diagnostics[5].help == "did you mean 'label'?")
        #expect(compilation.book == nil)
    }

    @Test func diagnosticsAreSortedByFileThenPosition() throws {
        // Given in reverse order, reported in path order.
        let compilation = RecipeCompiler.compile([
            SourceFile(path: "b.yaml", bytes: Array("version: 5\n".utf8)),
            SourceFile(path: "a.yaml", bytes: Array("fruits:\n  x y:\nversion: 3\n".utf8)),
        ])
        #expect(compilation.spots == [
            Spot(.invalidName, "a.yaml", 2, 3),
            Spot(.unsupportedVersion, "a.yaml", 3, 10),
            Spot(.unsupportedVersion, "b.yaml", 1, 10),
        ])
    }
}
