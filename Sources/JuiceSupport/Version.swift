/// The juice-maker release these tools belong to, shown by `--version` and in
/// SARIF's `tool.driver.version`.
public enum JuiceMakerVersion {
    public static let current = "0.2.0"
}
