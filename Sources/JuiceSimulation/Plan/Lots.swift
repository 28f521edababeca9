/// One fruit's or recipe's stock on hand as lots by the day they came in,
/// oldest first: what spoils is what came in first, and what is used is
/// the oldest (docs/planning.md, "keeps").
struct Lots: Sendable {
    private var days: [Int] = []
    private var units: [Int] = []
    /// The first lot still held; lots before it are used up.
    private var head = 0

    /// Adds `count` units received on `day` (the newest lot). A second lot
    /// of the same day is kept apart where one would not hold both.
    mutating func receive(_ count: Int, on day: Int) {
        guard count > 0 else { return }
        if head < days.count, days[days.count - 1] == day, case (let sum, false) = units[units.count - 1].addingReportingOverflow(count) {
            units[units.count - 1] = sum
        } else {
            days.append(day)
            units.append(count)
        }
    }

    /// Takes `count` units, oldest first (never more than are held).
    mutating func use(_ count: Int) {
        var left = count
        while left > 0 && head < days.count {
            let taken = min(left, units[head])
            units[head] -= taken
            left -= taken
            if units[head] == 0 { head += 1 }
        }
        compact()
    }

    /// Throws away every lot that came in on or before `lastDay` and
    /// returns how many units that was.
    mutating func spoil(receivedThrough lastDay: Int) -> Int {
        var wasted = 0
        while head < days.count && days[head] <= lastDay {
            wasted += units[head]
            head += 1
        }
        compact()
        return wasted
    }

    /// Drops used lots once they are half the array, so a long run keeps
    /// only the lots it holds.
    private mutating func compact() {
        guard head > 32 && head * 2 > days.count else { return }
        days.removeFirst(head)
        units.removeFirst(head)
        head = 0
    }
}
