import Dispatch
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

    /// `work` started on another core, when `inParallel` and there is one,
    /// for its result to be taken later (`Background.result`); run here and
    /// now when not (a small book's work costs less than waking a thread).
    static func background<Result: Sendable>(
        inParallel: Bool = true, _ work: @escaping @Sendable () -> Result
    ) -> Background<Result> {
        let background = Background<Result>()
        guard inParallel, cores > 1 else {
            background.store(work())
            return background
        }
        DispatchQueue.global().async { background.store(work()) }
        return background
    }

    /// A result computed on another thread: stored once, then read after
    /// the semaphore says it is there, which is the synchronisation the
    /// unchecked `Sendable` relies on.
    final class Background<Result: Sendable>: @unchecked Sendable {
        private var value: Result?
        private let ready = DispatchSemaphore(value: 0)

        fileprivate init() {}

        fileprivate func store(_ result: Result) {
            value = result
            ready.signal()
        }

        /// Waits for the work to end and hands back what it returned.
        func result() -> Result {
            ready.wait()
            defer { ready.signal() }
            // `store` writes the value before it signals, so it is never nil here.
            guard let value else { preconditionFailure("background result signalled but not stored") }
            return value
        }
    }

    /// Each item and its result. An item is taken and its result stored by
    /// the one thread that claimed it; the result is read after that thread
    /// signals the slot's semaphore, which is the synchronisation the
    /// unchecked `Sendable` relies on.
    private final class Slots<Item, Result>: @unchecked Sendable {
        private let items: UnsafeMutablePointer<Item>
        private let results: UnsafeMutableBufferPointer<Result?>
        private let ready: [DispatchSemaphore]
        private let count: Int
        /// The next item to claim, and whether to stop, behind `lock`.
        /// Items before `next` have been moved out; the rest are still here.
        private var next = 0
        private var stopped = false
        private let lock = DispatchSemaphore(value: 1)

        init(_ items: consuming [Item]) {
            count = items.count
            let storage = UnsafeMutablePointer<Item>.allocate(capacity: count)
            items.withUnsafeBufferPointer { source in
                if let base = source.baseAddress { storage.initialize(from: base, count: source.count) }
            }
            self.items = storage
            results = .allocate(capacity: count)
            results.initialize(repeating: nil)
            ready = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        }

        deinit {
            (items + next).deinitialize(count: count - next)
            items.deallocate()
            results.deinitialize()
            results.deallocate()
        }

        /// The index of an item no thread has claimed yet, or nil when all
        /// are claimed or the caller has stopped.
        func claim() -> Int? {
            lock.wait()
            defer { lock.signal() }
            guard next < count, !stopped else { return nil }
            defer { next += 1 }
            return next
        }

        func stop() {
            lock.wait()
            stopped = true
            lock.signal()
        }

        /// Moves a claimed item out.
        func takeItem(_ index: Int) -> Item {
            (items + index).move()
        }

        func store(_ result: Result, at index: Int) {
            results[index] = result
            ready[index].signal()
        }

        func waitAndTake(_ index: Int) -> Result {
            ready[index].wait()
            defer { results[index] = nil }
            // `store` writes the slot before it signals, so it is never empty here.
            guard let result = results[index] else { preconditionFailure("result \(index) signalled but not stored") }
            return result
        }
    }
}
