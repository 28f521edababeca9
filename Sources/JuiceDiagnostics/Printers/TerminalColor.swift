/// Whether human output gets ANSI colour.
public enum TerminalColor {
    /// Decides colour in one place, with this precedence:
    ///
    /// 1. an explicit `--color=always` or `--color=never` wins;
    /// 2. otherwise `NO_COLOR` set to anything non-empty turns colour off
    ///    (the no-color.org convention: an empty value means unset);
    /// 3. otherwise `FORCE_COLOR` set, non-empty and not `0` turns it on, for CI
    ///    logs that render colour but are not terminals;
    /// 4. otherwise colour only when the output is a terminal.
    public static func shouldColor(flag: ColorChoice, isTerminal: Bool, environment: [String: String]) -> Bool {
        switch flag {
        case .always: return true
        case .never: return false
        case .auto: break
        }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if let force = environment["FORCE_COLOR"], !force.isEmpty, force != "0" { return true }
        return isTerminal
    }
}
