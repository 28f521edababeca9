import JuiceSource
/// What `YAMLParser` calls for each libyaml event, converted to Swift values
/// with 1-based positions.
///
/// This is the boundary: nothing past it knows libyaml exists. Events are
/// method calls rather than values of an enum, so a scalar's text is lent
/// to the handler in place rather than copied out of an event.
/// Each method returns whether to go on reading.
package protocol YAMLEventHandler {
    mutating func documentStart(_ start: SourcePosition) -> Bool
    mutating func documentEnd(_ end: SourcePosition) -> Bool
    mutating func alias(_ anchor: String, start: SourcePosition, end: SourcePosition) -> Bool
    /// `text` is the scalar's UTF-8, lent for the call only: a handler
    /// copies what it keeps. (libyaml checked the whole input is valid UTF-8.)
    mutating func scalar(
        _ text: UnsafeBufferPointer<UInt8>, anchor: String?, tag: String?, style: YAMLNode.ScalarStyle,
        start: SourcePosition, end: SourcePosition
    ) -> Bool
    mutating func collectionStart(
        _ kind: YAMLNode.Kind, anchor: String?, tag: String?, flow: Bool, start: SourcePosition
    ) -> Bool
    mutating func collectionEnd(_ end: SourcePosition) -> Bool
}

/// libyaml gave up on the input: the text is not YAML, or not valid text at all.
package struct YAMLSyntaxError: Error {
    var message: String
    package var position: SourcePosition
    var context: String?
    var contextPosition: SourcePosition?
}
