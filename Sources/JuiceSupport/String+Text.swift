extension String {
    /// The text with control and format characters written as `\u{a}`, so a
    /// name taken from input can never break a one-line `file:line:col:` message
    /// or smuggle terminal escapes into a report.
    public var escapingControlCharacters: String {
        // Printable ASCII, the usual case, needs no Unicode property lookups;
        // the bytes are scanned in place: through the view's iterator the
        // scan was 7% of a text run with 200,000 diagnostics (perf).
        func printable(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F }
        if utf8.withContiguousStorageIfAvailable(Self.allPrintableASCII) ?? utf8.allSatisfy(printable) { return self }
        guard unicodeScalars.contains(where: Self.needsEscape) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            if Self.needsEscape(scalar) {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether every byte is printable ASCII (0x20 to 0x7E), from the least
    /// and greatest byte: with no early exit the compiler checks many bytes
    /// at once, where stopping at the first bad byte cost six instructions a
    /// byte, and every diagnostic's message and help pass through here
    /// (callgrind).
    private static func allPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var least = UInt8.max
        var greatest = UInt8.min
        for byte in bytes {
            least = Swift.min(least, byte)
            greatest = Swift.max(greatest, byte)
        }
        return least >= 0x20 && greatest < 0x7F
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        // Labels are mostly Latin letters, Hangul, kana, CJK ideographs and
        // emoji, none of them control or format characters. The property
        // lookup was a third of relinking a 100,000-item book with Korean
        // labels (perf, the language server's edit benchmark), so those
        // blocks skip it.
        switch scalar.value {
        case 0xC0..<0x250, 0x3041..<0x3100, 0x4E00..<0xA000, 0xAC00..<0xD7A4, 0x1F300..<0x1FB00: return false
        default: break
        }
        let category = scalar.properties.generalCategory
        return category == .control || category == .format
    }
}

extension String {
    /// The three pieces one after another, made in one allocation of the
    /// exact size: a message quoting a name, such as `fruit 'kiwi' is not
    /// used by any menu item`, when a check makes one per fruit.
    ///
    /// Interpolating the name grew each such string twice on its way:
    /// making the messages of 200,000 diagnostics so took a tenth of a text
    /// run's instructions (callgrind, 2.26G to 2.03G). Appending to a string
    /// with the capacity reserved was slower still.
    package init(_ first: String, _ second: String, _ third: String) {
        let count = first.utf8.count + second.utf8.count + third.utf8.count
        self.init(unsafeUninitializedCapacity: count) { buffer in
            var (first, second, third) = (first, second, third)
            let one = first.withUTF8 { UnsafeMutableBufferPointer(rebasing: buffer[0...]).initialize(fromContentsOf: $0) }
            let two = second.withUTF8 { UnsafeMutableBufferPointer(rebasing: buffer[one...]).initialize(fromContentsOf: $0) }
            let three = third.withUTF8 { UnsafeMutableBufferPointer(rebasing: buffer[(one + two)...]).initialize(fromContentsOf: $0) }
            return one + two + three
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, for hand-typed values
    /// such as `--rule a = b` or `--mix a = 2`.
    package var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
