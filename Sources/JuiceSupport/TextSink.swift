/// Where rendered text goes, a piece at a time.
///
/// A report of 200,000 diagnostics is 50 MB of JSON. Written to standard
/// output in blocks as it is rendered, it never has to be in memory whole;
/// built first as bytes and then as a `String`, it was held twice, and that
/// was most of the run's peak memory. `OutputBuffer` is the sink the tools
/// use (its writes are checked, and the first failure is kept for
/// `finish()`); `CollectedText` keeps everything, for a caller that wants
/// the text itself.
public protocol TextSink {
    /// Appends UTF-8 bytes.
    mutating func write(utf8 bytes: [UInt8])
    /// Appends text as it is, with no newline.
    mutating func write(_ text: String)
    /// True once a write has failed: nothing written after it arrives, so a
    /// long render can stop.
    var hasFailed: Bool { get }
}

extension TextSink {
    /// Writes each element as `text` renders it, with `separator` between
    /// them, then `trailer` (an omission notice) as one more part when there
    /// is one; stops early once a write has failed. The printers that write
    /// one part per diagnostic share this.
    package mutating func write<Element>(
        _ elements: [Element], separator: String, trailer: String? = nil, _ text: (Element) -> String
    ) {
        var first = true
        func part(_ string: String) {
            if !first { write(separator) }
            first = false
            write(string)
        }
        for element in elements {
            if hasFailed { return }
            part(text(element))
        }
        if let trailer { part(trailer) }
    }
}

/// A sink that keeps every byte: the rendered text, whole.
public struct CollectedText: TextSink, Sendable {
    /// Everything written, as UTF-8.
    public private(set) var bytes: [UInt8] = []

    /// Nothing written yet.
    public init() {}

    /// The text written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func write(utf8 bytes: [UInt8]) { self.bytes.append(contentsOf: bytes) }
    public mutating func write(_ text: String) { bytes.append(contentsOf: text.utf8) }
    /// Memory does not fail.
    public var hasFailed: Bool { false }
}

/// Counts what passes through to another sink, for a caller that ends
/// non-empty output with a newline and writes nothing for empty output.
public struct CountingSink<Base: TextSink>: TextSink {
    /// Where the writes go.
    public var base: Base
    /// Bytes written through so far.
    public private(set) var count = 0

    /// Passes writes on to `base`.
    public init(_ base: Base) {
        self.base = base
    }

    public mutating func write(utf8 bytes: [UInt8]) {
        count += bytes.count
        base.write(utf8: bytes)
    }

    public mutating func write(_ text: String) {
        count += text.utf8.count
        base.write(text)
    }

    public var hasFailed: Bool { base.hasFailed }
}

extension OutputBuffer: TextSink {
    /// Appends UTF-8 bytes, flushing once a block is full.
    public func write(utf8 bytes: [UInt8]) {
        append(bytes, bytes.indices)
        flushIfFull()
    }
}
