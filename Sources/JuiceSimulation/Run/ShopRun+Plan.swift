@_spi(Internals) import JuiceSupport
import JuiceBook
/// `juice-run plan`: the settings from the options, the runs from the
/// runner, and the report in the asked format (docs/planner.md).
extension ShopRun {
    func plan(_ book: RecipeBook, weights: [UInt64]?) throws(RunError) -> ToolExitCode {
        guard !book.menu.isEmpty else { throw .planNeedsMenu }
        var settings = PlanSettings()
        settings.days = options.days ?? settings.days
        settings.runs = options.runs ?? settings.runs
        settings.ordersPerDay = options.ordersPerDay ?? settings.ordersPerDay
        settings.demand = options.demand ?? settings.demand
        settings.weights = weights
        settings.seed = options.seed ?? OrderGenerator.freshSeed()
        var results: [PlanRunResult] = []
        for result in planRunner.results(of: PlanRun(book: book, settings: settings), runs: settings.runs) {
            switch result {
            case .success(let run): results.append(run)
            case .failure(let error): throw .plan(error)
            }
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
        switch options.format {
        case .text: for line in report.text() { streams.output.line(line) }
        case .json: streams.output.line(report.json())
        case .csv: for line in report.csv() { streams.output.line(line) }
        }
        streams.output.flush()
        return .success
    }
}
