/// How many terminal columns text takes, so a caret can sit under the
/// character a diagnostic points at.
///
/// Diagnostic columns count Unicode scalars, but a terminal gives a Hangul
/// syllable, a CJK ideograph or an emoji two cells and a combining mark none.
/// Without this, a `^` after `망고:` would land two cells short.
///
/// The rules follow what `wcwidth` and common terminals do, kept deliberately
/// small: East Asian Wide and Fullwidth characters and emoji-presentation
/// scalars are 2; combining marks, format characters (zero-width joiner, word
/// joiner, byte-order mark) and conjoining Hangul vowels and finals are 0;
/// everything else is 1. A grapheme cluster counts at most 2, so an emoji
/// ZWJ sequence, a skin-tone modifier or a flag stays one glyph wide, and a
/// text-style emoji followed by U+FE0F (emoji presentation) counts 2.
package enum DisplayWidth {
    /// The cells one scalar takes on its own: 0, 1 or 2.
    package static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return 0
        default:
            break
        }
        // Conjoining Hangul medial vowels and final consonants join the initial
        // consonant before them into one syllable cell.
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        if wideRanges.contains(where: { $0.contains(value) }) { return 2 }
        return 1
    }

    /// The cells one grapheme cluster takes: the sum of its scalars, at most 2.
    package static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        if let first = scalars.first, first.properties.isEmoji, scalars.contains("\u{FE0F}") {
            return 2
        }
        return min(2, scalars.reduce(0) { $0 + of($1) })
    }

    /// The cells a run of text takes, cluster by cluster.
    package static func of<Text: StringProtocol>(_ text: Text) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// East Asian Wide (W) and Fullwidth (F) blocks that are not emoji; emoji
    /// are found through `isEmojiPresentation` instead, which stays current
    /// with the Unicode tables Swift ships.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,   // Hangul Jamo initial consonants
        0x2329...0x232A,   // angle brackets
        0x2E80...0x303E,   // CJK radicals, Kangxi radicals, CJK symbols and punctuation
        0x3041...0x33FF,   // kana, Bopomofo, Hangul compatibility jamo, enclosed CJK
        0x3400...0x4DBF,   // CJK extension A
        0x4E00...0x9FFF,   // CJK unified ideographs
        0xA000...0xA4CF,   // Yi
        0xA960...0xA97F,   // Hangul Jamo extended A
        0xAC00...0xD7A3,   // Hangul syllables
        0xF900...0xFAFF,   // CJK compatibility ideographs
        0xFE10...0xFE19,   // vertical forms
        0xFE30...0xFE6F,   // CJK compatibility forms, small form variants
        0xFF00...0xFF60,   // fullwidth ASCII
        0xFFE0...0xFFE6,   // fullwidth signs
        0x16FE0...0x16FE4, // ideographic symbols
        0x17000...0x18D08, // Tangut, Khitan
        0x1AFF0...0x1B2FF, // kana supplements, Nushu
        0x1F200...0x1F2FF, // enclosed ideographic supplement
        0x20000...0x2FFFD, // CJK extensions B to F
        0x30000...0x3FFFD, // CJK extensions G and later
    ]
}
