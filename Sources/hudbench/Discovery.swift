// SPDX-License-Identifier: MIT
import Glibc
import HudRegistry
import HudScenes
import HudSystem

/// Discovery with N = 10, 100, 1,000 and 10,000 generated plugins (and
/// 1,000 without a metadata section), side by side with
/// `gst-inspect-1.0` over the system's GStreamer plugins when it is
/// installed: one C source
/// (Benchmarks/generated-plugin/generated_plugin.c) compiled with a
/// different index per file (one compiled template, the index patched into
/// its id and name), cached under the benchmark's temp
/// directory (keyed on the source and the ABI header, so a header change
/// recompiles them), hard-linked into one directory per N.
///
/// Measured per N, each in a fresh process:
/// - `hudhost list --json` (the bin dir's hudhost), wall time from spawn to
///   reap and peak RSS from wait4's rusage. HOME and XDG_CACHE_HOME point
///   into a private directory, so the run is hermetic and the registry
///   cache can be dropped: "cold" deletes it before every run,
///   "warm" keeps the one the previous run wrote. While hudhost writes no
///   cache, both are the dlopen path and one row is reported.
/// - `RendererRegistry.discover` in a hudbench child: loading every plugin
///   with dlopen, timed in-process (no process start-up).
///
/// `hudhost list` reads each plugin's ELF metadata section
/// without dlopen and keeps a registry cache; the harness finds out which
/// kind of hudhost it runs by looking for the cache after the cold run, so
/// an older hudhost (dlopen path, no cache) is still measured, as one row.
enum Discovery {
    static func measure(options: Options, into report: inout Report) throws {
        let counts = options.quick ? [10] : [10, 100, 1000, 10000]
        let bareCounts = options.quick ? [10] : [1000]
        let runs = options.quick ? 3 : 11
        // The generated plugins are shared between runs (and between two
        // hudbench processes at once: each file appears whole, by rename);
        // what a run writes (caches, listings, registries) is its own.
        let root = Files.cacheDirectory()
        let directories = try generate(counts: counts, under: root)
        let bareDirectories = try generate(counts: bareCounts, under: root, bare: true)
        guard Files.makeDirectories(root), case .success(let run) = SystemCalls.makePrivateDirectory(in: root, prefix: "run-") else {
            throw HarnessError("cannot create a private directory under \(root)")
        }
        defer { Files.removeTree(run) }
        let gst = try peers(runs: runs, root: run, into: &report)
        let hudhost = Files.executableDirectory + "/hudhost"
        let haveHudhost = Files.isExecutable(hudhost)
        if !haveHudhost {
            report.notes.append("discovery: \(hudhost) is missing, so `hudhost list` was not measured; run `swift build -c release` (all products) first")
        }
        let home = run + "/home"
        _ = Files.makeDirectories(home)
        for n in counts {
            let directory = directories[n]!
            if haveHudhost {
                let cache = run + "/xdg-\(n)"
                let environment: [String: String?] = ["HUD_RENDERER_PATH": directory, "HOME": home, "XDG_CACHE_HOME": cache]
                let listing = run + "/list-\(n).json"
                // Cold: fresh process, no cache.
                var cold: [Double] = [], coldRSS = 0
                for _ in 0..<runs {
                    // The registry cache only: hudhost creates $XDG_CACHE_HOME/hud
                    // but never $XDG_CACHE_HOME itself.
                    Files.removeTree(cache + "/hud")
                    _ = Files.makeDirectories(cache)
                    let result = try list(hudhost, environment, listing, n: n)
                    cold.append(Double(result.wallNanoseconds) / 1e6)
                    coldRSS = max(coldRSS, result.peakRSSKiB)
                }
                let listed = try listedRenderers(listing, n: n)
                let hasCache = directoryHasFiles(cache + "/hud")
                // Warm: the cache the previous run wrote (if any) stays. Each
                // run is followed by a warm gst-inspect (the registry `peers`
                // left), so the ratio the budget takes compares runs made
                // side by side, as Scripts/bench-peers.sh does, not two
                // phases of the harness minutes apart.
                var warm: [Double] = [], warmRSS = 0, gstWarm: [Double] = [], gstWarmRSS = 0
                if hasCache {
                    for _ in 0..<runs {
                        let result = try list(hudhost, environment, listing, n: n)
                        warm.append(Double(result.wallNanoseconds) / 1e6)
                        warmRSS = max(warmRSS, result.peakRSSKiB)
                        if let gst {
                            guard let peer = Subprocess.run([gst.path], environment: ["GST_REGISTRY": gst.registry], stdout: gst.listing) else {
                                throw HarnessError("cannot run \(gst.path)")
                            }
                            gstWarm.append(Double(peer.wallNanoseconds) / 1e6)
                            gstWarmRSS = max(gstWarmRSS, peer.peakRSSKiB)
                        }
                    }
                }
                SystemCalls.removeFile(listing)
                if hasCache {
                    report.discovery.append(.init(count: n, mode: "hudhost list, cold", wallMilliseconds: TimingScenarios.stats(cold, batch: 1),
                                                  peakRSSMiB: Double(coldRSS) / 1024, renderersListed: listed,
                                                  note: "fresh process, registry cache deleted before each run"))
                    report.discovery.append(.init(count: n, mode: "hudhost list, warm", wallMilliseconds: TimingScenarios.stats(warm, batch: 1),
                                                  peakRSSMiB: Double(warmRSS) / 1024, renderersListed: listed,
                                                  note: "fresh process, registry cache kept"))
                    if let gst, !gstWarm.isEmpty {
                        report.discovery.append(.init(count: gst.plugins, mode: Self.alternatedPeerMode(n), wallMilliseconds: TimingScenarios.stats(gstWarm, batch: 1),
                                                      peakRSSMiB: Double(gstWarmRSS) / 1024, renderersListed: 0,
                                                      note: "gst-inspect-1.0 warm, each run right after a warm `hudhost list` of \(n) (the pairs alternate)"))
                    }
                } else {
                    let note = "discovery: this hudhost wrote no registry cache under $XDG_CACHE_HOME/hud, so `hudhost list` was measured once per run (dlopen path); cold and warm rows need its cache"
                    if !report.notes.contains(note) { report.notes.append(note) }
                    report.discovery.append(.init(count: n, mode: "hudhost list", wallMilliseconds: TimingScenarios.stats(cold, batch: 1),
                                                  peakRSSMiB: Double(coldRSS) / 1024, renderersListed: listed,
                                                  note: "fresh process; hudhost wrote no registry cache (dlopen path)"))
                }
            }
            // In-process dlopen of every plugin (up to 1,000: 10,000 would
            // only measure the dynamic loader's own scaling).
            guard n <= 1000 else { continue }
            var load: [Double] = [], loadRSS = 0, loaded = 0
            let output = run + "/discover.tsv"
            defer { SystemCalls.removeFile(output) }
            for _ in 0..<runs {
                guard let result = Subprocess.run([Files.executablePath, "--internal-discover", directory, output],
                                                  environment: ["HOME": home, "XDG_CACHE_HOME": run + "/xdg-none"]),
                      result.succeeded,
                      let fields = Files.read(output)?.split(separator: "\t"), fields.count == 2,
                      let nanoseconds = Double(fields[0]), let count = Int(fields[1].filter { !$0.isNewline })
                else { throw HarnessError("the in-process discovery child failed for N = \(n)") }
                load.append(nanoseconds / 1e6)
                loadRSS = max(loadRSS, result.peakRSSKiB)
                loaded = count
            }
            report.discovery.append(.init(count: n, mode: "discover() with dlopen, in-process", wallMilliseconds: TimingScenarios.stats(load, batch: 1),
                                          peakRSSMiB: Double(loadRSS) / 1024, renderersListed: loaded,
                                          note: "RendererRegistry.discover timed inside a fresh hudbench child"))
        }
        if let gst { SystemCalls.removeFile(gst.listing) }
        try measureBare(bareDirectories, runs: runs, root: run, into: &report)
    }

