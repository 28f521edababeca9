/// A recipe file's path, as shown to people, and its bytes.
public struct SourceFile: Sendable {
    public let path: String
    public let bytes: [UInt8]

    /// A file as read; `path` is what diagnostics show.
    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }
}
