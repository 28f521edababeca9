/// One file's change as a unified diff, the way `diff -u` and `git diff`
/// write it, for `patch -p1` and `git apply`: `--- a/PATH`, `+++ b/PATH`,
/// then `@@` hunks with three lines of context.
///
/// Lines are split after each `\n` and compared as bytes, so a CRLF file's
/// lines keep their `\r` and the diff applies to the file's own bytes. A
/// last line with no `\n` is followed by `\ No newline at end of file`.
/// The script is the shortest one (Myers' O(ND) algorithm) up to
/// `maxEdits` changed lines between the first and the last change; past
/// that, lines are paired in place when both sides have as many, and the
/// span between is one replacement otherwise: still correct.
public enum UnifiedDiff {
    /// Changed lines past which the shortest script is not looked for.
    static let maxEdits = 1000

    /// The diff from `old` to `new`, both the bytes of `path`; empty when
    /// they are equal. A file that is UTF-16 text (after its byte-order mark)
    /// is not split into lines: it is named as git names a binary file.
    public static func render(old: [UInt8], new: [UInt8], path: String, context: Int = 3) -> String {
        guard old != new else { return "" }
        if isUTF16(old) || isUTF16(new) { return "Binary files a/\(path) and b/\(path) differ\n" }
        let oldLines = lines(old), newLines = lines(new)
        let script = editScript(oldLines, newLines)
        // A name with a space ends with a tab, as git and diff write it, so
        // patch does not read the name as ending at the space.
        let end = path.contains(" ") ? "\t" : ""
        var output: [UInt8] = Array("--- a/\(path)\(end)\n+++ b/\(path)\(end)\n".utf8)
        for hunk in hunks(script, context: context) {
            output += Array(hunk.header.utf8)
            for op in script[hunk.ops] {
                switch op {
                case .same(let index, _): line(" ", oldLines[index], into: &output)
                case .delete(let index): line("-", oldLines[index], into: &output)
                case .insert(let index): line("+", newLines[index], into: &output)
                }
            }
        }
        // Both sides decode: a file libyaml reads is valid UTF-8.
        return String(decoding: output, as: UTF8.self)
    }

    /// One step of the script, naming the line it is about by its index.
    enum Op: Equatable {
        case same(Int, Int)
        case delete(Int)
        case insert(Int)
    }

    private static func isUTF16(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && ((bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF))
    }

