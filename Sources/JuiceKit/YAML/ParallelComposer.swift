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
    static func forEach(
        _ files: [SourceFile], parallelAbove: Int = minimumTotalBytes, _ body: (SourceFile, YAMLComposer.Result) -> Void
    ) {
        let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let totalBytes = files.reduce(0) { $0 + $1.bytes.count }
        guard cores > 1, files.count > 1, totalBytes >= parallelAbove else {
            for file in files { body(file, YAMLComposer.compose(bytes: file.bytes, file: file.path)) }
            return
        }
        let batchSize = cores
        var start = 0
        while start < files.count {
            let batch = Array(files[start..<min(start + batchSize, files.count)])
            let slots = Slots(count: batch.count)
            DispatchQueue.concurrentPerform(iterations: batch.count) { index in
                slots.store(YAMLComposer.compose(bytes: batch[index].bytes, file: batch[index].path), at: index)
            }
            for (index, file) in batch.enumerated() { body(file, slots.take(index)) }
            slots.deallocate()
            start += batchSize
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
