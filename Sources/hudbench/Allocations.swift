// SPDX-License-Identifier: MIT
import HudPluginBoundary
import Glibc
import HudRegistry
import HudScenes
import HudHarness
import HudRendererAPI
import HudSystem

/// Heap allocations per call, counted by an LD_PRELOAD interposer
/// (Benchmarks/malloc-counter/counter.c) in a child hudbench process, so
/// the timings of the parent are never slowed by the counter.
///
/// Why an interposer rather than glibc `mallinfo2()` deltas: mallinfo2
/// reports bytes in use, so an allocation freed inside the measured window
/// (per-frame churn: a temporary array, a decoded string) nets to zero and
/// is invisible; the interposer counts every malloc/calloc/realloc/
/// posix_memalign/aligned_alloc call, which is what "0 allocations per
/// frame" means.
enum Allocations {
    /// Parent side: builds the counter (cached), runs the child, reads its rows.
    static func measure(options: Options, into report: inout Report) throws {
        let source = SourceTree.root + "/Benchmarks/malloc-counter/counter.c"
        guard let text = Files.read(source) else {
            throw HarnessError("cannot read \(source); run hudbench from its source checkout (or set HUDBENCH_SOURCE_ROOT)")
        }
        let directory = Files.cacheDirectory()
        guard Files.makeDirectories(directory) else { throw HarnessError("cannot create \(directory)") }
        let library = directory + "/libhudbench-counter-\(Files.fingerprint([text])).so"
        if !Files.exists(library) {
            // Built under a name of this process's and renamed into place,
            // so another hudbench never loads half of it.
            let log = directory + "/counter-build-\(getpid()).log", partial = library + ".partial-\(getpid())"
            let built = Subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", partial, source], stdout: log, stderr: log)
            guard let built, built.succeeded, case .success = SystemCalls.rename(partial, to: library) else {
                throw HarnessError("building the malloc counter failed (cc \(source)); see \(log)")
            }
            SystemCalls.removeFile(log)
        }
        let output = directory + "/allocations-\(getpid()).tsv"
        defer { SystemCalls.removeFile(output) }
        let stderrLog = directory + "/allocations-\(getpid()).log"
        defer { SystemCalls.removeFile(stderrLog) }
        let arguments = [Files.executablePath, "--internal-allocations", output] + options.registryArguments + (options.quick ? ["--quick"] : [])
        guard let child = Subprocess.run(arguments, environment: ["LD_PRELOAD": library], stderr: stderrLog), child.succeeded else {
            throw HarnessError("the allocation-counting child failed: \(Files.read(stderrLog) ?? "no output")")
        }
        guard let rows = Files.read(output) else { throw HarnessError("the allocation child wrote no results") }
        for line in rows.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5, let count = Double(fields[2]), let bytes = Double(fields[3]) else {
                throw HarnessError("unreadable allocation row '\(line)'")
            }
            report.allocations.append(.init(scenario: fields[0], subject: fields[1], allocationsPerCall: count,
                                            bytesPerCall: bytes, note: fields[4]))
        }
        guard let control = report.allocations.first(where: { $0.scenario == "control.array" }), control.allocationsPerCall >= 1 else {
            throw HarnessError("the malloc counter saw no allocation in the control loop; LD_PRELOAD did not take effect")
        }
    }

    /// Child side: runs each scenario after warm-up and writes one TSV row
    /// per (scenario, subject): allocations and bytes per call.
    static func child(output: String, options: Options, registry: RendererRegistry) throws {
        guard BenchmarkHooks.mallocCounts() != nil else {
            throw HarnessError("hudbench_malloc_counts not found: the child must run with LD_PRELOAD=libhudbench-counter.so")
        }
        let iterations = options.quick ? 200 : 2_000
        var rows = ""
        func count(_ scenario: String, _ subject: String, _ note: String, _ body: () -> Void) {
            for _ in 0..<100 { body() }
            let (allocationsBefore, bytesBefore) = BenchmarkHooks.mallocCounts() ?? (0, 0)
            for _ in 0..<iterations { body() }
            let (allocationsAfter, bytesAfter) = BenchmarkHooks.mallocCounts() ?? (0, 0)
            let perCall = Double(allocationsAfter &- allocationsBefore) / Double(iterations)
            let bytes = Double(bytesAfter &- bytesBefore) / Double(iterations)
            rows += "\(scenario)\t\(subject)\t\(perCall)\t\(bytes)\t\(note)\n"
        }

        var environment = HudEnvironment(device: .default)
        environment.navigationTitle = "Home"
        let demo = DemoComplications.make(renderers: registry.renderers) { _ in noteBenchmarkAction() }
        let snapshot = try ComplicationsSnapshot(demo)

        count("control.array", "harness", "one [Int] per call; must be ≥ 1 or the counter is not loaded") {
            consume([Int](repeating: Int(monotonicNanoseconds() & 1), count: 4).count)
        }
        for info in registry.renderers {
            let style = HudPhoneComplicationsStyle(name: info.id)
            guard let renderer = DirectRenderer(info) else { throw HarnessError("cannot reach \(info.id) directly") }
            let direct = DirectCall(renderer)
            BenchmarkHooks.withLayoutInputs(snapshot: snapshot.storage, environment: environment, interaction: .idle) { inputs in
                count("layout.direct", info.id, "inside the renderer itself (plugin code, not the host)") { consume(direct(inputs)) }
            }
            count("layout.registry", info.id, "registry.withLayout, total (host + renderer)") {
                consume((try? registry.withLayout(style: style, snapshot: snapshot, environment: environment) { $0.count }) ?? -1)
            }
            count("layout.registry.decoded", info.id, "registry.layout → HudLayout, total") {
                consume((try? registry.layout(style: style, snapshot: snapshot, environment: environment))?.nodes.count ?? -1)
            }
            let shell = DemoComplications.makeShell(style: style, registry: registry, environment: HudEnvironment(device: .default))
            count("frame.shell.republish", info.id, "HudPhoneAppShell: resolve + rebind + layout + decode, total") {
                shell.updateTop { _ in }
                consume((try? shell.layout())?.nodes.count ?? -1)
            }
            try registry.withLayout(style: style, snapshot: snapshot, environment: environment) { frame in
                guard let center = frame.first(where: { $0.kind == .slot && $0.position == .center }) else { return }
                let x = center.hit.midX, y = center.hit.midY
                count("hit.frame", info.id, "LayoutFrame.hitTest") { consume(frame.hitTestIndex(x: x, y: y) ?? -1) }
            }
        }
        count("publish.marshal", "demo set", "ComplicationsSnapshot(demo) + release of the previous one") {
            consume((try? ComplicationsSnapshot(demo))?.thunkCount ?? -1)
        }
        count("publish.rebind", "demo set", "equal-content republish") { snapshot.rebind(to: demo) }
        count("tap.invoke", "demo set", "snapshot.invoke(.slot(.center)) through the thunk") {
            consume(snapshot.invoke(.slot(.center)) ? 1 : 0)
        }
        guard Files.write(rows, to: output) else { throw HarnessError("cannot write \(output)") }
    }
}

/// Where the benchmark's C sources live: the package root this file was
/// compiled from (or HUDBENCH_SOURCE_ROOT).
enum SourceTree {
    static var root: String {
        if let override = SystemCalls.secureEnvironment("HUDBENCH_SOURCE_ROOT"), override.hasPrefix("/") { return override }
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }
}
