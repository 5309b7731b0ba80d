// SPDX-License-Identifier: MIT
// libFuzzer entry point: the --events grammar (Docs/EVENTS.md), played against a demo shell.
// What is done with each input: FuzzHarness.events in
// Tests/hudhostTests/FuzzHarness.swift, which Fuzz/run.sh compiles into
// this fuzzer and FuzzRegressionTests replays saved inputs through.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    do {
        try FuzzHarness.run("events", Array(UnsafeBufferPointer(start: data, count: size)))
    } catch {
        fatalError("events: \(error)")
    }
    return 0
}
