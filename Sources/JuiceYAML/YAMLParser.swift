import JuiceSource
internal import CYAML

/// Runs libyaml's event parser over a file's bytes and hands each event to a
/// `YAMLEventHandler`.
///
/// libyaml is kept behind this one type: its parser is created and deleted
/// within `parse`, and every event is deleted as soon as it has been handed on.
package enum YAMLParser {
    /// Parses `bytes` to the end of the stream, or until the handler says stop.
    ///
    /// The bytes are borrowed for the call, not copied: libyaml reads its
    /// input lazily, but only while events are pulled, which is all inside.
    @discardableResult
    package static func parse(_ bytes: [UInt8], into handler: inout some YAMLEventHandler) throws(YAMLSyntaxError) -> SourcePosition? {
        try parse(bytes[...], firstLine: 1, into: &handler)
    }

    /// Parses a piece of a file that starts at the beginning of line
    /// `firstLine`, so every position is the one it has in the whole file.
    /// Returns where libyaml's stream ended (nil when the handler stopped
    /// early): a caller that cut the piece out checks the line there against
    /// the line breaks it counted, since libyaml also breaks lines at a lone
    /// CR and at U+0085, U+2028 and U+2029.
    @discardableResult
    package static func parse(
        _ bytes: ArraySlice<UInt8>, firstLine: Int, into handler: inout some YAMLEventHandler
    ) throws(YAMLSyntaxError) -> SourcePosition? {
        // libyaml asserts a non-null input even when it is empty.
        let input = bytes.isEmpty ? [0][...] : bytes
        let lineOffset = firstLine - 1
        let outcome: Result<SourcePosition?, YAMLSyntaxError> = input.withUnsafeBufferPointer { buffer in
            // Heap-allocated because libyaml keeps a pointer to the parser
            // inside the parser (`read_handler_data`): it must never move.
            let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
            parser.initialize(to: yaml_parser_t())
            defer { parser.deallocate() }
            guard yaml_parser_initialize(parser) == 1 else {
                return .failure(YAMLSyntaxError(message: "out of memory starting the YAML parser", position: .init(line: firstLine, column: 1)))
            }
            defer { yaml_parser_delete(parser) }
            yaml_parser_set_input_string(parser, buffer.baseAddress, bytes.count)
            let text = UnsafeBufferPointer(rebasing: buffer[0..<bytes.count])
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(parser, &event) == 1 else { return .failure(error(parser, text, lineOffset: lineOffset)) }
                let type = event.type
                if type == YAML_NO_EVENT {
                    // Only after an error, which is handled above.
                    return .failure(YAMLSyntaxError(
                        message: "unexpected end of YAML events", position: position(event.start_mark, lineOffset: lineOffset)
                    ))
                }
                let proceed = dispatch(&event, lineOffset: lineOffset, to: &handler)
                let end = type == YAML_STREAM_END_EVENT ? position(event.end_mark, lineOffset: lineOffset) : nil
                yaml_event_delete(&event)
                if !proceed || end != nil { return .success(end) }
            }
        }
        return try outcome.get()
    }

    /// Hands one event on; false when the handler says stop.
    private static func dispatch(_ event: inout yaml_event_t, lineOffset: Int, to handler: inout some YAMLEventHandler) -> Bool {
        let start = position(event.start_mark, lineOffset: lineOffset)
        let end = position(event.end_mark, lineOffset: lineOffset)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            return handler.documentStart(start)
        case YAML_DOCUMENT_END_EVENT:
            return handler.documentEnd(end)
        case YAML_ALIAS_EVENT:
            return handler.alias(string(event.data.alias.anchor) ?? "", start: start, end: end)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let text = UnsafeBufferPointer(start: UnsafePointer(scalar.value), count: scalar.value == nil ? 0 : scalar.length)
            return handler.scalar(
                text, anchor: string(scalar.anchor), tag: string(scalar.tag),
                style: style(scalar.style), start: start, end: end
            )
        case YAML_SEQUENCE_START_EVENT:
            let sequence = event.data.sequence_start
            return handler.collectionStart(
                .sequence, anchor: string(sequence.anchor), tag: string(sequence.tag),
                flow: sequence.style == YAML_FLOW_SEQUENCE_STYLE, start: start
            )
        case YAML_MAPPING_START_EVENT:
            let mapping = event.data.mapping_start
            return handler.collectionStart(
                .mapping, anchor: string(mapping.anchor), tag: string(mapping.tag),
                flow: mapping.style == YAML_FLOW_MAPPING_STYLE, start: start
            )
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            return handler.collectionEnd(end)
        default:
            // Stream start and end carry nothing a handler needs.
            return true
        }
    }

    private static func error(
        _ parser: UnsafeMutablePointer<yaml_parser_t>, _ text: UnsafeBufferPointer<UInt8>, lineOffset: Int
    ) -> YAMLSyntaxError {
        let problem = string(parser.pointee.problem) ?? "invalid YAML"
        let context = string(parser.pointee.context)
        // Reader errors (bad bytes) carry a byte offset rather than a mark.
        if parser.pointee.error == YAML_READER_ERROR {
            let offset = min(Int(parser.pointee.problem_offset), text.count)
            var position = SourcePosition.of(byteOffset: offset, in: text)
            position.line += lineOffset
            let value = Int(parser.pointee.problem_value)
            let detail: String
            if value < 0 {
                detail = ""
            } else if problem.contains("octet") {
                detail = " (byte 0x" + hex(value, digits: 2) + ")"
            } else {
                detail = " (U+" + hex(value, digits: 4) + ")"
            }
            return YAMLSyntaxError(message: problem + detail, position: position)
        }
        return YAMLSyntaxError(
            message: problem,
            position: position(parser.pointee.problem_mark, lineOffset: lineOffset),
            context: context,
            contextPosition: context == nil ? nil : position(parser.pointee.context_mark, lineOffset: lineOffset)
        )
    }

    private static func hex(_ value: Int, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// The single place a 0-based libyaml mark becomes a 1-based position;
    /// `lineOffset` is the number of lines before the piece that was parsed.
    private static func position(_ mark: yaml_mark_t, lineOffset: Int) -> SourcePosition {
        SourcePosition(line: Int(mark.line) + 1 + lineOffset, column: Int(mark.column) + 1)
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
