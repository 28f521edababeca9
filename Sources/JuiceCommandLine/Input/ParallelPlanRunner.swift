import JuiceSimulation
/// A plan's runs on every core (`ParallelFiles`), results in run order.
public struct ParallelPlanRunner: PlanRunner {
    public init() {}

    public func results(of plan: PlanRun, runs: Int) -> [Result<PlanRunResult, PlanError>] {
        var results: [Result<PlanRunResult, PlanError>] = []
        results.reserveCapacity(max(runs, 0))
        ParallelFiles.forEach(
            Array(stride(from: 1, through: runs, by: 1)), inParallel: runs > 1,
            worker: {},
            work: { (_: inout Void, number: Int) -> Result<PlanRunResult, PlanError> in
                do throws(PlanError) { return .success(try plan.run(number)) } catch { return .failure(error) }
            },
            { (result: Result<PlanRunResult, PlanError>) -> Bool in
                results.append(result)
                return true
            }
        )
        return results
    }
}
