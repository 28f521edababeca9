import JuiceSource
import JuiceDiagnostics
/// `juice-lint --fix` on files in memory: lint, apply every fix the linter is
/// sure of, lint again, and repeat until nothing is left to apply or
/// `maxRounds` rounds have run. Every byte no fix touches is kept.
///
/// Which fixes: those of the reported diagnostics (after suppression
/// comments and rule levels) that carry exactly one. The core attaches a fix
/// only where the edit is clear (the sole did-you-mean, the one plain
/// spelling of a number, a suppression that silences nothing, the sole
/// rule a misspelt suppression meant), so each is safe; a diagnostic with
/// several would leave a choice, which is a person's.
///
/// Fixes that touch the same bytes in one round (or insert at one place)
/// are applied in diagnostic order: the first, then the next only after a
/// lint of the edited text offers it again, in a later round, since the
/// earlier edit may have moved or resolved it (`Change.waited`). One whose
/// problem is gone by then is `Skipped.overlapped`.
///
/// A file libyaml cannot read (`yaml-syntax`, whatever the configuration
/// says) is never edited: where its text stops being YAML, no span in it
/// can be trusted. The files written are the driver's business
/// (`Linter.fix`); this only computes them.
public struct FixRun: Sendable {
    /// The most rounds of lint-and-apply: fixes that keep offering new ones
    /// (a renamed suppression that turns out stale) settle in two or three.
    public static let maxRounds = 8

    /// What one lint of the files found.
    public struct Findings: Sendable {
        /// The diagnostics as reported, in output order, with their fixes.
        public var diagnostics: [Diagnostic]
        /// The files with a `yaml-syntax` diagnostic, reported or not.
        public var unreadable: Set<String>

        /// Findings of `diagnostics`, with `unreadable` files.
        public init(diagnostics: [Diagnostic], unreadable: Set<String>) {
            self.diagnostics = diagnostics
            self.unreadable = unreadable
        }
    }

    /// One fix, as the notice lists it under a file it edits.
    public struct Change: Sendable, Hashable {
        /// The file it edits, as the book names it.
        public var file: String
        /// Where its first edit in `file` starts, in the file as it was read.
        public var position: SourcePosition
        /// The rule of the diagnostic it fixes.
        public var rule: Rule
        /// What it does, as the fix's title says.
        public var title: String
        /// It overlapped a fix made in an earlier round, and was made after
        /// a lint of the edited text offered it again.
        public var waited = false
    }

    /// A fix that was not made, and why.
    public enum Skipped: Sendable, Hashable {
        /// It overlapped `other`, and once that was made the lint no longer
        /// offered it, or the rounds ran out first.
        case overlapped(Change, other: String)
        /// Its edits are not in the file as it stands, or overlap each other.
        case unplaceable(Change)
        /// It edits `file`, which is not in the book.
        case outsideBook(Change, file: String)
    }

    /// The files as read: book files and the stock file.
    public let original: [SourceFile]
    /// The files with every fix made.
    public private(set) var files: [SourceFile]
    /// The fixes made, by file (in the order of `original`), then place.
    public private(set) var changes: [Change] = []
    /// The fixes not made, each with the reason.
    public private(set) var skipped: [Skipped] = []
    /// Files never edited, since libyaml could not read them: sorted.
    public private(set) var unreadable: [String] = []
    /// Files readable as read that the fixes would leave unreadable: kept as
    /// read, and their changes dropped. No fix does this; it is a guard.
    public private(set) var spoilt: [String] = []
    /// Rounds that made fixes.
    public private(set) var rounds = 0
    /// Fixes still to make when the rounds ran out (`maxRounds`): 0 when
    /// the last lint offered none that could be made.
    public private(set) var left = 0
    /// The lint of `files`.
    public private(set) var findings: Findings

    /// Where each round's edits went, per file: for positions in the text as read.
    private var history: [String: [[ByteEdit]]] = [:]
    /// Each file's place in `original`, by path.
    private let index: [String: Int]

    /// Runs every round on `files`. `lint` is handed the files each round
    /// edited (none, the first time) and returns the findings of the whole
    /// book as it now stands: the driver keeps a workspace, and tests
    /// stand in for it.
    public init(files: [SourceFile], lint: (_ edited: [SourceFile]) -> Findings) {
        original = files
        self.files = files
        findings = lint([])
        let index = Dictionary(files.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { first, _ in first })
        self.index = index
        unreadable = findings.unreadable.filter { index[$0] != nil }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let frozen = Set(unreadable)
        // Fixes that overlapped one made in the last round, and the title of
        // that one. The lint of the edited text places them anew, so they
        // are known again by file, rule and title, not by place.
        var waiting: [(change: Change, other: String)] = []
        while true {
            let plan = Plan(findings.diagnostics, files: self.files, index: index, frozen: frozen)
            if plan.accepted.isEmpty || rounds == Self.maxRounds {
                left = plan.accepted.count + plan.deferred.count
                let refused = locate(plan.refused.map(\.candidate))
                skipped = zip(plan.refused, refused).map { refusal, change in
                    switch refusal {
                    case .unplaceable: return .unplaceable(change)
                    case .outsideBook(_, let file): return .outsideBook(change, file: file)
                    }
                }
                // Still offered (when the rounds ran out), they count in `left`.
                let offered = plan.accepted + plan.deferred.map { $0.candidate } + plan.refused.map(\.candidate)
                for (change, other) in waiting where !offered.contains(where: { change.isSame(as: $0) }) {
                    skipped.append(.overlapped(change, other: other))
                }
                break
            }
            rounds += 1
            var made: [Change] = []
            for (candidate, located) in zip(plan.accepted, locate(plan.accepted)) {
                var change = located
                if let match = waiting.firstIndex(where: { $0.change.isSame(as: candidate) }) {
                    waiting.remove(at: match)
                    change.waited = true
                }
                made.append(change)
            }
            waiting = Array(zip(locate(plan.deferred.map { $0.candidate }), plan.deferred.map { $0.other }))
            let edited = apply(plan)
            changes += made
            findings = lint(edited)
        }
        spoil(index: index, lint: lint)
        changes.sort { ($0.fileOrder(index), $0.position) < ($1.fileOrder(index), $1.position) }
    }

