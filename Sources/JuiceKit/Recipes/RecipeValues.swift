/// The rules for ids and amounts, shared by the compiler and the order script.
public enum RecipeValues {
    /// Words the order script uses as commands, so no id may take them.
    public static let reservedIDs: Set<String> = ["restock", "set", "stock"]

    /// Why `id` cannot name a fruit, recipe or menu item, or nil when it can.
    public static func problem(withID id: String) -> String? {
        if id.isEmpty { return "an id cannot be empty" }
        // Nearly every id is printable ASCII; only the rest needs Unicode properties.
        if id.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "#") }) {
            return isReserved(id) ? "'\(id)' is reserved for order-script commands" : nil
        }
        for scalar in id.unicodeScalars {
            if scalar.properties.isWhitespace { return "id '\(id)' contains whitespace" }
            if scalar == "#" { return "id '\(id)' contains '#', which starts a comment in order scripts" }
            if scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format {
                return "id '\(id)' contains a control character"
            }
        }
        if isReserved(id) { return "'\(id)' is reserved for order-script commands" }
        return nil
    }

    /// What to do about an id `problem(withID:)` rejects: advice that fits
    /// the problem, since an empty id is no word to shorten and a reserved
    /// one is a word already.
    public static func help(forInvalidID id: String) -> String {
        if id.isEmpty { return "an id needs at least one character: give it a name such as 'mango', or remove it" }
        if isReserved(id) { return "choose another id" }
        return "ids are single words such as 'mango' or 'mango-juice'"
    }

    /// `reservedIDs.contains(id)` without hashing: every id of a book is
    /// checked, and comparing short strings is cheaper than hashing them.
    static func isReserved(_ id: String) -> Bool {
        id == "restock" || id == "set" || id == "stock"
    }

    /// The outcome of reading whole decimal digits.
    public enum WholeNumber: Equatable, Sendable {
        case value(Int)
        case negative
        case leadingZero
        case tooLarge
        case notANumber
    }

    /// Reads `text` as a whole decimal number: digits only, an optional leading
    /// `-` reported as negative, no `+`, no `_`, no leading zero.
    public static func wholeNumber(_ text: Substring.UTF8View) -> WholeNumber {
        var digits = text[...]
        var negative = false
        if digits.first == UInt8(ascii: "-") {
            negative = true
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return .notANumber
        }
        if negative { return digits.contains(where: { $0 != UInt8(ascii: "0") }) ? .negative : .notANumber }
        if digits.count > 1 && digits.first == UInt8(ascii: "0") { return .leadingZero }
        var value = 0
        for digit in digits {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
            if overflow1 || overflow2 { return .tooLarge }
            value = sum
        }
        return .value(value)
    }

    /// Reads `text` as a whole decimal number; see the other overload.
    ///
    /// Every amount of a book comes through here, so the bytes are read in
    /// place rather than through the generic view.
    public static func wholeNumber(_ text: String) -> WholeNumber {
        var contiguous = text
        let quick: WholeNumber? = contiguous.withUTF8 { bytes in
            // Signs and long numbers (which may overflow) take the general path.
            guard let first = bytes.first, first != UInt8(ascii: "-"), bytes.count <= 18 else { return nil }
            if bytes.count > 1 && first == UInt8(ascii: "0") {
                return bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) ? .leadingZero : .notANumber
            }
            // At most 18 digits: no overflow is possible.
            var value = 0
            for byte in bytes {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return .notANumber }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return .value(value)
        }
        return quick ?? wholeNumber(text[...].utf8)
    }
}
