@_spi(Internals) import JuiceSupport
import JuiceBook
import JuiceShop

/// What the text, JSON and HTML reports say of `--history`: the days learnt
/// from and each estimated mean with its interval (docs/planning.md).
extension PlanReport {
    /// The demand in the report's first line: the mean given, or the history.
    static func demandPhrase(_ settings: PlanSettings) -> String {
        if let history = settings.history {
            let total = history.averageMeans(overPlanDays: settings.days).reduce(0, +)
            return "Poisson demand learnt from the history (\(fixed(total, 2)) orders a day on average over the plan's days)"
        }
        return "\(settings.demand == .poisson ? "Poisson demand with a mean of" : "exactly") \(settings.ordersPerDay) orders a day"
    }

    /// Which days the history gave, in one sentence.
    static func historyDaysSentence(_ history: DemandHistory) -> String {
        let span = history.days == 1
            ? "1 day, \(JournalExport.dayText(history.firstDay))"
            : "\(history.days) days, \(JournalExport.dayText(history.firstDay)) to \(JournalExport.dayText(history.lastDay))"
        let how = history.perWeekday
            ? "per weekday (\(DemandHistory.weekdayThreshold) days or more)"
            : "one mean for every day (fewer than \(DemandHistory.weekdayThreshold) days, so not per weekday)"
        return "learnt from shop '\(history.shop)', \(span) (the days with a day-open entry); \(how)"
    }

    /// Plan day 1's date, and whether it was given.
    static func startSentence(_ history: DemandHistory) -> String {
        let weekday = DemandHistory.weekdayNames[JournalExport.weekday(history.start)]
        let why = history.start == history.lastDay + 1 ? "the day after the last day learnt from" : "as --start says"
        return "plan day 1 is \(JournalExport.dayText(history.start)), a \(weekday): \(why)"
    }

    /// What each mean is.
    static let meansSentence = "demand a day: units ordered or refused (voided orders left out, a refusal made good counted once), "
        + "over the days; the 95% interval is the exact Poisson (Garwood) interval for the expected units a day"

    /// The warning for items the menu lacks.
    static func unknownItemsNote(_ history: DemandHistory) -> String {
        let names = history.unknownItems.map { "'\($0)'" }.joined(separator: ", ")
        return "the history names \(names), which the menu does not have: left out"
    }

    /// The notes under the means: items left out, items never seen, entries outside the days.
    static func historyNotes(_ history: DemandHistory) -> [String] {
        var notes: [String] = []
        if !history.unknownItems.isEmpty { notes.append(unknownItemsNote(history)) }
        if !history.unseenItems.isEmpty {
            let names = history.unseenItems.map { "'\($0)'" }.joined(separator: ", ")
            notes.append("\(names) never \(history.unseenItems.count == 1 ? "appears" : "appear") in the history: a mean of 0")
        }
        if history.entriesOutsideDays > 0 {
            notes.append(history.entriesOutsideDays == 1
                ? "1 order or refusal on a day with no day-open entry left out"
                : "\(history.entriesOutsideDays) orders or refusals on days with no day-open entry left out")
        }
        if history.perWeekday {
            let missing = (0..<7).filter { history.estimates[$0].first?.days == 0 }.map { DemandHistory.weekdayNames[$0] }
            if !missing.isEmpty { notes.append("no \(missing.joined(separator: ", ")) in the history: no demand on \(missing.count == 1 ? "that day" : "those days")") }
        }
        return notes
    }

    /// The rows of the means' table: item, weekday (when per weekday), days, units, mean, interval.
    func historyRows(_ history: DemandHistory) -> [[String]] {
        var rows: [[String]] = []
        for (index, item) in book.menu.enumerated() {
            for profile in history.estimates.indices {
                let estimate = history.estimates[profile][index]
                let interval = estimate.low.flatMap { low in estimate.high.map { "[\(Self.fixed(low, 2)), \(Self.fixed($0, 2))]" } } ?? "n/a (no such day)"
                var row = [item.id]
                if history.perWeekday { row.append(DemandHistory.weekdayNames[profile]) }
                row += ["\(estimate.days)", "\(estimate.units)", Self.fixed(estimate.mean, 2), interval]
                rows.append(row)
            }
        }
        return rows
    }

    /// The text report's history section, before the runs.
    func historyText() -> [String] {
        guard let history = settings.history else { return [] }
        var lines = ["history: " + Self.historyDaysSentence(history), Self.startSentence(history), Self.meansSentence]
        var header = ["item"]
        if history.perWeekday { header.append("weekday") }
        header += ["days", "units", "mean", "95% interval"]
        let numbers = history.perWeekday ? Set(2...4) : Set(1...3)
        lines += TextTable.lines([header] + historyRows(history), rightAligned: numbers)
        lines += Self.historyNotes(history).map { "note: " + $0 }
        return lines + [""]
    }

    /// `settings.history` in the JSON report.
    func historyJSON(_ json: inout JSONWriter, _ history: DemandHistory) {
        json.key("history")
        json.beginObject()
        json.field("shop", history.shop)
        json.field("days", history.days)
        json.field("first", JournalExport.dayText(history.firstDay))
        json.field("last", JournalExport.dayText(history.lastDay))
        json.key("perWeekday")
        json.bool(history.perWeekday)
        json.field("start", JournalExport.dayText(history.start))
        for (key, names) in [("unknownItems", history.unknownItems), ("unseenItems", history.unseenItems)] {
            json.key(key)
            json.beginArray()
            for name in names { json.string(name) }
            json.endArray()
        }
        json.field("entriesOutsideDays", history.entriesOutsideDays)
        json.key("means")
        json.beginArray()
        for (index, item) in book.menu.enumerated() {
            for profile in history.estimates.indices {
                let estimate = history.estimates[profile][index]
                json.beginObject()
                json.field("item", item.id)
                json.key("weekday")
                if history.perWeekday { json.string(DemandHistory.weekdayNames[profile]) } else { json.null() }
                json.field("days", estimate.days)
                json.field("units", estimate.units)
                json.key("mean")
                json.number(Self.number(estimate.mean))
                for (key, bound) in [("low", estimate.low), ("high", estimate.high)] {
                    json.key(key)
                    if let bound { json.number(Self.number(bound)) } else { json.null() }
                }
                json.endObject()
            }
        }
        json.endArray()
        json.endObject()
    }

    /// The HTML report's history section.
    func historyHTML() -> String {
        guard let history = settings.history else { return "" }
        var html = "<h2>Demand learnt from the history</h2>\n"
        func sentence(_ text: String) -> String { (text.prefix(1).uppercased() + text.dropFirst() + ".").htmlEscaped }
        html += "<p>\(sentence(Self.historyDaysSentence(history))) \(sentence(Self.startSentence(history)))</p>\n"
        html += "<p class=\"note\">\(sentence(Self.meansSentence))</p>\n"
        html += "<table>\n<thead><tr><th>item</th>\(history.perWeekday ? "<th>weekday</th>" : "")<th>days</th><th>units</th><th>mean</th><th>95% interval</th></tr></thead>\n<tbody>\n"
        let textColumns = history.perWeekday ? 2 : 1
        for row in historyRows(history) {
            html += "<tr>"
            for (column, cell) in row.enumerated() {
                html += column < textColumns ? "<td>\(cell.htmlEscaped)</td>" : "<td class=\"number\">\(cell.htmlEscaped)</td>"
            }
            html += "</tr>\n"
        }
        html += "</tbody>\n</table>\n"
        for note in Self.historyNotes(history) { html += "<p class=\"note\">\(sentence(note))</p>\n" }
        return html
    }
}
