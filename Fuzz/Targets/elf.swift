// SPDX-License-Identifier: MIT
// libFuzzer entry point: the ELF metadata reader and the .hud_renderers record parser.
// What is done with each input: FuzzHarness.elf in
// Tests/hudhostTests/FuzzHarness.swift, which Fuzz/run.sh compiles into
// this fuzzer and FuzzRegressionTests replays saved inputs through.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    do {
        try FuzzHarness.run("elf", Array(UnsafeBufferPointer(start: data, count: size)))
    } catch {
        fatalError("elf: \(error)")
    }
    return 0
}
