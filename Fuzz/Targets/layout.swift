// SPDX-License-Identifier: MIT
// libFuzzer entry point: the layout validator fed arbitrary node buffers.
// What is done with each input: FuzzHarness.layout in
// Tests/hudhostTests/FuzzHarness.swift, which Fuzz/run.sh compiles into
// this fuzzer and FuzzRegressionTests replays saved inputs through.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    do {
        try FuzzHarness.run("layout", Array(UnsafeBufferPointer(start: data, count: size)))
    } catch {
        fatalError("layout: \(error)")
    }
    return 0
}
