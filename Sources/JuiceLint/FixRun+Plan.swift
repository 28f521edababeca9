import JuiceSource
import JuiceDiagnostics
extension FixRun {
    /// One round's choice: which fixes to make now, which wait for the next
    /// lint because they overlap one chosen before them, and which cannot be
    /// made at all.
    struct Plan {
        /// A fix's share of one file it edits, for the notice.
        struct Candidate: Sendable, Hashable {
            var file: String
            /// Where its first edit in the file starts, in this round's text.
            package var position: SourcePosition
            /// The same place as a byte offset, when it is in the file.
            package var offset: Int?
            var rule: Rule
            var title: String
        }

        enum Refusal {
            case unplaceable(Candidate)
            case outsideBook(Candidate, file: String)

            var candidate: Candidate {
                switch self {
                case .unplaceable(let candidate), .outsideBook(let candidate, _): return candidate
                }
            }
        }

        /// A byte range a chosen fix replaces, and that fix's title.
        private typealias Taken = (range: Range<Int>, title: String)

        private(set) var accepted: [Candidate] = []
        private(set) var deferred: [(candidate: Candidate, other: String)] = []
        private(set) var refused: [Refusal] = []
        /// The chosen edits, by index of the file in the run: never overlapping.
        private(set) var editsByFile: [Int: [(range: Range<Int>, replacement: String)]] = [:]

        /// Chooses among the fixes of `diagnostics` (in their order) for
        /// `files`; `index` finds a file by path, and `frozen` files are
        /// never edited, nor is any fix that would edit one.
        init(_ diagnostics: [Diagnostic], files: [SourceFile], index: [String: Int], frozen: Set<String>) {
            // A fix attached to several reports (each name of a stale
            // comment removes the comment) is made once.
            var seen = Set<Fix>()
            var fixes: [(diagnostic: Diagnostic, fix: Fix)] = []
            for diagnostic in diagnostics where diagnostic.fixes.count == 1 {
                let fix = diagnostic.fixes[0]
                guard !fix.edits.isEmpty, seen.insert(fix).inserted else { continue }
                fixes.append((diagnostic, fix))
            }
            // Every edit placed with one pass over each file.
            var positions: [Int: [SourcePosition]] = [:]
            for (_, fix) in fixes {
                for edit in fix.edits {
                    if let file = index[edit.range.file] { positions[file, default: []] += [edit.range.start, edit.range.end] }
                }
            }
            var offsets: [Int: [Int?]] = [:]
            for (file, list) in positions { offsets[file] = SourceOffsets.offsets(of: list, in: files[file].bytes) }
            var next: [Int: Int] = [:]
            var taken: [Int: [Taken]] = [:]
            for (diagnostic, fix) in fixes {
                var placed: [(file: Int, range: Range<Int>?, edit: TextEdit)] = []
                var outside: String?
                for edit in fix.edits {
                    guard let file = index[edit.range.file] else {
                        outside = outside ?? edit.range.file
                        continue
                    }
                    let at = next[file, default: 0]
                    next[file] = at + 2
                    let list = offsets[file] ?? []
                    var range: Range<Int>?
                    if at + 1 < list.count, let start = list[at], let end = list[at + 1], start <= end { range = start..<end }
                    placed.append((file, range, edit))
                }
                func candidate(_ edit: TextEdit, _ offset: Int?) -> Candidate {
                    Candidate(file: edit.range.file, position: edit.range.start, offset: offset, rule: diagnostic.rule, title: fix.title)
                }
                if let outside {
                    let edit = TextEdit(range: diagnostic.range, replacement: "")
                    refused.append(.outsideBook(candidate(edit, nil), file: outside))
                    continue
                }
                guard let first = placed.first, !placed.contains(where: { frozen.contains(files[$0.file].path) }) else { continue }
                guard placed.allSatisfy({ $0.range != nil }), !Self.overlapsItself(placed.compactMap { item in item.range.map { (item.file, $0) } }) else {
                    refused.append(.unplaceable(candidate(first.edit, first.range?.lowerBound)))
                    continue
                }
                if let other = placed.lazy.compactMap({ item in item.range.flatMap { Self.collision($0, in: taken[item.file] ?? []) } }).first {
                    deferred.append((candidate(first.edit, first.range?.lowerBound), other))
                    continue
                }
                var shown = Set<Int>()
                for item in placed {
                    guard let range = item.range else { continue }
                    Self.insert((range, fix.title), into: &taken[item.file, default: []])
                    editsByFile[item.file, default: []].append((range, item.edit.replacement))
                    if shown.insert(item.file).inserted { accepted.append(candidate(item.edit, range.lowerBound)) }
                }
            }
        }

        /// Whether a fix's own edits overlap, as `Fix.applied` judges: two
        /// spans sharing a byte, or two starting at one place.
        private static func overlapsItself(_ placed: [(file: Int, range: Range<Int>)]) -> Bool {
            let sorted = placed.sorted { ($0.file, $0.range.lowerBound, $0.range.upperBound) < ($1.file, $1.range.lowerBound, $1.range.upperBound) }
            return zip(sorted, sorted.dropFirst()).contains { previous, next in
                previous.file == next.file
                    && (previous.range.upperBound > next.range.lowerBound || previous.range.lowerBound == next.range.lowerBound)
            }
        }

        /// The title of the chosen fix `range` would overlap, if any. `taken`
        /// is sorted and never overlaps itself, so only the neighbours of
        /// where `range` would go can touch it.
        private static func collision(_ range: Range<Int>, in taken: [Taken]) -> String? {
            let at = insertionPoint(range, in: taken)
            if at < taken.count {
                let next = taken[at].range
                if next.lowerBound == range.lowerBound || next.lowerBound < range.upperBound { return taken[at].title }
            }
            if at > 0, taken[at - 1].range.upperBound > range.lowerBound { return taken[at - 1].title }
            return nil
        }

        private static func insert(_ item: Taken, into taken: inout [Taken]) {
            taken.insert(item, at: insertionPoint(item.range, in: taken))
        }

        /// The first index whose span starts at or after `range`'s start.
        private static func insertionPoint(_ range: Range<Int>, in taken: [Taken]) -> Int {
            var low = 0, high = taken.count
            while low < high {
                let middle = (low + high) / 2
                if taken[middle].range.lowerBound < range.lowerBound { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }
}
