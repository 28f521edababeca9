internal import CYAML

/// Owns one `yaml_parser_t` and the bytes it reads, and hands out events.
///
/// libyaml is kept behind this one type: every allocation it makes is released in
/// `deinit`, and every event is deleted as soon as it has been converted.
final class YAMLParser {
    /// Heap-allocated because libyaml keeps a pointer to the parser inside the
    /// parser (`read_handler_data`): it must never move, which `&property` does
    /// not promise.
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private var failed = false

    /// Copies `bytes`, because libyaml reads its input lazily while events are pulled.
    init(bytes: [UInt8]) throws(YAMLSyntaxError) {
        buffer = .allocate(capacity: max(bytes.count, 1))
        _ = buffer.initialize(from: bytes)
        parser = .allocate(capacity: 1)
        parser.initialize(to: yaml_parser_t())
        guard yaml_parser_initialize(parser) == 1 else {
            parser.deallocate()
            buffer.deallocate()
            throw YAMLSyntaxError(message: "out of memory starting the YAML parser", position: .init(line: 1, column: 1))
        }
        yaml_parser_set_input_string(parser, buffer.baseAddress, bytes.count)
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
        buffer.deallocate()
    }

    /// The next event, or the syntax error that ends the stream.
    func next() throws(YAMLSyntaxError) -> YAMLEvent {
        if failed { throw error() }
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else {
            failed = true
            throw error()
        }
        defer { yaml_event_delete(&event) }
        let start = Self.position(event.start_mark)
        let end = Self.position(event.end_mark)
        switch event.type {
        case YAML_STREAM_START_EVENT:
            return .streamStart
        case YAML_STREAM_END_EVENT:
            return .streamEnd
        case YAML_DOCUMENT_START_EVENT:
            return .documentStart(start)
        case YAML_DOCUMENT_END_EVENT:
            return .documentEnd(end)
        case YAML_ALIAS_EVENT:
            return .alias(anchor: Self.string(event.data.alias.anchor) ?? "", start: start, end: end)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let value = scalar.length > YAMLLimits.maxScalarBytes ? "" : scalar.value.map {
                String(decoding: UnsafeBufferPointer(start: $0, count: scalar.length), as: UTF8.self)
            } ?? ""
            return .scalar(ScalarEvent(
                value: value,
                byteCount: scalar.length,
                anchor: Self.string(scalar.anchor),
                tag: Self.string(scalar.tag),
                style: Self.style(scalar.style),
                start: start,
                end: end
            ))
        case YAML_SEQUENCE_START_EVENT:
            let seq = event.data.sequence_start
            return .sequenceStart(
                anchor: Self.string(seq.anchor), tag: Self.string(seq.tag),
                flow: seq.style == YAML_FLOW_SEQUENCE_STYLE, start: start
            )
        case YAML_SEQUENCE_END_EVENT:
            return .sequenceEnd(end)
        case YAML_MAPPING_START_EVENT:
            let map = event.data.mapping_start
            return .mappingStart(
                anchor: Self.string(map.anchor), tag: Self.string(map.tag),
                flow: map.style == YAML_FLOW_MAPPING_STYLE, start: start
            )
        case YAML_MAPPING_END_EVENT:
            return .mappingEnd(end)
        default:
            // YAML_NO_EVENT only appears after an error, which is handled above.
            failed = true
            throw YAMLSyntaxError(message: "unexpected end of YAML events", position: start)
        }
    }

    private func error() -> YAMLSyntaxError {
        let problem = Self.string(parser.pointee.problem) ?? "invalid YAML"
        let context = Self.string(parser.pointee.context)
        // Reader errors (bad bytes) carry a byte offset rather than a mark.
        if parser.pointee.error == YAML_READER_ERROR {
            let offset = min(Int(parser.pointee.problem_offset), buffer.count)
            let position = SourcePosition.of(byteOffset: offset, in: UnsafeBufferPointer(buffer))
            let value = Int(parser.pointee.problem_value)
            let detail: String
            if value < 0 {
                detail = ""
            } else if problem.contains("octet") {
                detail = " (byte 0x" + Self.hex(value, digits: 2) + ")"
            } else {
                detail = " (U+" + Self.hex(value, digits: 4) + ")"
            }
            return YAMLSyntaxError(message: problem + detail, position: position)
        }
        return YAMLSyntaxError(
            message: problem,
            position: Self.position(parser.pointee.problem_mark),
            context: context,
            contextPosition: context == nil ? nil : Self.position(parser.pointee.context_mark)
        )
    }

    private static func hex(_ value: Int, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// The single place a 0-based libyaml mark becomes a 1-based position.
    private static func position(_ mark: yaml_mark_t) -> SourcePosition {
        SourcePosition(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    private static func style(_ style: yaml_scalar_style_t) -> YAMLNode.ScalarStyle {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: return .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: return .literal
        case YAML_FOLDED_SCALAR_STYLE: return .folded
        default: return .plain
        }
    }
}
