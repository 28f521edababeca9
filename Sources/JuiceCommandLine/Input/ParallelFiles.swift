import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs one function over many files on every core, handing the results
/// back in file order.
///
/// A file's own work (reading it, libyaml's parse, the node arena, collecting
/// its declarations) is most of a lint run and needs no other file, so it runs
/// on all cores, while the caller consumes the results one by one, in the
/// order given, on its own thread as they come in: the cross-file step (the
/// merge of declarations) overlaps the work on later files and sees exactly
/// what a sequential run would, and the first failure in file order is the
/// one reported, whichever thread met it first.
enum ParallelFiles {
    /// Below this many bytes in all, threads cost more than they save (the
    /// canonical book is a few hundred bytes and must start in milliseconds).
    static let minimumTotalBytes = 256 * 1024

    /// Whether files of `totalBytes` in all are worth spreading over cores.
    static func worthIt(files: Int, totalBytes: Int, parallelAbove: Int = minimumTotalBytes) -> Bool {
        files > 1 && totalBytes >= parallelAbove && cores > 1
    }

    static var cores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Calls `body` with `work(&state, item)` for each item, in order, until
    /// `body` returns false; the `work` runs on every core when `inParallel`.
    /// Each thread makes one `state` with `worker` and passes it to every
    /// `work` it runs, for buffers worth keeping from file to file.
    ///
    /// The items are taken over, and each is dropped once its work is done,
    /// so a caller that hands over the only copy of a file's text frees it as
    /// it goes rather than at the end. After `body` says stop, no new item is
    /// started; work already under way finishes in the background.
    static func forEach<Item: Sendable, State, Result: Sendable>(
        _ items: consuming [Item], inParallel: Bool,
        worker: @escaping @Sendable () -> State,
        work: @escaping @Sendable (inout State, consuming Item) -> Result,
        _ body: (Result) -> Bool
    ) {
        let count = items.count
        let slots = Slots<Item, Result>(consume items)
        guard inParallel, count > 1 else {
            var state = worker()
            while let index = slots.claim() {
                guard body(work(&state, slots.takeItem(index))) else { return }
            }
            return
        }
        DispatchQueue.global().async {
            // One iteration per core, each taking the next item until none is
            // left: files of uneven size still keep every core busy.
            DispatchQueue.concurrentPerform(iterations: min(cores, count)) { _ in
                var state = worker()
                while let index = slots.claim() {
                    slots.store(work(&state, slots.takeItem(index)), at: index)
                }
            }
        }
        for index in 0..<count {
            guard body(slots.waitAndTake(index)) else {
                slots.stop()
                return
            }
        }
    }

    /// Each item and its result. An item is taken, and its result stored,
    /// by the one thread that claimed it; the caller takes a result once that
    /// thread has signalled the slot's semaphore. Everything shared sits
    /// behind one lock: a lock per item costs nothing beside a file's parse.
    private final class Slots<Item: Sendable, Result: Sendable>: Sendable {
        private struct State: ~Copyable {
            var items: [Item?]
            var results: [Result?]
            /// The next item to claim; items before it have been moved out.
            var next = 0
            var stopped = false
        }

        private let state: Mutex<State>
        private let ready: [DispatchSemaphore]

        init(_ items: consuming [Item]) {
            let count = items.count
            state = Mutex(State(items: items.map { Optional($0) }, results: Array(repeating: nil, count: count)))
            ready = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        }

        /// The index of an item no thread has claimed yet, or nil when all
        /// are claimed or the caller has stopped.
        func claim() -> Int? {
            state.withLock { state in
                guard state.next < state.items.count, !state.stopped else { return nil }
                defer { state.next += 1 }
                return state.next
            }
        }

        func stop() {
            state.withLock { $0.stopped = true }
        }

        /// Moves a claimed item out.
        func takeItem(_ index: Int) -> Item {
            // A claimed index is taken once, by the thread that claimed it.
            guard let item = state.withLock({ $0.items[index].take() }) else { preconditionFailure("item \(index) taken twice") }
            return item
        }

        func store(_ result: sending Result, at index: Int) {
            state.withLock { $0.results[index] = result }
            ready[index].signal()
        }

        func waitAndTake(_ index: Int) -> Result {
            ready[index].wait()
            // `store` writes the slot before it signals, so it is never empty here.
            guard let result = state.withLock({ $0.results[index].take() }) else { preconditionFailure("result \(index) signalled but not stored") }
            return result
        }
    }
}
