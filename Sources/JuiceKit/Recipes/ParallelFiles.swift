import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs one function over many files on every core, handing the results
/// back in file order.
///
/// A file's own work (libyaml's parse, the node arena, collecting its
/// declarations) is most of a lint run and needs no other file, so it runs on
/// all cores, while the caller consumes the results one by one, in the order
/// given, on its own thread as they come in: the cross-file step (the merge of
/// declarations) overlaps the work on later files and sees exactly what a
/// sequential run would. Each file's bytes are freed once its work is done.
enum ParallelFiles {
    /// Below this many bytes in all, threads cost more than they save (the
    /// canonical book is a few hundred bytes and must start in milliseconds).
    static let minimumTotalBytes = 256 * 1024

    /// Calls `body` with `work(&state, file)` for each file, in order; the
    /// `work` runs in parallel when the files hold `parallelAbove` bytes or
    /// more. Each thread makes one `state` with `worker` and passes it to
    /// every `work` it runs, for buffers worth keeping from file to file.
    ///
    /// The files are taken over, so a caller that hands over the only copy
    /// (`juice-lint` outside the text format, which needs no source lines)
    /// frees each file's text as it is done rather than at the end.
    static func forEach<State, Result: Sendable>(
        _ files: consuming [SourceFile], parallelAbove: Int = minimumTotalBytes,
        worker: @escaping @Sendable () -> State,
        work: @escaping @Sendable (inout State, SourceFile) -> Result,
        _ body: (Result) -> Void
    ) {
        let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let totalBytes = files.reduce(0) { $0 + $1.bytes.count }
        guard cores > 1, files.count > 1, totalBytes >= parallelAbove else {
            var files = files
            var state = worker()
            for index in files.indices {
                let file = files[index]
                files[index] = SourceFile(path: file.path, bytes: [])
                body(work(&state, file))
            }
            return
        }
        let count = files.count
        let slots = Slots<Result>(consume files)
        DispatchQueue.global().async {
            // One iteration per core, each taking the next file until none is
            // left: files of uneven size still keep every core busy.
            DispatchQueue.concurrentPerform(iterations: min(cores, count)) { _ in
                var state = worker()
                while let index = slots.claim() {
                    slots.store(work(&state, slots.takeFile(index)), at: index)
                }
            }
        }
        for index in 0..<count {
            body(slots.waitAndTake(index))
        }
    }

    /// Each file and its result. A slot's file is taken and its result stored
    /// by the one thread that claimed it; the result is read after that
    /// thread signals the slot's semaphore, which is the synchronisation the
    /// unchecked `Sendable` relies on.
    private final class Slots<Result>: @unchecked Sendable {
        private let files: UnsafeMutableBufferPointer<SourceFile>
        private let results: UnsafeMutableBufferPointer<Result?>
        private let ready: [DispatchSemaphore]
        /// The next file to claim, behind `lock`.
        private var next = 0
        private let lock = DispatchSemaphore(value: 1)

        init(_ files: consuming [SourceFile]) {
            self.files = .allocate(capacity: files.count)
            _ = self.files.initialize(from: files)
            results = .allocate(capacity: files.count)
            results.initialize(repeating: nil)
            ready = files.map { _ in DispatchSemaphore(value: 0) }
        }

        deinit {
            files.deinitialize()
            files.deallocate()
            results.deinitialize()
            results.deallocate()
        }

        /// The index of a file no thread has claimed yet, or nil when all are.
        func claim() -> Int? {
            lock.wait()
            defer { lock.signal() }
            guard next < files.count else { return nil }
            defer { next += 1 }
            return next
        }

        /// The file, leaving only its path behind.
        func takeFile(_ index: Int) -> SourceFile {
            let file = files[index]
            files[index] = SourceFile(path: file.path, bytes: [])
            return file
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
