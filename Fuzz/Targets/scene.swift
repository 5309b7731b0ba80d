// SPDX-License-Identifier: MIT
// libFuzzer entry point: scene files (Docs/SCENES.md) from raw bytes to pixels.
// What is done with each input: FuzzHarness.scene in
// Tests/hudhostTests/FuzzHarness.swift, which Fuzz/run.sh compiles into
// this fuzzer and FuzzRegressionTests replays saved inputs through.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    do {
        try FuzzHarness.run("scene", Array(UnsafeBufferPointer(start: data, count: size)))
    } catch {
        fatalError("scene: \(error)")
    }
    return 0
}
