import ArgumentParser

/// The check both tools make of `--max-diagnostics`: 0 means no cap, and a
/// negative cap means nothing, so it is a usage error.
public func validateMaxDiagnostics(_ value: Int?) throws {
    if let value, value < 0 {
        throw ValidationError("--max-diagnostics must be 0 (no cap) or more, not \(value)")
    }
}
