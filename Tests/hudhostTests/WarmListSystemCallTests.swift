// SPDX-License-Identifier: MIT
import Foundation
import Testing
import HudTestSupport

/// The warm `hudhost list` path, as the kernel sees it: the
/// registry cache is opened and read once, and each plugin file costs one
/// `stat`-family call (relative to its listed directory's descriptor) and
/// is never opened. Traced with strace (Debian `strace`).
struct WarmListSystemCallTests {
    @Test(Requirement.tools("strace", install: "apt-get install strace; .ci/run installs it"))
    func aWarmListOpensTheCacheOnceAndStatsEachPluginOnce() throws {
        try Requirement.require(Requirement.installed("strace"), "strace")
        let directory = try DiscoveryFixtures.directory("warm-syscalls", discovery: ["meta_good", "meta_mismatch"])
        let cache = try FixturePlugins.makeScratchDirectory("warm-syscalls-cache")
        let cold = try DiscoveryFixtures.hudhost(["list", "--json"], path: directory, cache: cache)
        #expect(cold.status == 0, "\(cold.transcript)")
        let trace = cache + "/trace.txt"
        // The same run as `DiscoveryFixtures.hudhost`, under strace.
        let output = try FixturePlugins.run(["env", "HOME=" + FixturePlugins.workDirectory + "/no-home", "HUD_RENDERER_PATH=" + directory,
                                             "XDG_CACHE_HOME=" + cache, "HUD_SCAN_TIMEOUT=2", "NO_COLOR=1",
                                             "/usr/bin/strace", "-f", "-qq", "-o", trace, "-e", "trace=%file,%desc", HudHost.path, "list", "--json"])
        #expect(output.status == 0, "\(output.transcript)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        let cacheOpens = lines.filter { $0.contains("open") && $0.contains(cache + "/hud/registry-") && !$0.contains(".json.") }
        #expect(cacheOpens.count == 1, "\(cacheOpens)")
        for plugin in ["meta_good.so", "meta_mismatch.so"] {
            // By path, or by name relative to its directory's descriptor.
            let touching = lines.filter { $0.contains("/" + plugin + "\"") || $0.contains("\"" + plugin + "\"") }
            #expect(touching.count == 1, "\(plugin): \(touching)")
            #expect(touching.allSatisfy { $0.contains("stat") && !$0.contains("open") }, "\(plugin) was opened on a warm run: \(touching)")
        }
    }
}
