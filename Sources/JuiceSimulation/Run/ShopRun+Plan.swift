@_spi(Internals) import JuiceSupport
import JuiceSource
import JuiceBook
import JuiceShop
/// `juice-run plan`: the settings from the options, the runs from the
/// runner, and the report in the asked format (docs/planning.md).
extension ShopRun {
    func plan(_ book: RecipeBook, weights: [UInt64]?) throws(RunError) -> ToolExitCode {
        guard !book.menu.isEmpty else { throw .planNeedsMenu }
        // A destination that cannot take the report is found now, not after the runs.
        if let path = options.reportPath, let reason = environment.saveProblem(path) { throw .reportDestination(path, reason: reason) }
        var settings = PlanSettings()
        settings.days = options.days ?? settings.days
        settings.runs = options.runs ?? settings.runs
        settings.ordersPerDay = options.ordersPerDay ?? settings.ordersPerDay
        settings.demand = options.demand ?? settings.demand
        settings.weights = weights
        if let path = options.historyPath {
            let history = try loadHistory(path, book: book)
            settings.history = history
            if !history.unknownItems.isEmpty {
                streams.errors.line("juice-run: warning: \(PlanReport.unknownItemsNote(history))")
                streams.errors.flush()
            }
        }
        settings.seed = options.seed ?? OrderGenerator.freshSeed()
        let results: [PlanRunResult]
        do {
            results = try planRunner.runs(of: PlanRun(book: book, settings: settings), count: settings.runs)
        } catch {
            throw .plan(error)
        }
        var target: (service: Double, outcome: ParLevelSearch.Outcome)?
        if let service = options.targetService {
            do {
                target = (service, try ParLevelSearch(book: book, settings: settings, target: service, runner: planRunner).run())
            } catch {
                throw .plan(error)
            }
        }
        let report = PlanReport(
            summary: PlanSummary(settings: settings, runs: results, fruitCount: book.fruits.count), book: book, target: target
        )
        if let path = options.reportPath {
            let page = try htmlReport(report, book: book, settings: settings)
            do {
                try FileWriter.write(page, to: path)
            } catch {
                throw .reportNotWritten(error)
            }
        }
        switch options.format {
        case .text: for line in report.text() { streams.output.line(line) }
        case .json: streams.output.line(report.json())
        case .csv: for line in report.csv() { streams.output.line(line) }
        }
        streams.output.flush()
        return .success
    }

    /// `--history`'s export, read through the environment and learnt from.
    private func loadHistory(_ path: String, book: RecipeBook) throws(RunError) -> DemandHistory {
        let name = RecipeSources.displayPath(path)
        let input: ScriptInput
        do {
            input = try environment.openScript(path, name: name)
        } catch {
            switch error {
            case .scriptNotFound: throw .historyUnreadable(name, reason: "no such file or directory")
            case .scriptUnreadable(_, let reason): throw .historyUnreadable(name, reason: reason)
            case .scriptIsDirectory: throw .historyUnreadable(name, reason: "it is a directory")
            default: throw error
            }
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count: Int?
            do {
                count = try buffer.withUnsafeMutableBytes { try input.source.read(into: $0) }
            } catch {
                throw .historyUnreadable(name, reason: "\(error)")
            }
            guard let count else { continue }  // nothing yet (a pipe): wait again
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[0..<min(count, buffer.count)])
        }
        let start = options.start.flatMap(JournalExport.dayNumber)
        do throws(DemandHistory.Problem) {
            let entries: [JournalExport.ExportedEntry]
            do {
                entries = try JournalExport.parse(String(decoding: bytes, as: UTF8.self))
            } catch {
                throw .read(error)
            }
            return try DemandHistory(entries: entries, book: book, shop: options.historyShop, start: start)
        } catch {
            throw .history(name, error)
        }
    }

    /// The HTML report: run 1 day by day, and the service level swept over
    /// the up-to of the fruit short on the most days (the same runs at
    /// each level, every other fruit as the book says).
    private func htmlReport(_ report: PlanReport, book: RecipeBook, settings: PlanSettings) throws(RunError) -> String {
        let plan = PlanRun(book: book, settings: settings)
        let sample: PlanTrace?
        do { sample = try plan.run(1, trace: true).trace } catch { throw .plan(error) }
        let shares = report.summary.fruits.map(\.shortDayShare.mean)
        var limiting: Int?
        for (fruit, share) in shares.enumerated() where share > 0 && share > (limiting.map { shares[$0] } ?? 0) { limiting = fruit }
        var sweep: [PlanHTMLReport.SweepPoint] = []
        if let fruit = limiting {
            let declared = book.fruits[fruit]
            let pack = max(declared.pack, 1)
            // From 0 to twice the larger of the book's level and two days' expected use.
            let use = ParLevelSearch.expectedDailyUse(book, settings)[fruit]
            let base = max(declared.restock?.upTo ?? book.openingStock[fruit], Int(min(2 * use, 1e12).rounded(.up)), pack)
            var levels: [Int] = []
            for step in 0...10 {
                let wanted = base / 5 * step + (base % 5) * step / 5
                let level = (wanted + pack - 1) / pack * pack
                if levels.last != level { levels.append(level) }
            }
            for level in levels {
                var restocks = book.fruits.map(\.restock)
                restocks[fruit] = RecipeBook.Restock(upTo: level)
                let runs: [PlanRunResult]
                do {
                    runs = try planRunner.runs(of: PlanRun(book: book, settings: settings, restocks: restocks), count: settings.runs)
                } catch {
                    throw .plan(error)
                }
                sweep.append(.init(level: level, service: PlanSummary.cycleServiceLevel(runs)))
            }
        }
        return PlanHTMLReport(report: report, sample: sample, limitingFruit: limiting, sweep: sweep).html()
    }
}
