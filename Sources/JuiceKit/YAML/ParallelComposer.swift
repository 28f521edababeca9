import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Composes many files on every core, handing the results back in file order.
///
/// Composing (libyaml's parse and the node arena) is most of a lint run's work
/// and each file's is independent of every other's, so files are composed in
/// small batches in parallel while everything with cross-file state (the
/// declaration collector, the linker) stays sequential and sees the files in
/// the order given. Output is therefore identical to composing one by one.
/// A batch holds only a few files' nodes at a time, so memory stays flat.
enum ParallelComposer {
    /// Below this many bytes in all, threads cost more than they save (the
    /// canonical book is a few hundred bytes and must start in milliseconds).
    static let minimumTotalBytes = 256 * 1024

    /// Calls `body` with each file's composition, in order; in parallel when
    /// the files hold `parallelAbove` bytes or more in all.
    ///
    /// Each file's bytes are dropped from `files` once composed, so a caller
    /// that hands over the only copy (`juice-lint` outside the text format,
    /// which needs no source lines) frees them as it goes rather than holding
    /// the whole book's text until the end.
    static func forEach(
        releasing files: inout [SourceFile], parallelAbove: Int = minimumTotalBytes,
        _ body: (YAMLComposer.Result) -> Void
    ) {
        let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let totalBytes = files.reduce(0) { $0 + $1.bytes.count }
        let parallel = cores > 1 && files.count > 1 && totalBytes >= parallelAbove
        let batchSize = parallel ? cores : 1
        var start = 0
        while start < files.count {
            let end = min(start + batchSize, files.count)
            let batch = Array(files[start..<end])
            for index in start..<end { files[index] = SourceFile(path: files[index].path, bytes: []) }
            let slots = Slots(count: batch.count)
            if parallel {
                DispatchQueue.concurrentPerform(iterations: batch.count) { [batch] index in
                    slots.store(YAMLComposer.compose(bytes: batch[index].bytes, file: batch[index].path), at: index)
                }
            } else {
                slots.store(YAMLComposer.compose(bytes: batch[0].bytes, file: batch[0].path), at: 0)
            }
            for index in batch.indices { body(slots.take(index)) }
            slots.deallocate()
            start = end
        }
    }

    /// One result slot per file of a batch. Each slot is written by exactly one
    /// iteration and read only after `concurrentPerform` returns, which is the
    /// synchronisation the unchecked `Sendable` relies on.
    private final class Slots: @unchecked Sendable {
        private let storage: UnsafeMutableBufferPointer<YAMLComposer.Result?>

        init(count: Int) {
            storage = .allocate(capacity: count)
            storage.initialize(repeating: nil)
        }

        func store(_ result: YAMLComposer.Result, at index: Int) { storage[index] = result }

        func take(_ index: Int) -> YAMLComposer.Result {
            defer { storage[index] = nil }
            return storage[index] ?? YAMLComposer.Result(documents: [], diagnostics: [])
        }

        func deallocate() {
            storage.deinitialize()
            storage.deallocate()
        }
    }
}
