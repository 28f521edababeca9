/// Where the server's log lines go (standard error), and how many it writes.
public struct ServerLog {
    /// How much to log; each level includes those before it.
    public enum Level: String, Sendable, CaseIterable, Comparable {
        case off
        case error
        case warning
        case info
        case debug

        public static func < (lhs: Level, rhs: Level) -> Bool {
            allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
        }
    }

    public var level: Level
    private let sink: (String) -> Void

    /// A log that writes lines of `level` and worse to `sink`; by default
    /// nothing is written.
    public init(level: Level = .off, sink: @escaping (String) -> Void = { _ in }) {
        self.level = level
        self.sink = sink
    }

    /// Writes `message` when `messageLevel` is within the level set.
    func write(_ messageLevel: Level, _ message: @autoclosure () -> String) {
        guard messageLevel != .off, messageLevel <= level else { return }
        sink("juice-lint lsp: \(messageLevel.rawValue): \(message())")
    }
}
