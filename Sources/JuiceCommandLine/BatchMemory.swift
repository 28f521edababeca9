#if canImport(Glibc)
import Glibc
#endif

/// Serves blocks of up to 32 MiB from the heap, for a run that loads a big
/// book once and ends (a lint run, not the language server, which lives on
/// and should hand memory back).
///
/// By default glibc gives each block of 128 KiB or more its own mapping and
/// unmaps it when it is freed, raising that bound only as blocks are freed.
/// A big book's load and link make and drop many such blocks (each file's
/// lists, each name look-up's edges, the link's tables): each new mapping
/// is paid for again in page faults, and each unmapping stops the other
/// core to flush its address cache. From the heap, freed pages are used
/// again. Measured against the default (medians of 11, interleaved):
/// lint-single 268 → 259 ms, lint-clean 227 → 219 ms, lint-deep 189 → 181
/// ms, lint-unused as JSON 249 → 245 ms; peak RSS 99 → 105 MB, 89 MB as
/// it was, 72 → 86 MB and 105 → 117 MB: freed blocks wait for reuse.
///
/// `mallopt` is glibc's and not in Swift's view of it, so it is looked up
/// by name; elsewhere (another C library, macOS) nothing changes.
public func keepLargeBlocksOnTheHeap() {
    #if canImport(Glibc)
    typealias MallocOption = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
    let mallopt = unsafeBitCast(symbol, to: MallocOption.self)
    /// `M_MMAP_THRESHOLD` in glibc's `<malloc.h>`.
    let mmapThreshold: Int32 = -3
    _ = mallopt(mmapThreshold, 32 << 20)
    #endif
}
