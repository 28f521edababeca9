/// What whole decimal digits say: the one reader of numbers that people
/// type, used by the book's amounts, order scripts, the counter's stock
/// editor and `--mix`.
///
/// The reading is strict, so that a number means the same to every YAML
/// reader and every tool: ASCII digits only, an optional leading `-` reported
/// as negative, no `+`, no `_`, and no leading zero (YAML 1.1 reads `010` as
/// octal 8). Each caller decides what to accept and says why it refuses in its
/// own words; `leadingZero` carries the decimal value for callers that allow
/// padding (the stock editor) and for the help that suggests the plain form.
/// Arithmetic is overflow-checked: too many digits is `tooLarge`, never a trap.
public enum WholeNumber: Equatable, Sendable {
    /// Plain digits, no leading zero (`0` itself is plain).
    case value(Int)
    /// `-` and digits that are not all zero.
    case negative
    /// Digits with a leading zero: their decimal value, or nil when it does
    /// not fit in an `Int`.
    case leadingZero(Int?)
    /// Plain digits whose value does not fit in an `Int`.
    case tooLarge
    /// Anything else: empty, a sign alone, `+`, `_`, `.`, an exponent, a
    /// non-ASCII digit, or `-0`.
    case notANumber

    /// Reads UTF-8 bytes; see the type's summary.
    public init(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let first = bytes.first else {
            self = .notANumber
            return
        }
        if first == UInt8(ascii: "-") {
            // A sign is only ever refused, so its value is not needed: all
            // zeros (`-0`) is not a number, anything else is negative.
            let digits = UnsafeBufferPointer(rebasing: bytes[1...])
            guard !digits.isEmpty, digits.allSatisfy(Self.isDigit) else {
                self = .notANumber
                return
            }
            self = digits.contains(where: { $0 != UInt8(ascii: "0") }) ? .negative : .notANumber
            return
        }
        guard let value = Self.decimalValue(bytes) else {
            self = bytes.allSatisfy(Self.isDigit) ? (first == UInt8(ascii: "0") ? .leadingZero(nil) : .tooLarge) : .notANumber
            return
        }
        self = bytes.count > 1 && first == UInt8(ascii: "0") ? .leadingZero(value) : .value(value)
    }

    /// Reads `text`'s UTF-8 in place where it is contiguous (native strings
    /// are), copying it otherwise.
    public init(_ text: some StringProtocol) {
        if let reading = text.utf8.withContiguousStorageIfAvailable({ WholeNumber(utf8: $0) }) {
            self = reading
        } else {
            self = Array(text.utf8).withUnsafeBufferPointer { WholeNumber(utf8: $0) }
        }
    }

    /// The decimal value of plain digits, leading zeros allowed, for callers
    /// that accept padding such as `+007`; nil for anything else.
    public var paddedValue: Int? {
        switch self {
        case .value(let value): value
        case .leadingZero(let value): value
        case .negative, .tooLarge, .notANumber: nil
        }
    }

    /// ASCII digits (at least one, leading zeros allowed) as an `Int`; nil
    /// for any other byte or when the value does not fit.
    static func decimalValue(_ digits: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard isDigit(byte) else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte &- UInt8(ascii: "0")))
            if overflow1 || overflow2 { return nil }
            value = sum
        }
        return value
    }

    package static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}

extension WholeNumber {
    /// The value of one to eight hexadecimal digits, either case, as JSON's
    /// `\u` escapes and URIs' `%` escapes write them; nil for anything else.
    /// Digits only: `UInt16(_:radix:)` would also take a sign (`\u+041`).
    package static func hexadecimal(_ digits: some Collection<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 8 else { return nil }
        var value = 0
        for byte in digits {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | Int(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = value << 4 | Int(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
        return value
    }
}
