// SPDX-License-Identifier: MIT
import Testing
@testable import HudRegistry
import HudTestSupport

/// What the sandboxed child is made of: `hudsandbox` links no shared
/// object it does not use (each one is mapped and relocated in every
/// child it starts), and reads its Landlock paths from its own mappings.
struct SandboxHelperLinkTests {
    /// The Landlock read rules come from the child's own mappings: each
    /// file once, in order, never a deleted one (a memfd), never an
    /// anonymous or special mapping.
    @Test func theMappedFilesAreEachListedOnceWithoutDeletedOnes() {
        let maps = """
            55d0c0000000-55d0c0100000 r--p 00000000 fe:00 11 /opt/hud/libexec/hud/hudsandbox
            55d0c0100000-55d0c0200000 r-xp 00100000 fe:00 11 /opt/hud/libexec/hud/hudsandbox
            55d0c1000000-55d0c1021000 rw-p 00000000 00:00 0                          [heap]
            7f0000000000-7f0000100000 rw-s 00000000 00:01 7 /memfd:hud-region (deleted)
            7f0000200000-7f0000300000 r--p 00000000 fe:00 21 /usr/lib/x86_64-linux-gnu/libc.so.6
            7f0000300000-7f0000400000 r-xp 00100000 fe:00 21 /usr/lib/x86_64-linux-gnu/libc.so.6
            7f0000400000-7f0000500000 r--p 00000000 fe:00 31 /opt/swift/usr/lib/swift/linux/libswiftCore.so
            7f0000500000-7f0000600000 r--p 00000000 fe:00 21 /usr/lib/x86_64-linux-gnu/libc.so.6
            7f0000600000-7f0000700000 rw-p 00000000 00:00 0
            7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0                          [stack]
            7ffd00100000-7ffd00102000 r-xp 00000000 00:00 0                          [vdso]
            """
        #expect(SandboxLayers.mappedFiles(Array(maps.utf8)) == [
            "/opt/hud/libexec/hud/hudsandbox", "/usr/lib/x86_64-linux-gnu/libc.so.6", "/opt/swift/usr/lib/swift/linux/libswiftCore.so",
        ])
        #expect(SandboxLayers.mappedFiles([]) == [])
    }

    /// `hudsandbox` uses no concurrency, regex or Dispatch: its modules are
    /// built without the implicit `_Concurrency` and `_StringProcessing`
    /// imports (Package.swift, `lean`). A module that loses the flags, or
    /// code that needs those libraries, brings them back into every child.
    /// (A ThreadSanitizer build, `-sanitize=thread`, has libdispatch and
    /// BlocksRuntime in every executable's `DT_NEEDED`, so there those two
    /// are allowed.)
    @Test func theSandboxHelperLinksNoConcurrencyOrRegexLibrary() throws {
        let helper = FixturePlugins.binDirectory + "/hudsandbox"
        let needed = try ElfMetadataReader.dynamicEntries(path: helper).needed
        #expect(needed.contains("libswiftCore.so"), "\(needed)")
        let threadSanitizer = SearchPaths.secureEnvironment("TSAN_OPTIONS") != nil
        for unwanted in ["libswift_Concurrency.so", "libswift_StringProcessing.so", "libswift_RegexParser.so"]
            + (threadSanitizer ? [] : ["libdispatch.so", "libBlocksRuntime.so"]) {
            #expect(!needed.contains(unwanted), "\(helper) links \(unwanted): \(needed)")
        }
    }
}
