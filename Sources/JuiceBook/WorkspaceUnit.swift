import JuiceSource
import JuiceDiagnostics
/// One recipe file's own work: its YAML parsed, its declarations collected,
/// its suppression comments found.
///
/// A unit is a pure function of the file's path and bytes and needs no other
/// file, so the input layer builds units on every core and hands the finished
/// ones to a `RecipeWorkspace`; an editor rebuilds only the unit of the file
/// that changed. The bytes are not kept: a unit holds what was found in them.
public struct WorkspaceUnit: Sendable {
    /// Whether the file is part of the book or the stock file that replaces
    /// the book's stock: a stock file is read with its own, smaller schema.
    public enum Role: Sendable, Hashable {
        case book
        case stock
    }

    /// The file's path as diagnostics show it; the workspace's key.
    public let path: String
    /// How the file was read.
    public let role: Role
    /// The `# juice-lint disable-…` comments in the file, in line order.
    public let suppressions: [Suppression]
    /// What the file declares, before names are resolved against other
    /// files: in one part, or for a large file collected in pieces, one part
    /// per piece, in file order. Merging the parts one after another is
    /// merging the file: a piece is only kept when it reads as the whole
    /// file would (the driver's `DeclarationCollector.PieceJoin`). A stock file has one part.
    package let parts: [DeclarationCollector]

    /// The unit of a book file: parse, collect and suppression scan.
    /// Safe on any thread.
    public init(bookFile file: SourceFile) {
        var worker = DeclarationCollector.Worker()
        self.init(bookFile: file, worker: &worker)
    }

    /// The unit of a book file, reusing a worker's buffers from file to file
    /// (`ParallelFiles` keeps one per thread).
    package init(bookFile file: SourceFile, worker: inout DeclarationCollector.Worker) {
        path = file.path
        role = .book
        // Suppression comments are read from the text, since libyaml drops comments.
        suppressions = Suppression.scan(file)
        parts = [worker.collect(file)]
    }

    /// The unit of a book file already collected, in one part or, for a
    /// large file read in pieces (the driver's `LargeFileCut`), one part per
    /// piece in file order, each read as the whole file would read it.
    package init(path: String, suppressions: [Suppression], parts: [DeclarationCollector]) {
        self.path = path
        role = .book
        self.suppressions = suppressions
        self.parts = parts
    }

    /// The unit of a stock file (`version` and `stock` only), whose entries
    /// replace the book's opening stock. Safe on any thread.
    public init(stockFile file: SourceFile) {
        path = file.path
        role = .stock
        suppressions = Suppression.scan(file)
        parts = [DeclarationCollector.collectStock(file: file)]
    }

    /// A unit for `file` in the given role.
    public init(_ file: SourceFile, role: Role) {
        switch role {
        case .book: self.init(bookFile: file)
        case .stock: self.init(stockFile: file)
        }
    }
}
