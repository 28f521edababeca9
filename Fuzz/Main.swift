// The one entry libFuzzer calls. The four targets are one binary,
// `.build/fuzz/juice-fuzz`; `recipe-bytes`, `script-bytes`, `pair` and
// `lsp-bytes` beside it are symbolic links to it, and the name a run was
// started by picks the target, as busybox picks its tool. Each target used to
// be its own swiftc job over every library layer under AddressSanitizer: four
// compilations of the same sources, 8 min 45 s on this project's 2-core
// machine (16 min of CPU). One binary compiles them once (Makefile, `fuzz-build`).

import Foundation

/// A target: one input in, 0 out (libFuzzer's convention; a finding traps).
typealias FuzzTarget = @Sendable (UnsafePointer<UInt8>, Int) -> CInt

/// The targets by the name a run is started by.
let fuzzTargets: [String: FuzzTarget] = [
    "recipe-bytes": fuzzRecipeBytes,
    "script-bytes": fuzzScriptBytes,
    "pair": fuzzPair,
    "lsp-bytes": fuzzLanguageServerBytes,
]

/// Chosen once, from the last path component of the program's name. An
/// unknown name is a build or usage mistake, not input, so it stops the run
/// before the first input with the names that work.
let chosenTarget: FuzzTarget = {
    let name = URL(fileURLWithPath: CommandLine.arguments.first ?? "").lastPathComponent
    guard let target = fuzzTargets[name] else {
        let known = fuzzTargets.keys.sorted().joined(separator: ", ")
        FileHandle.standardError.write(Data("juice-fuzz: started as '\(name)'; run it through one of its links: \(known)\n".utf8))
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    chosenTarget(data, size)
}
