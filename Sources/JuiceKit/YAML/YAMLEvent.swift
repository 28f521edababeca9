/// One libyaml parse event, converted to Swift values with 1-based positions.
///
/// This is the boundary: nothing past it knows libyaml exists.
enum YAMLEvent {
    case streamStart
    case streamEnd
    case documentStart(SourcePosition)
    case documentEnd(SourcePosition)
    case alias(anchor: String, start: SourcePosition, end: SourcePosition)
    case scalar(ScalarEvent)
    case sequenceStart(anchor: String?, tag: String?, flow: Bool, start: SourcePosition)
    case sequenceEnd(SourcePosition)
    case mappingStart(anchor: String?, tag: String?, flow: Bool, start: SourcePosition)
    case mappingEnd(SourcePosition)
}

struct ScalarEvent {
    /// Empty when the scalar is longer than `YAMLLimits.maxScalarBytes`: the
    /// composer rejects it, so it is never copied into a Swift string.
    var value: String
    /// The scalar's length in UTF-8 bytes, as libyaml read it.
    var byteCount: Int
    var anchor: String?
    var tag: String?
    var style: YAMLNode.ScalarStyle
    var start: SourcePosition
    var end: SourcePosition
}

/// libyaml gave up on the input: the text is not YAML, or not valid text at all.
struct YAMLSyntaxError: Error {
    var message: String
    var position: SourcePosition
    var context: String?
    var contextPosition: SourcePosition?
}
