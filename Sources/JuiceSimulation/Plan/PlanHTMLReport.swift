import JuiceSupport
import JuiceBook
/// `--report FILE.html`: one self-contained page (no script, no link, no
/// font to fetch; it works offline) with inline SVG charts and the table of
/// figures. A printer: it only reads what the plan computed.
public struct PlanHTMLReport: Sendable {
    /// One point of the service-level sweep: the limiting fruit's `up-to`
    /// and the cycle service level across the runs at that level.
    public struct SweepPoint: Sendable, Hashable {
        public let level: Int
        public let service: Estimate

        public init(level: Int, service: Estimate) {
            self.level = level
            self.service = service
        }
    }

    public let report: PlanReport
    /// Day by day, the sample run (run 1).
    public let sample: PlanTrace?
    /// The fruit short on the most days, and the sweep over its `up-to`.
    public let limitingFruit: Int?
    public let sweep: [SweepPoint]

    public init(report: PlanReport, sample: PlanTrace?, limitingFruit: Int?, sweep: [SweepPoint]) {
        self.report = report
        self.sample = sample
        self.limitingFruit = limitingFruit
        self.sweep = sweep
    }

    /// Colours for the fruits' lines, told apart in colour and in dash.
    static let palette = ["#1b6ca8", "#d1495b", "#2e933c", "#edae49", "#6a4c93", "#00798c", "#8c564b", "#e377c2"]