    /// Gives back the text as read of every file the fixes left unreadable.
    private mutating func spoil(index: [String: Int], lint: (_ edited: [SourceFile]) -> Findings) {
        let broken = findings.unreadable.filter { path in
            guard let position = index[path] else { return false }
            return files[position].bytes != original[position].bytes
        }
        guard !broken.isEmpty else { return }
        spoilt = broken.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var restored: [SourceFile] = []
        for path in spoilt {
            guard let position = index[path] else { continue }
            files[position] = original[position]
            restored.append(original[position])
        }
        changes.removeAll { broken.contains($0.file) }
        findings = lint(restored)
    }

    /// Makes the plan's edits, file by file, and returns the edited files.
    private mutating func apply(_ plan: Plan) -> [SourceFile] {
        var edited: [SourceFile] = []
        for (position, placed) in plan.editsByFile.sorted(by: { $0.key < $1.key }) {
            let file = files[position]
            let ordered = placed.sorted { $0.range.lowerBound < $1.range.lowerBound }
            let encoding = SourceOffsets.Encoding(of: file.bytes)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(file.bytes.count)
            var copied = 0
            var round: [ByteEdit] = []
            for (range, replacement) in ordered {
                let encoded = encoding.encode(replacement)
                bytes += file.bytes[copied..<range.lowerBound]
                bytes += encoded
                copied = range.upperBound
                round.append(ByteEdit(start: range.lowerBound, oldCount: range.count, newCount: encoded.count))
            }
            bytes += file.bytes[copied...]
            history[file.path, default: []].append(round)
            files[position] = SourceFile(path: file.path, bytes: bytes)
            edited.append(files[position])
        }
        return edited
    }

    /// The changes planned fixes make, placed in the files as read: an
    /// offset after earlier rounds is mapped back through their edits, and
    /// each file's offsets become positions in one pass over its text.
    private func locate(_ candidates: [Plan.Candidate]) -> [Change] {
        var changes = candidates.map { Change(file: $0.file, position: $0.position, rule: $0.rule, title: $0.title) }
        var mapped: [Int: [(change: Int, offset: Int)]] = [:]
        for (number, candidate) in candidates.enumerated() {
            guard let offset = candidate.offset, let rounds = history[candidate.file], !rounds.isEmpty,
                  let file = index[candidate.file] else { continue }
            mapped[file, default: []].append((number, ByteEdit.original(offset, through: rounds)))
        }
        for (file, list) in mapped {
            let positions = SourceOffsets.positions(of: list.map(\.offset), in: original[file].bytes)
            for (item, position) in zip(list, positions) { changes[item.change].position = position }
        }
        return changes
    }
}

extension FixRun.Change {
    /// Whether `candidate` is this fix offered again: same file, rule and title.
    fileprivate func isSame(as candidate: FixRun.Plan.Candidate) -> Bool {
        file == candidate.file && rule == candidate.rule && title == candidate.title
    }

    fileprivate func fileOrder(_ index: [String: Int]) -> Int { index[file] ?? Int.max }
}

extension FixRun.Skipped {
    /// The fix that was not made.
    public var change: FixRun.Change {
        switch self {
        case .overlapped(let change, _), .unplaceable(let change), .outsideBook(let change, _): return change
        }
    }
}

/// One edit as bytes: where it started in the text before its round, how
/// many bytes it replaced and how many it wrote.
struct ByteEdit: Sendable, Hashable {
    var start: Int
    var oldCount: Int
    var newCount: Int

    /// The offset in the text as read of `offset` in the text after
    /// `rounds` (each sorted by start): text an edit wrote maps to where
    /// that edit started.
    static func original(_ offset: Int, through rounds: [[ByteEdit]]) -> Int {
        var offset = offset
        for edits in rounds.reversed() {
            var shift = 0
            var inside: Int?
            for edit in edits {
                let start = edit.start + shift
                if offset < start { break }
                if offset < start + edit.newCount {
                    inside = edit.start
                    break
                }
                shift += edit.newCount - edit.oldCount
            }
            offset = inside ?? offset - shift
        }
        return offset
    }
}
