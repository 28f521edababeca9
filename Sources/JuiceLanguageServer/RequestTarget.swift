import JuiceSource
import JuiceBook

/// A document a request is about, and the cursor in it.
struct RequestTarget {
    var book: Int
    var path: String
    var text: SourceText
    var position: SourcePosition
    /// The cursor's byte offset in `text`.
    var offset: Int
}

/// An id under the cursor: where it is written, and whether that is a
/// definition or a use.
struct IdOccurrence {
    var id: String
    var range: SourceRange
    var definition: WorkspaceIndex.Definition?
    var reference: WorkspaceIndex.Reference?
}
