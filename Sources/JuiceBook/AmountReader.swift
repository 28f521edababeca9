@_spi(Internals) import JuiceSupport
import JuiceDiagnostics
@_spi(Internals) import JuiceYAML
/// Reads amounts: whole decimal numbers written plainly, nothing YAML would
/// read as anything else.
enum AmountReader {
    static let intTag = "tag:yaml.org,2002:int"

    /// The amount in `node`, or nil after reporting why it is not one.
    /// `removing` names what the help may tell to remove instead of writing
    /// at least 1: an ingredient, or a substitute.
    static func read(
        _ document: YAMLDocument, _ value: YAMLNode.ID, allowZero: Bool, what describe: @autoclosure () -> String,
        removing item: String = "ingredient", into diagnostics: inout [Diagnostic]
    ) -> Int? {
        let node = document[value]
        // The fast path, a plain untagged number, builds no message text at all.
        if node.kind == .scalar, node.style == .plain, !node.hasTag,
           case .value(let number) = document.withText(of: value, { WholeNumber(utf8: $0) }), number > 0 || allowZero {
            return number
        }
        let what = describe()
        let range = document.range(of: value)
        func fail(_ rule: Rule, _ message: String, _ help: String?, fixes: [Fix] = []) -> Int? {
            diagnostics.append(Diagnostic(rule, at: range, message, help: help, fixes: fixes))
            return nil
        }
        /// Rewrites the scalar as `number`, where that is a valid amount here.
        func plain(_ number: Int?) -> [Fix] {
            guard let number, number > 0 || allowZero else { return [] }
            return [Fix(title: "write \(number)", edits: [TextEdit(range: range, replacement: String(number))])]
        }
        let minimum = allowZero ? "0" : "1"
        guard node.kind == .scalar else {
            return fail(.invalidType, "\(what) must be a whole number, found \(node.kindDescription)", nil)
        }
        if node.isNull {
            return fail(.invalidAmount, "\(what) is missing", "write a whole number of at least \(minimum)")
        }
        let shown = document.text(of: value)
        if let tag = document.tag(of: value), tag != intTag {
            return fail(.invalidAmount, "\(what) is tagged '\(tag)', not a whole number", "remove the tag")
        }
        let parsed = WholeNumber(shown)
        // Help never suggests a value this place rejects: following it must
        // give a valid book, so a recipe is never told to write 0.
        let zeroHelp = "use at least 1, or remove the \(item)"
        if !node.hasTag && node.style != .plain {
            let help: String? = switch parsed {
            case .value(let number) where number > 0 || allowZero: "remove the quotes: \(number)"
            case .value: "use at least 1, written without quotes, or remove the \(item)"
            default: nil
            }
            return fail(.invalidAmount, "\(what) is quoted text '\(shown)', not a number", help ?? "write a whole number without quotes")
        }
        switch parsed {
        case .value(0) where !allowZero:
            return fail(.zeroAmount, "\(what) is 0", zeroHelp)
        case .value(let number):
            return number
        case .negative:
            return fail(.negativeAmount, "\(what) is negative: '\(shown)'", "use a whole number of at least \(minimum)")
        case .leadingZero(let decimal):
            // What the digits are without the zeros decides the report: a
            // zero is a zero amount, too many digits is too large. The fix
            // reads them as decimal, as the help does: people pad amounts
            // (`007`, `010`) and do not write octal in a recipe, and YAML 1.2
            // reads them as decimal too.
            switch decimal {
            case 0? where !allowZero:
                return fail(.zeroAmount, "\(what) is '\(shown)', which is 0", zeroHelp)
            case let number?:
                return fail(.invalidAmount, "\(what) is '\(shown)', with a leading zero that YAML 1.1 reads as octal",
                            "write \(number)", fixes: plain(number))
            case nil:
                return fail(.invalidAmount, "\(what) is '\(shown)', which is too large", "the largest amount is \(Int.max)")
            }
        case .tooLarge:
            return fail(.invalidAmount, "\(what) is '\(shown)', which is too large", "the largest amount is \(Int.max)")
        case .notANumber:
            return fail(.invalidAmount, "\(what) is '\(shown)', not a whole number",
                        "write a whole decimal number of at least \(minimum), with no sign, '_', '.' or exponent",
                        fixes: plain(Self.spelledDecimal(shown)))
        }
    }

    /// The number meant by a decimal spelt in a way YAML 1.1 also reads as
    /// that number but this reader does not take: `+` before plain digits
    /// (`+3`), or `_` between groups of digits (`1_000`). Nil for anything
    /// else, including a leading zero after either (`+07`, `0_7`: octal or
    /// decimal, the intent is not clear), so a fix is only offered when
    /// there is one reading.
    static func spelledDecimal(_ text: String) -> Int? {
        var bytes = Array(text.utf8)
        if bytes.first == UInt8(ascii: "+") {
            bytes.removeFirst()
        } else {
            // `_` only between digits: not first, not last, never two together.
            var previousWasDigit = false
            var sawUnderscore = false
            for byte in bytes {
                if byte == UInt8(ascii: "_") {
                    guard previousWasDigit else { return nil }
                    sawUnderscore = true
                    previousWasDigit = false
                } else {
                    previousWasDigit = WholeNumber.isDigit(byte)
                }
            }
            guard sawUnderscore, previousWasDigit else { return nil }
            bytes.removeAll { $0 == UInt8(ascii: "_") }
        }
        guard case .value(let number) = bytes.withUnsafeBufferPointer({ WholeNumber(utf8: $0) }) else { return nil }
        return number
    }
}
