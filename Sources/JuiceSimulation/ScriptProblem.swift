/// Why a script line was skipped.
public struct ScriptProblem: Error, Sendable, Hashable {
    public var file: String
    public var line: Int
    public var message: String
    public var help: String?

    /// A problem on `line` of `file`; control characters in the text are escaped.
    public init(file: String, line: Int, message: String, help: String? = nil) {
        self.file = file
        self.line = line
        self.message = message.escapingControlCharacters
        self.help = help?.escapingControlCharacters
    }
}
