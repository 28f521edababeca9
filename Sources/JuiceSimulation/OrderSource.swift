/// Where a run's commands come from, so every order, restock and report can
/// be traced back to the script line or option that asked for it.
///
/// A reporter is told once per source, before its first command, so it can
/// build its label once rather than per order (a replay runs millions).
public enum OrderSource: Sendable, Hashable {
    /// A script: its path as shown, or `<stdin>`. Its lines are numbered from 1.
    case script(String)
    /// The `--order` options. Each command's line is that `--order`'s position
    /// among them, from 1.
    case order
    /// `--random N`. Each order's line is its number, from 1 to N.
    case random

    /// The name JSON Lines gives as `"source"`: the script's path, `--order` or `--random`.
    public var name: String {
        switch self {
        case .script(let path): return path
        case .order: return "--order"
        case .random: return "--random"
        }
    }

    /// What text output puts before a line number: `k.orders:` (read
    /// `k.orders:3`, as compilers name a line), or `--order ` and `--random `
    /// (read `--order 2`, as the option was given).
    public var textPrefix: String {
        switch self {
        case .script(let path): return path + ":"
        case .order, .random: return name + " "
        }
    }
}
