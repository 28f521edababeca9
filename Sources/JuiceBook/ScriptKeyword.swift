@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceDiagnostics
@_spi(Internals) import JuiceYAML
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The words an order script uses as commands: the one list of them.
///
/// The script parser reads commands by these words, and the book reserves
/// them (`RecipeValues.reservedIDs`), so no fruit or menu item can be
/// mistaken for a command. It lives with the book's rules because the book
/// is checked first; the parser, downstream, reads it from here.
public enum ScriptKeyword: String, CaseIterable, Sendable {
    /// `restock FRUIT N`: add N (at least 1).
    case restock
    /// `set FRUIT N`: set the stock to N (at least 0).
    case set
    /// `stock`: show the stock at this point.
    case stock

    /// The keywords' bytes, for matching a line's first word without making
    /// a `String`. The script parser holds one, so a line pays neither a
    /// global's lazy-initialisation check nor a comparison for a word whose
    /// length no keyword has (most first words are menu ids).
    package struct Table: Sendable {
        private let entries: [(keyword: ScriptKeyword, word: [UInt8])]
        /// Bit n is set when some keyword is n bytes long.
        private let lengths: UInt64

        package init() {
            entries = ScriptKeyword.allCases.map { ($0, Array($0.rawValue.utf8)) }
            lengths = entries.reduce(0) { $1.word.count < 64 ? $0 | (1 << UInt64($1.word.count)) : $0 }
        }

        /// The keyword whose word is exactly `bytes`, or nil. Inlined, so a
        /// word of no keyword's length costs the caller one test.
        @inline(__always)
        package func keyword(_ bytes: UnsafeBufferPointer<UInt8>) -> ScriptKeyword? {
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
}
