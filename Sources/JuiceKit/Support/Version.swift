/// The juice-maker release these tools belong to, shown by `--version` and in
/// SARIF's `tool.driver.version`.
public enum JuiceMakerVersion {
    public static let current = "0.2.0"
    /// Where people read about the tools; SARIF's `informationUri`.
    public static let informationURI = "https://github.com/juice-maker/juice-maker"
}