    /// Files without a metadata section: `hudhost list` cold, where every
    /// file is loaded in the sandboxed batch scanner.
    static func measureBare(_ directories: [Int: String], runs: Int, root: String, into report: inout Report) throws {
        let hudhost = Files.executableDirectory + "/hudhost"
        guard Files.isExecutable(hudhost) else { return }
        for (n, directory) in directories.sorted(by: { $0.key < $1.key }) {
            let cache = root + "/xdg-bare-\(n)"
            let listing = root + "/list-bare-\(n).json"
            var cold: [Double] = [], rss = 0
            for _ in 0..<min(runs, 5) {
                Files.removeTree(cache + "/hud")
                _ = Files.makeDirectories(cache)
                let result = try list(hudhost, ["HUD_RENDERER_PATH": directory, "HOME": root + "/home", "XDG_CACHE_HOME": cache],
                                      listing, n: n)
                cold.append(Double(result.wallNanoseconds) / 1e6)
                rss = max(rss, result.peakRSSKiB)
            }
            let listed = try listedRenderers(listing, n: n)
            SystemCalls.removeFile(listing)
            report.discovery.append(.init(count: n, mode: "hudhost list, cold, no metadata section", wallMilliseconds: TimingScenarios.stats(cold, batch: 1),
                                          peakRSSMiB: Double(rss) / 1024, renderersListed: listed,
                                          note: "every file loaded in the sandboxed batch scanner; cache deleted before each run"))
        }
    }

