extension SARIFDiagnosticPrinter {
    /// The `partialFingerprints` key every result carries. SARIF asks for a
    /// versioned name; the version changes only if the value's recipe does,
    /// since a changed value reads to GitHub as a new alert.
    ///
    /// Not `primaryLocationLineHash`: GitHub's upload action computes that one
    /// itself from the line's text and warns when a log's own value differs.
    public static let fingerprintKey = "juiceLint/v1"

    /// Hands out each result's fingerprint, in output order.
    ///
    /// A fingerprint names the problem, not where it stands: the rule, the
    /// file as the log names it (relative to the base path, so a checkout
    /// anywhere gives the same value) and the message, which quotes the id or
    /// value at fault (`unknown fruit 'mangoo'`). No line or column goes in,
    /// so an edit that only moves lines keeps every alert. The help text stays
    /// out too: a did-you-mean changes when the book gains a name, the
    /// problem does not.
    ///
    /// The value is `HASH:N`, as in GitHub's own line hashes: HASH is 16 hex
    /// digits of FNV-1a (64-bit) over those texts, and N counts the results
    /// with the same HASH so far, from 1, so two identical problems in one
    /// file stay two alerts. Results come sorted by file and position, so N
    /// is the same in every run. A cap (`DiagnosticLimit`) does not shift N:
    /// results with one HASH share a rule and so a severity, and the cap
    /// keeps the first ones of a severity.
    struct Fingerprints {
        private var seen: [UInt64: Int] = [:]

        /// The fingerprint of the next result, in output order.
        mutating func next(rule: Rule, path: String, message: String) -> String {
            let hash = SARIFDiagnosticPrinter.fingerprintHash(rule: rule, path: path, message: message)
            let occurrence = (seen[hash] ?? 0) + 1
            seen[hash] = occurrence
            return SARIFDiagnosticPrinter.hex(hash) + ":" + String(occurrence)
        }
    }

    /// FNV-1a over the rule id, the path and the message, each followed by a
    /// 0xFF byte (never part of UTF-8 text), so no two splits of the same
    /// bytes collide. A position a message quotes (`file:3:5`) loses its
    /// digits: the digits straight after a `:` are skipped.
    static func fingerprintHash(rule: Rule, path: String, message: String) -> UInt64 {
        var hash = StableHash()
        hash.add(rule.id.utf8)
        hash.add(0xFF)
        hash.add(path.utf8)
        hash.add(0xFF)
        var afterColon = false
        for byte in message.utf8 {
            let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            if afterColon && isDigit { continue }
            afterColon = byte == UInt8(ascii: ":")
            hash.add(byte)
        }
        hash.add(0xFF)
        return hash.value
    }

    /// 16 lowercase hex digits.
    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// 64-bit FNV-1a, for values that are written down and compared across runs
/// and machines (Swift's `Hasher` is seeded per process). Its own type rather
/// than `NameTable.utf8Hash`, which is free to change for speed: a
/// fingerprint's recipe must not, and `SARIFFingerprintTests` pins it to the
/// published test vectors.
struct StableHash {
    /// The hash of everything added so far.
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Adds one byte.
    package mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    /// Adds bytes in order.
    package mutating func add<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        for byte in bytes { add(byte) }
    }
}
