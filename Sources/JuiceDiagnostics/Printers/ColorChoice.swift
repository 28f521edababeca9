/// What the user asked for with `--color`: decide from the terminal and the
/// environment, or force colour on or off.
///
/// It lives in JuiceKit, not the command-line target, so the decision in
/// `TerminalColor.shouldColor` is testable without ArgumentParser.
public enum ColorChoice: String, CaseIterable, Sendable {
    case auto
    case always
    case never
}