    public func html() -> String {
        let book = report.book
        let settings = report.summary.settings
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>juice-run plan: \(settings.days) days × \(settings.runs) runs</title>
            <style>
            body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; padding: 0 1em; color: #222; }
            h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 2em; }
            svg { display: block; max-width: 100%; height: auto; background: #fff; }
            svg text { font: 12px system-ui, sans-serif; fill: #333; }
            .axis { stroke: #555; } .grid { stroke: #ddd; }
            table { border-collapse: collapse; margin-top: 1em; }
            th, td { border-bottom: 1px solid #ddd; padding: 0.25em 0.75em; text-align: left; }
            td.number { text-align: right; font-variant-numeric: tabular-nums; }
            .note { color: #555; font-size: 0.9em; }
            </style>
            </head>
            <body>
            <h1>juice-run plan</h1>
            <p>\(settings.days) days × \(settings.runs) runs, \(PlanReport.demandPhrase(settings)), seed \(settings.seed). Intervals are 95% confidence intervals: for a share, the Wilson score interval on the days or orders of every run; otherwise for one run's expected figure.</p>

            """
        page += report.historyHTML()
        page += "<h2>On hand at the end of each day, run 1</h2>\n"
        if let sample, !sample.onHand.isEmpty {
            page += onHandChart(sample, book) + "\n"
            page += "<p class=\"note\">▲ a delivery (bought up to a level, or an order arriving); ✕ fruit thrown away.</p>\n"
        } else {
            page += "<p>No days to show.</p>\n"
        }
        page += "<h2>Refused orders per day, all runs</h2>\n" + histogram() + "\n"
        page += "<h2>Service level against the up-to of the limiting fruit</h2>\n"
        if let limitingFruit, !sweep.isEmpty {
            page += "<p>The fruit short on the most days is <b>\(Self.escaped(book.fruits[limitingFruit].id))</b>; each point re-runs the plan "
                + "(the same runs) with that fruit bought up to the level each morning and every other fruit as the book says.</p>\n"
            page += sweepChart() + "\n"
        } else {
            page += "<p>No fruit ran short: there is no limiting fruit to vary.</p>\n"
        }
        page += "<h2>Figures across runs</h2>\n" + figuresTable() + "\n"
        page += "</body>\n</html>\n"
        return page
    }

    // MARK: Charts

    /// The drawing area of every chart, inside its margins.
    private struct Frame {
        let width = 720.0, height = 300.0
        let left = 60.0, right = 20.0, top = 20.0, bottom = 40.0
        var plotWidth: Double { width - left - right }
        var plotHeight: Double { height - top - bottom }
    }

    private func onHandChart(_ sample: PlanTrace, _ book: RecipeBook) -> String {
        let frame = Frame()
        let days = sample.onHand.count
        let highest = max(sample.onHand.flatMap { $0 }.max() ?? 0, 1)
        func x(_ day: Int) -> Double { frame.left + (days == 1 ? 0.5 : Double(day) / Double(days - 1)) * frame.plotWidth }
        func y(_ units: Int) -> Double { frame.top + frame.plotHeight * (1 - Double(units) / Double(highest)) }
        var svg = open(frame, label: "Units on hand at the end of each day of run 1, per fruit")
        svg += axes(frame, xLabel: "day", yLabel: "units", xMax: days - 1, yMax: highest, xFirst: 1)
        // A long run is drawn at most 2,000 points a line: more is no clearer.
        let stride = max(days / 2_000, 1)
        for fruit in book.fruits.indices {
            let colour = Self.palette[fruit % Self.palette.count]
            let dash = fruit / Self.palette.count == 0 ? "" : " stroke-dasharray=\"6 3\""
            let points = Swift.stride(from: 0, to: days, by: stride).map { day in
                "\(Self.format(x(day))),\(Self.format(y(sample.onHand[day][fruit])))"
            }
            svg += "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.5\"\(dash) points=\"\(points.joined(separator: " "))\"/>\n"
            for day in 0..<days where sample.received[day][fruit] > 0 {
                let cx = x(day), cy = y(sample.onHand[day][fruit])
                svg += "<path d=\"M\(Self.format(cx)) \(Self.format(cy - 6)) l4 7 h-8 z\" fill=\"\(colour)\"><title>day \(day + 1): \(sample.received[day][fruit]) \(Self.escaped(book.fruits[fruit].id)) received</title></path>\n"
            }
            for day in 0..<days where sample.wasted[day][fruit] > 0 {
                let cx = x(day), cy = y(sample.onHand[day][fruit])
                svg += "<path d=\"M\(Self.format(cx - 4)) \(Self.format(cy - 4)) l8 8 m0 -8 l-8 8\" stroke=\"\(colour)\" stroke-width=\"2\"><title>day \(day + 1): \(sample.wasted[day][fruit]) \(Self.escaped(book.fruits[fruit].id)) thrown away</title></path>\n"
            }
        }
        svg += legend(frame, book.fruits.map(\.id))
        return svg + "</svg>"
    }

    private func histogram() -> String {
        let frame = Frame()
        var counts: [Int: Int] = [:]
        for run in report.summary.runs {
            for (refused, days) in run.daysByRefusals { counts[refused, default: 0] += days }
        }
        guard let most = counts.keys.max() else { return "<p>No days.</p>" }
        // At most 40 bars: wide counts are put in buckets.
        let width = max((most + 1 + 39) / 40, 1)
        var buckets = [Int](repeating: 0, count: most / width + 1)
        for (refused, days) in counts { buckets[refused / width] += days }
        let tallest = max(buckets.max() ?? 0, 1)
        var svg = open(frame, label: "How many days had each number of refused orders, over all runs")
        svg += axes(frame, xLabel: width == 1 ? "refused orders in a day" : "refused orders in a day (buckets of \(width))",
                    yLabel: "days", xMax: nil, yMax: tallest)
        let barWidth = frame.plotWidth / Double(buckets.count)
        for (index, days) in buckets.enumerated() {
            let height = frame.plotHeight * Double(days) / Double(tallest)
            let from = index * width, to = from + width - 1
            let range = width == 1 ? "\(from)" : "\(from)–\(to)"
            svg += "<rect x=\"\(Self.format(frame.left + Double(index) * barWidth + 1))\" y=\"\(Self.format(frame.top + frame.plotHeight - height))\" "
                + "width=\"\(Self.format(max(barWidth - 2, 1)))\" height=\"\(Self.format(height))\" fill=\"#1b6ca8\"><title>\(range) refused: \(days) days</title></rect>\n"
            if buckets.count <= 20 || index % 5 == 0 {
                svg += "<text x=\"\(Self.format(frame.left + (Double(index) + 0.5) * barWidth))\" y=\"\(Self.format(frame.top + frame.plotHeight + 15))\" text-anchor=\"middle\">\(from)</text>\n"
            }
        }
        return svg + "</svg>"
    }

    private func sweepChart() -> String {
        let frame = Frame()
        let highest = max(sweep.map(\.level).max() ?? 0, 1)
        func x(_ level: Int) -> Double { frame.left + Double(level) / Double(highest) * frame.plotWidth }
        func y(_ share: Double) -> Double { frame.top + frame.plotHeight * (1 - min(max(share, 0), 1)) }
        var svg = open(frame, label: "Cycle service level against the limiting fruit's up-to, with 95% intervals")
        svg += axes(frame, xLabel: "up-to of the limiting fruit", yLabel: "cycle service level", xMax: highest, yMax: nil)
        svg += "<polyline fill=\"none\" stroke=\"#1b6ca8\" stroke-width=\"1.5\" points=\"\(sweep.map { "\(Self.format(x($0.level))),\(Self.format(y($0.service.mean)))" }.joined(separator: " "))\"/>\n"
        for point in sweep {
            if let low = point.service.low, let high = point.service.high {
                svg += "<line x1=\"\(Self.format(x(point.level)))\" x2=\"\(Self.format(x(point.level)))\" y1=\"\(Self.format(y(low)))\" y2=\"\(Self.format(y(high)))\" stroke=\"#1b6ca8\"/>\n"
            }
            svg += "<circle cx=\"\(Self.format(x(point.level)))\" cy=\"\(Self.format(y(point.service.mean)))\" r=\"3\" fill=\"#1b6ca8\"><title>up-to \(point.level): \(PlanReport.fixed(point.service.mean, 4))</title></circle>\n"
        }
        return svg + "</svg>"
    }

    private func open(_ frame: Frame, label: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(frame.width)) \(Int(frame.height))\" width=\"\(Int(frame.width))\" height=\"\(Int(frame.height))\" role=\"img\" aria-label=\"\(Self.escaped(label))\">\n"
    }

    /// Both axes, five grid lines with values, and the axes' names. A nil
    /// maximum on y means shares (0 to 1); on x, labels drawn by the caller.
    private func axes(_ frame: Frame, xLabel: String, yLabel: String, xMax: Int?, yMax: Int?, xFirst: Int = 0) -> String {
        var svg = ""
        for step in 0...4 {
            let share = Double(step) / 4
            let yPosition = frame.top + frame.plotHeight * (1 - share)
            svg += "<line class=\"grid\" x1=\"\(Self.format(frame.left))\" x2=\"\(Self.format(frame.left + frame.plotWidth))\" y1=\"\(Self.format(yPosition))\" y2=\"\(Self.format(yPosition))\"/>\n"
            let value = yMax.map { String(Int((Double($0) * share).rounded())) } ?? PlanReport.fixed(share, 2)
            svg += "<text x=\"\(Self.format(frame.left - 6))\" y=\"\(Self.format(yPosition + 4))\" text-anchor=\"end\">\(value)</text>\n"
            if let xMax {
                let xPosition = frame.left + frame.plotWidth * share
                svg += "<text x=\"\(Self.format(xPosition))\" y=\"\(Self.format(frame.top + frame.plotHeight + 15))\" text-anchor=\"middle\">\(xFirst + Int((Double(xMax) * share).rounded()))</text>\n"
            }
        }
        svg += "<line class=\"axis\" x1=\"\(Self.format(frame.left))\" x2=\"\(Self.format(frame.left))\" y1=\"\(Self.format(frame.top))\" y2=\"\(Self.format(frame.top + frame.plotHeight))\"/>\n"
        svg += "<line class=\"axis\" x1=\"\(Self.format(frame.left))\" x2=\"\(Self.format(frame.left + frame.plotWidth))\" y1=\"\(Self.format(frame.top + frame.plotHeight))\" y2=\"\(Self.format(frame.top + frame.plotHeight))\"/>\n"
        svg += "<text x=\"\(Self.format(frame.left + frame.plotWidth / 2))\" y=\"\(Self.format(frame.height - 6))\" text-anchor=\"middle\">\(Self.escaped(xLabel))</text>\n"
        svg += "<text transform=\"translate(14 \(Self.format(frame.top + frame.plotHeight / 2))) rotate(-90)\" text-anchor=\"middle\">\(Self.escaped(yLabel))</text>\n"
        return svg
    }

    private func legend(_ frame: Frame, _ names: [String]) -> String {
        var svg = ""
        for (index, name) in names.prefix(16).enumerated() {
            let x = frame.left + 10 + Double(index % 4) * 160, y = frame.top + 12 + Double(index / 4) * 16
            svg += "<rect x=\"\(Self.format(x))\" y=\"\(Self.format(y - 8))\" width=\"12\" height=\"4\" fill=\"\(Self.palette[index % Self.palette.count])\"/>"
            svg += "<text x=\"\(Self.format(x + 16))\" y=\"\(Self.format(y))\">\(Self.escaped(name))</text>\n"
        }
        return svg
    }

    // MARK: The table

    private func figuresTable() -> String {
        var rows = "<table>\n<thead><tr><th>figure</th><th>fruit</th><th>mean</th><th>95% interval</th></tr></thead>\n<tbody>\n"
        for figure in report.figures() {
            let mean = figure.estimate.map { PlanReport.mean($0, places: figure.places) } ?? "unknown"
            let interval = figure.estimate.map { PlanReport.interval($0, places: figure.places) } ?? ""
            rows += "<tr><td>\(Self.escaped(figure.name))</td><td>\(Self.escaped(figure.fruit))</td>"
                + "<td class=\"number\">\(Self.escaped(mean))</td><td class=\"number\">\(Self.escaped(interval))</td></tr>\n"
        }
        return rows + "</tbody>\n</table>"
    }

    // MARK: Text

    /// Text safe in HTML content and attribute values (`String.htmlEscaped`).
    static func escaped(_ text: String) -> String { text.htmlEscaped }

    static func format(_ value: Double) -> String { PlanReport.fixed(value, 1) }
}
