import JuiceBook
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The script keywords' bytes (`ScriptKeyword`, the book's one list of
/// them), for matching a line's first word without making
/// a `String`. The script parser holds one, so a line pays neither a
/// global's lazy-initialisation check nor a comparison for a word whose
/// length no keyword has (most first words are menu ids).
struct ScriptKeywordTable: Sendable {
    private let entries: [(keyword: ScriptKeyword, word: [UInt8])]
    /// Bit n is set when some keyword is n bytes long.
    private let lengths: UInt64

    init() {
        entries = ScriptKeyword.allCases.map { ($0, Array($0.rawValue.utf8)) }
        lengths = entries.reduce(0) { $1.word.count < 64 ? $0 | (1 << UInt64($1.word.count)) : $0 }
    }

    /// The keyword whose word is exactly `bytes`, or nil. Inlined, so a
    /// word of no keyword's length costs the caller one test.
    @inline(__always)
    func keyword(_ bytes: UnsafeBufferPointer<UInt8>) -> ScriptKeyword? {
        guard bytes.count < 64, lengths & (1 << UInt64(bytes.count)) != 0 else { return nil }
        return match(bytes)
    }

    private func match(_ bytes: UnsafeBufferPointer<UInt8>) -> ScriptKeyword? {
        guard let query = bytes.baseAddress else { return nil }
        for entry in entries where entry.word.count == bytes.count {
            let same = entry.word.withUnsafeBufferPointer { word in word.baseAddress.map { memcmp($0, query, bytes.count) == 0 } ?? false }
            if same { return entry.keyword }
        }
        return nil
    }
}
