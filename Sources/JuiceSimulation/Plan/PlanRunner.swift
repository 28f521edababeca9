/// How a plan's runs are carried out: one after another here; the command
/// line hands in one that spreads them over every core
/// (`ParallelPlanRunner`). Either way the results come back in run order,
/// and each run depends only on the seed and its number, so the output is
/// the same.
public protocol PlanRunner: Sendable {
    func results(of plan: PlanRun, runs: Int) -> [Result<PlanRunResult, PlanError>]
}

/// Runs 1 … `runs`, one after another, on the caller's thread.
public struct SequentialPlanRunner: PlanRunner {
    public init() {}

    public func results(of plan: PlanRun, runs: Int) -> [Result<PlanRunResult, PlanError>] {
        (0..<max(runs, 0)).map { index in
            do throws(PlanError) { return .success(try plan.run(index + 1)) } catch { return .failure(error) }
        }
    }
}

extension PlanRunner {
    /// Runs 1 … `count` of `plan`, in run order, or the first run's error in
    /// run order: a plan's figures need every run, so one failure ends it,
    /// and the one reported does not depend on which core finished first.
    func runs(of plan: PlanRun, count: Int) throws(PlanError) -> [PlanRunResult] {
        var runs: [PlanRunResult] = []
        for result in results(of: plan, runs: count) {
            switch result {
            case .success(let run): runs.append(run)
            case .failure(let error): throw error
            }
        }
        return runs
    }
}
