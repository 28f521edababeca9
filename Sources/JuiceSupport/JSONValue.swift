/// A JSON document read from outside, such as a language-server message.
///
/// The tools write their own reports through `JSONWriter`, which keeps keys in
/// the order given; this type is for what they read, where the shape is not
/// known until it is looked at. Objects keep their members in the order
/// written, so a value read and written again is the same text, and a
/// repeated key is found by its first occurrence.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number with no fraction or exponent that fits in `Int`.
    case int(Int)
    /// Any other number.
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// The member `key` of an object (the first, if repeated), or nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The string, if this is one.
    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The whole number, if this is one (`3.0` is not: JSON-RPC ids and LSP
    /// positions are integers).
    public var int: Int? {
        if case .int(let number) = self { return number }
        return nil
    }

    /// The flag, if this is one.
    public var bool: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The elements, if this is an array.
    public var array: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// Whether this is an object.
    public var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    /// An object from members in order; nil values are left out, which is
    /// how LSP writes an optional field that has no value.
    public static func object(_ members: KeyValuePairs<String, JSONValue?>) -> JSONValue {
        .object(members.compactMap { member in member.value.map { (member.key, $0) } })
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let flag): hasher.combine(flag)
        case .int(let number): hasher.combine(number)
        case .double(let number): hasher.combine(number)
        case .string(let text): hasher.combine(text)
        case .array(let elements): hasher.combine(elements)
        case .object(let members):
            hasher.combine(members.count)
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        }
    }
}

extension JSONValue {
    /// The value as compact JSON text, members in order, strings escaped as
    /// `JSONWriter` escapes them.
    ///
    /// Written with an explicit stack rather than by recursion: values built
    /// by the server are shallow, but this must not depend on that.
    public var serialized: String {
        var output = ""
        append(to: &output)
        return output
    }

    /// Appends the value's JSON text to `output`.
    public func append(to output: inout String) {
        enum Step {
            case value(JSONValue)
            case text(String)
            case key(String)
        }
        var steps: [Step] = [.value(self)]
        while let step = steps.popLast() {
            switch step {
            case .text(let text):
                output += text
            case .key(let key):
                JSONWriter.appendString(key, to: &output)
                output += ":"
            case .value(let value):
                switch value {
                case .null: output += "null"
                case .bool(let flag): output += flag ? "true" : "false"
                case .int(let number): output += String(number)
                case .double(let number):
                    // JSON has no NaN or infinity; the server never makes them.
                    output += number.isFinite ? String(number) : "null"
                case .string(let text): JSONWriter.appendString(text, to: &output)
                case .array(let elements):
                    output += "["
                    steps.append(.text("]"))
                    for (index, element) in elements.enumerated().reversed() {
                        steps.append(.value(element))
                        if index > 0 { steps.append(.text(",")) }
                    }
                case .object(let members):
                    output += "{"
                    steps.append(.text("}"))
                    for (index, member) in members.enumerated().reversed() {
                        steps.append(.value(member.value))
                        steps.append(.key(member.key))
                        if index > 0 { steps.append(.text(",")) }
                    }
                }
            }
        }
    }
}
