import ArgumentParser

/// The check both tools make of `--max-diagnostics`: 0 means no cap, and a
/// negative cap means nothing, so it is a usage error.
public func validateMaxDiagnostics(_ value: Int?) throws {
    if let value, value < 0 {
        throw ValidationError("--max-diagnostics must be 0 (no cap) or more, not \(value)")
    }
}

/// Runs one of the library's checks of how options combine inside a command's
/// `validate()`, so its complaint comes out as swift-argument-parser's own
/// usage errors do: `Error: MESSAGE`, the usage line, and exit code 2.
public func validating<Problem: Error & CustomStringConvertible>(_ check: () throws(Problem) -> Void) throws {
    do {
        try check()
    } catch {
        throw ValidationError(error.description)
    }
}