    /// The mode of the warm gst-inspect rows timed in alternation with the
    /// warm `hudhost list` of `n` plugins.
    static func alternatedPeerMode(_ n: Int) -> String { "gst-inspect-1.0, warm, alternated with hudhost list of \(n)" }

    /// `gst-inspect-1.0` over the system's plugins, cold (its registry
    /// deleted, so gst-plugin-scanner loads every plugin) and warm, when it
    /// is installed: the peer the scale budgets are relative to. Returns
    /// where it is, with the registry its last run left (for the warm runs
    /// alternated with hudhost's) and its plugin count; nil when it is not
    /// installed.
    static func peers(runs: Int, root: String, into report: inout Report) throws -> (path: String, registry: String, listing: String, plugins: Int)? {
        let path = (SystemCalls.environment()["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { String($0) + "/gst-inspect-1.0" }
        guard let gst = path.first(where: { Files.isExecutable($0) }) else {
            report.notes.append("discovery: gst-inspect-1.0 is not installed, so the peer rows and the budgets relative to it were not measured (apt-get install gstreamer1.0-tools, or Scripts/bench-peers.sh --install)")
            return nil
        }
        let registry = root + "/gst-registry.bin"
        let listing = root + "/gst-inspect.txt"
        var cold: [Double] = [], warm: [Double] = [], coldRSS = 0, warmRSS = 0
        for _ in 0..<runs {
            SystemCalls.removeFile(registry)
            guard let first = Subprocess.run([gst], environment: ["GST_REGISTRY": registry], stdout: listing),
                  let second = Subprocess.run([gst], environment: ["GST_REGISTRY": registry], stdout: listing) else {
                throw HarnessError("cannot run \(gst)")
            }
            cold.append(Double(first.wallNanoseconds) / 1e6)
            warm.append(Double(second.wallNanoseconds) / 1e6)
            coldRSS = max(coldRSS, first.peakRSSKiB)
            warmRSS = max(warmRSS, second.peakRSSKiB)
        }
        // "Total count: 105 plugins, 1116 features"
        let total = Files.read(listing)?.split(separator: "\n").last(where: { $0.hasPrefix("Total count: ") })
            .flatMap { Int($0.dropFirst(13).prefix { $0.isNumber }) } ?? 0
        SystemCalls.removeFile(listing)
        report.discovery.append(.init(count: total, mode: "gst-inspect-1.0, cold", wallMilliseconds: TimingScenarios.stats(cold, batch: 1),
                                      peakRSSMiB: Double(coldRSS) / 1024, renderersListed: 0,
                                      note: "the system's GStreamer plugins; GST_REGISTRY deleted before each run"))
        report.discovery.append(.init(count: total, mode: "gst-inspect-1.0, warm", wallMilliseconds: TimingScenarios.stats(warm, batch: 1),
                                      peakRSSMiB: Double(warmRSS) / 1024, renderersListed: 0, note: "registry kept (run right after each cold run)"))
        return (gst, registry, listing, total)
    }

    /// Child side of the in-process measurement: writes "<ns>\t<renderers>".
    static func child(directory: String, output: String) throws {
        let registry = RendererRegistry()
        let start = monotonicNanoseconds()
        let result = registry.discoverWithoutSandbox(SearchPaths(directories: [directory]))
        let elapsed = monotonicNanoseconds() &- start
        guard Files.write("\(elapsed)\t\(result.loaded.count)\n", to: output) else { throw HarnessError("cannot write \(output)") }
    }

    // MARK: - Generated plugins

    /// Compiles the plugins each N needs (once; cached) and returns, per N,
    /// a directory holding exactly N of them.
    private static func generate(counts: [Int], under root: String, bare: Bool = false) throws -> [Int: String] {
        let source = SourceTree.root + "/Benchmarks/generated-plugin/generated_plugin.c"
        let include = SourceTree.root + "/Sources/HudRendererAPI/include/hud"
        // The umbrella and every topic header: a change to any rebuilds the pool.
        let headerNames = ["hud_renderer.h", "hud_abi.h", "hud_metadata.h", "hud_helpers.h"]
        let headers = headerNames.compactMap { Files.read(include + "/" + $0) }
        guard let text = Files.read(source), headers.count == headerNames.count else {
            throw HarnessError("cannot read \(source) or the ABI header; run hudbench from its source checkout (or set HUDBENCH_SOURCE_ROOT)")
        }
        let base = root + (bare ? "/plugins-bare-" : "/plugins-") + Files.fingerprint([text] + headers)
        let pool = base + "/pool"
        guard Files.makeDirectories(pool) else { throw HarnessError("cannot create \(pool)") }
        let needed = counts.max() ?? 0
        let name = { (index: Int) in "gen-" + String(repeating: "0", count: 4 - String(index).count) + String(index) + ".so" }
        // One template compiled with index 0000; plugin i is the template
        // with the four digits of its id and name replaced (same length, so
        // the ELF layout is unchanged and only the strings differ, as between
        // separately compiled plugins; 10,000 runs of cc would take many
        // minutes on a small machine).
        let template = pool + "/template.so"
        // Each file is written under a name of this process's and renamed
        // into place, so another hudbench never reads half of one.
        let partial = ".partial-\(getpid())"
        if !Files.exists(template) {
            let log = base + "/build-\(getpid()).log"
            let command = ["cc", "-std=c11", "-O1", "-shared", "-fPIC", "-I", include, "-DHUDGEN_INDEX=0000"]
                + (bare ? ["-DHUDGEN_BARE"] : []) + [source, "-o", template + partial]
            guard Subprocess.runAll([command], jobs: 1, log: log), case .success = SystemCalls.rename(template + partial, to: template) else {
                throw HarnessError("compiling the generated plugin template failed; see \(log)")
            }
            SystemCalls.removeFile(log)
        }
        guard case .success(let templateBytes) = SystemCalls.readFile(template) else { throw HarnessError("cannot read \(template)") }
        let digitOffsets = ["generated-0000", "Generated 0000"].flatMap { Self.offsets(of: Array($0.utf8), in: templateBytes).map { $0 + 10 } }
        guard digitOffsets.count >= 2 else { throw HarnessError("\(template) does not contain the generated id and name") }
        var written = 0
        let start = monotonicNanoseconds()
        for index in 0..<needed where !Files.exists(pool + "/" + name(index)) {
            var bytes = templateBytes
            let digits = Array(name(index).utf8.dropFirst(4).prefix(4))
            for offset in digitOffsets { bytes.replaceSubrange(offset..<(offset + 4), with: digits) }
            let path = pool + "/" + name(index)
            if case .failure(let error) = SystemCalls.writeFile(path + partial, bytes, mode: 0o755).flatMap({ SystemCalls.rename(path + partial, to: path) }) {
                throw HarnessError("cannot write \(path): \(error)")
            }
            written += 1
        }
        if written > 0 {
            Console.error("hudbench: generated \(written) plugins in \(fixed(Double(monotonicNanoseconds() &- start) / 1e9, 1)) s (cached in \(pool))")
        }
        var directories: [Int: String] = [:]
        for n in counts {
            let directory = base + "/n\(n)"
            guard Files.makeDirectories(directory) else { throw HarnessError("cannot create \(directory)") }
            for index in 0..<n where !Files.exists(directory + "/" + name(index)) {
                // EEXIST: another hudbench linked it first.
                if case .failure(let error) = SystemCalls.hardLink(pool + "/" + name(index), at: directory + "/" + name(index)), error.code != EEXIST {
                    throw HarnessError("cannot link \(name(index)) into \(directory): \(error)")
                }
            }
            directories[n] = directory
        }
        return directories
    }

    /// Where `needle` starts in `haystack`.
    private static func offsets(of needle: [UInt8], in haystack: [UInt8]) -> [Int] {
        guard needle.count <= haystack.count else { return [] }
        return (0...(haystack.count - needle.count)).filter { start in haystack[start..<(start + needle.count)].elementsEqual(needle) }
    }

    /// Generated renderers in a `hudhost list --json` document.
    /// One `hudhost list --json` into `listing` (its stderr beside it); a
    /// run that fails is a harness failure naming its status and stderr.
    private static func list(_ hudhost: String, _ environment: [String: String?], _ listing: String, n: Int) throws -> ProcessResult {
        let errors = listing + ".stderr"
        SystemCalls.removeFile(errors)
        guard let result = Subprocess.run([hudhost, "list", "--json"], environment: environment, stdout: listing, stderr: errors) else {
            throw HarnessError("cannot run \(hudhost)")
        }
        guard result.succeeded else {
            let said = Files.read(errors).map { String($0.suffix(2000)) } ?? ""
            throw HarnessError("hudhost list --json for N = \(n) \(result.exitedNormally ? "exited \(result.status)" : "was killed by signal \(-result.status)"): \(said)")
        }
        SystemCalls.removeFile(errors)
        return result
    }

    private static func listedRenderers(_ path: String, n: Int) throws -> Int {
        guard let text = Files.read(path), let document = try? JSONParser.parse(text),
              let renderers = document["renderers"]?.arrayValue else {
            throw HarnessError("hudhost list --json printed no readable JSON for N = \(n)")
        }
        let generated = renderers.filter { $0["id"]?.stringValue?.hasPrefix("org.hudbench.generated-") == true }.count
        guard generated > 0 else {
            throw HarnessError("hudhost list found none of the \(n) generated plugins (\(path)); is HUD_RENDERER_PATH honoured?")
        }
        return generated
    }

    private static func directoryHasFiles(_ path: String) -> Bool {
        guard case .success(let entries) = SystemCalls.directoryEntries(path) else { return false }
        return entries.contains { !$0.name.hasPrefix(".") }
    }
}
