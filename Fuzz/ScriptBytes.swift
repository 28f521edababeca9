// libFuzzer target `script-bytes`: the input is an order script, run against
// the canonical book with both reporters.

func fuzzScriptBytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    runScript(inputBytes(data, size), against: canonicalBook)
    return 0
}