    /// The lines of `bytes`, each with its `\n` when it has one.
    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            result.append(bytes[start...index])
            start = index + 1
        }
        if start < bytes.count { result.append(bytes[start...]) }
        return result
    }

    private static func line(_ mark: String, _ text: ArraySlice<UInt8>, into output: inout [UInt8]) {
        output += Array(mark.utf8)
        output += text
        if text.last != UInt8(ascii: "\n") { output += Array("\n\\ No newline at end of file\n".utf8) }
    }

    /// The steps from `old` to `new`: the common lines at both ends, and
    /// the shortest script between them, or past `limit` changes all of it
    /// replaced.
    static func editScript(_ old: [ArraySlice<UInt8>], _ new: [ArraySlice<UInt8>], limit: Int = maxEdits) -> [Op] {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
            suffix += 1
        }
        // Lines as numbers, so the search compares integers.
        var ids: [ArraySlice<UInt8>: Int] = [:]
        func id(_ line: ArraySlice<UInt8>) -> Int {
            if let known = ids[line] { return known }
            ids[line] = ids.count
            return ids.count - 1
        }
        let a = old[prefix..<(old.count - suffix)].map(id), b = new[prefix..<(new.count - suffix)].map(id)
        let middle = shortestScript(a, b, limit: limit) ?? Self.pairedScript(a, b)
        var script = (0..<prefix).map { Op.same($0, $0) }
        for op in middle {
            switch op {
            case .same(let i, let j): script.append(.same(prefix + i, prefix + j))
            case .delete(let i): script.append(.delete(prefix + i))
            case .insert(let j): script.append(.insert(prefix + j))
            }
        }
        script += (0..<suffix).map { Op.same(old.count - suffix + $0, new.count - suffix + $0) }
        return script
    }

    /// A script without a search: line by line when both sides have as
    /// many lines (fixes mostly rewrite lines in place), otherwise one
    /// replacement of the whole span. Right, if not always shortest.
    static func pairedScript(_ a: [Int], _ b: [Int]) -> [Op] {
        guard a.count == b.count else { return a.indices.map { Op.delete($0) } + b.indices.map { Op.insert($0) } }
        return a.indices.flatMap { index in a[index] == b[index] ? [Op.same(index, index)] : [.delete(index), .insert(index)] }
    }

    /// Myers' greedy search for the fewest deletions and insertions, or nil
    /// past `limit` of them. Each step's frontier is kept (O(D²) numbers)
    /// to walk the path back.
    static func shortestScript(_ a: [Int], _ b: [Int], limit: Int) -> [Op]? {
        let n = a.count, m = b.count
        let bound = min(n + m, limit)
        let offset = bound + 1
        var frontier = [Int](repeating: 0, count: 2 * bound + 3)
        var trace: [[Int]] = []
        for d in 0...bound {
            for k in stride(from: -d, through: d, by: 2) {
                var x = k == -d || (k != d && frontier[offset + k - 1] < frontier[offset + k + 1])
                    ? frontier[offset + k + 1] : frontier[offset + k - 1] + 1
                var y = x - k
                while x < n, y < m, a[x] == b[y] {
                    x += 1
                    y += 1
                }
                frontier[offset + k] = x
                if x >= n, y >= m {
                    trace.append(Array(frontier[(offset - d)...(offset + d)]))
                    return walkBack(trace, n: n, m: m)
                }
            }
            trace.append(Array(frontier[(offset - d)...(offset + d)]))
        }
        return nil
    }

    /// The path the search found, from its end to the start, as steps in order.
    private static func walkBack(_ trace: [[Int]], n: Int, m: Int) -> [Op] {
        var ops: [Op] = []
        var x = n, y = m
        for d in stride(from: trace.count - 1, through: 1, by: -1) {
            let previous = trace[d - 1]
            func reached(_ k: Int) -> Int { previous[k + d - 1] }
            let k = x - y
            let previousK = k == -d || (k != d && reached(k - 1) < reached(k + 1)) ? k + 1 : k - 1
            let previousX = reached(previousK), previousY = previousX - previousK
            while x > previousX, y > previousY {
                x -= 1
                y -= 1
                ops.append(.same(x, y))
            }
            if x == previousX { ops.append(.insert(y - 1)) } else { ops.append(.delete(x - 1)) }
            x = previousX
            y = previousY
        }
        while x > 0, y > 0 {
            x -= 1
            y -= 1
            ops.append(.same(x, y))
        }
        return ops.reversed()
    }

    /// A run of the script shown together, and its `@@` line.
    struct Hunk {
        var ops: Range<Int>
        var header: String
    }

    /// The changes with `context` common lines around each; changes closer
    /// than twice that share a hunk, as `diff -u` joins them.
    static func hunks(_ script: [Op], context: Int) -> [Hunk] {
        let changed = script.indices.filter { if case .same = script[$0] { false } else { true } }
        guard let first = changed.first else { return [] }
        var groups: [ClosedRange<Int>] = []
        var start = first, end = first
        for index in changed.dropFirst() {
            if index - end - 1 > 2 * context {
                groups.append(start...end)
                start = index
            }
            end = index
        }
        groups.append(start...end)
        // The old and new line before each step.
        var oldBefore: [Int] = [], newBefore: [Int] = []
        var oldLine = 0, newLine = 0
        for op in script {
            oldBefore.append(oldLine)
            newBefore.append(newLine)
            switch op {
            case .same:
                oldLine += 1
                newLine += 1
            case .delete: oldLine += 1
            case .insert: newLine += 1
            }
        }
        return groups.map { group in
            let ops = max(0, group.lowerBound - context)..<min(script.count, group.upperBound + 1 + context)
            var oldCount = 0, newCount = 0
            for op in script[ops] {
                switch op {
                case .same:
                    oldCount += 1
                    newCount += 1
                case .delete: oldCount += 1
                case .insert: newCount += 1
                }
            }
            func span(_ before: Int, _ count: Int) -> String {
                // An empty side names the line before it; one line needs no count.
                let start = count == 0 ? before : before + 1
                return count == 1 ? "\(start)" : "\(start),\(count)"
            }
            let header = "@@ -\(span(oldBefore[ops.lowerBound], oldCount)) +\(span(newBefore[ops.lowerBound], newCount)) @@\n"
            return Hunk(ops: ops, header: header)
        }
    }
}
