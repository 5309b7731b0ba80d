// SPDX-License-Identifier: MIT
// libFuzzer entry point: the registry cache file (Docs/DISCOVERY.md), its fast reader against the general parser.
// What is done with each input: FuzzHarness.cache in
// Tests/hudhostTests/FuzzHarness.swift, which Fuzz/run.sh compiles into
// this fuzzer and FuzzRegressionTests replays saved inputs through.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    do {
        try FuzzHarness.run("cache", Array(UnsafeBufferPointer(start: data, count: size)))
    } catch {
        fatalError("cache: \(error)")
    }
    return 0
}
