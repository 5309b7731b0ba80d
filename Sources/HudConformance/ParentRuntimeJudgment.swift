// SPDX-License-Identifier: MIT
import HudPluginBoundary
import HudRegistry
import HudRendererAPI
import HudSystem

/// The host's own judgment of the run-time checks of a plugin file, made in
/// the parent after `ParentJudgment` (which judges the output, geometry and
/// buffer checks): plugin code in the sandboxed `validate` child can write
/// result frames itself, so none of these verdicts is taken from it. The
/// parent drives renderer hosts of its own (sandboxed `hudsandbox serve`
/// children, Docs/ISOLATION.md) and judges from what it observes itself:
///
/// - `fuzz`: the same seeded cases as the child (`FuzzCheck.search`, so
///   `--seed` reproduces either), each laid out through the host's own
///   renderer host and judged with the per-layout rules on the layout the
///   host decoded and validated; a failure is shrunk to a minimal input; a
///   crash or hang of the renderer host fails the check naming the case.
/// - `thread-safety` (renderers declaring `HUD_CAPABILITY_THREAD_SAFE`):
///   the renderer host runs 8 threads × 8 calls at once, each call into
///   its own slot of the shared region (`ValidationFrame.concurrentLayout`);
///   the host decodes and validates every slot and compares it with the
///   serial layout of its input; up to `threadRounds` rounds.
/// - `determinism-processes`: two fresh renderer hosts (the host stops its
///   renderer host and starts a new process twice), the fixed inputs laid
///   out in each, the decoded layouts compared here. Always the host's:
///   the child is not asked.
/// - `perf-layout-time`: the host's own timing of round trips (request,
///   call, reply, copy and validation of the nodes), same budgets, each
///   sample the fastest of three round trips of one input. It includes the
///   channel and the validation, so it can only make a renderer look
///   slower than it is, never faster.
/// - `perf-allocations`: a fresh renderer host's data size (`VmData` in
///   `/proc/<pid>/status`, read by the host) before and after 2,000 warm
///   calls: page-granular and with 256 KiB tolerated, so it sees a
///   renderer leaking about 130 bytes per call or more, not a few bytes.
///
/// The sandboxed child is never asked for these checks (it would run them
/// in the plugin's own process, for nothing: plugin code there can write
/// any verdict): each result is the host's own, the only implementation
/// of the check for a plugin file. In a sanitizer build the renderer
/// host's allocator quarantines what is freed (AddressSanitizer holds up to
/// 256 MiB back), so its data size grows without any leak: there the host
/// does not measure `perf-allocations`, and the child's count stands.
package enum ParentRuntimeJudgment {
    /// The checks the host judges here.
    package static let judged: Set<String> = ["fuzz", "thread-safety", "determinism-processes", "perf-layout-time", "perf-allocations"]

    /// The checks the host runs in this build (the child is not asked for them).
    static let judgedHere = SandboxLimits.runsUnderSanitizer ? judged.subtracting(["perf-allocations"]) : judged

    /// Round trips of one input per timing sample; the sample is the
    /// fastest, so a busy machine's scheduling delays (two processes per
    /// round trip) are not taken for the renderer's time, and a renderer is
    /// never faster than its fastest round trip.
    static let roundTripsPerSample = 3
    /// Calls per thread in one concurrent round, and rounds at most (the
    /// first mismatch ends the check).
    static let threadCalls = 8
    static let threadRounds = 20
    /// Warm calls before the allocation check reads the data size, and the calls it measures.
    static let allocationWarmCalls = 200
    static let allocationCalls = 2_000
    /// Growth of the renderer host's data size over `allocationCalls`
    /// tolerated as noise (malloc grows its heap in steps of 128 KiB and more).
    static let allocationSlackBytes = 256 << 10

    /// A registry that runs every plugin renderer in a renderer host of its
    /// own, with `timeoutSeconds` for its scan and each host's start,
    /// `layoutTimeoutSeconds` for each call, and no backoff or give-up (a
    /// judgment counts every failure instead).
    /// The file at `path` loaded the way every host loads it (a sandboxed
    /// scan, then renderer hosts started on use), once for both judgments.
    static func hostRegistry(loading path: String, allowInsecurePath: Bool, timeoutSeconds: Double, layoutTimeoutSeconds: Double)
        -> Result<RendererRegistry, RegistryError> {
        let registry = RendererRegistry(security: PathSecurity(allowInsecure: allowInsecurePath), isolation: .process)
        var settings = RendererHostSettings()
        settings.layoutTimeoutSeconds = layoutTimeoutSeconds
        settings.startTimeoutSeconds = timeoutSeconds
        settings.backoffSeconds = 0
        settings.maxConsecutiveFailures = .max
        settings.allowInsecurePath = allowInsecurePath
        settings.observeLoading = true
        registry.hostSettings = settings
        do {
            try registry.load(checking: path, scanner: SandboxScanner(timeoutSeconds: timeoutSeconds))
            return .success(registry)
        } catch {
            return .failure(error)
        }
    }

    /// `results` and the host's results for the selected run-time checks:
    /// each for each renderer of the host's own load (`rendererFilter`
    /// applied), run when the checks it requires let it, else skipped
    /// saying which did not (in the runner's words).
    static func apply(to results: [CheckResult], loaded: Result<RendererRegistry, RegistryError>,
                      configuration: ConformanceConfiguration, rendererFilter: String?) -> [CheckResult] {
        // The order the host runs them in: allocations on a fresh renderer
        // host after the others, the fresh processes last.
        let order = ["fuzz", "thread-safety", "perf-layout-time", "perf-allocations", "determinism-processes"]
        let selected = order.filter { configuration.checkIDs.contains($0) && judgedHere.contains($0) }
        guard !selected.isEmpty else { return results }
        var merged = results
        func skip(_ check: String, _ renderer: String?, _ message: String) {
            merged.append(CheckResult(checkID: check, renderer: renderer, status: .skipped, message: message))
        }
        // A broken loading chain in the child stops every renderer check, as
        // in the runner.
        if let stop = merged.loadingStop {
            for check in selected { skip(check, nil, stop) }
            return merged
        }
        let registry: RendererRegistry
        switch loaded {
        case .success(let made): registry = made
        case .failure(let error):
            // ParentJudgment reports the failed load; each renderer the child
            // reported (or the plugin) gets the reason.
            var renderers: [String?] = []
            for result in results { if let id = result.renderer, !renderers.contains(id) { renderers.append(id) } }
            for id in renderers.isEmpty ? [nil] : renderers {
                for check in selected { skip(check, id, "not run: the host's own sandboxed load failed: \(error)") }
            }
            return merged
        }
        let ids = registry.renderers.filter { $0.origin != .builtin && (rendererFilter == nil || $0.id == rendererFilter) }.map(\.id)
        if ids.isEmpty {
            for check in selected { skip(check, rendererFilter, "no renderer \(rendererFilter.map { "'\($0)' " } ?? "")passed loading") }
        }
        for id in ids {
            let run = HostRendererRun(id: id, registry: registry)
            for check in selected {
                guard let definition = ConformanceCatalog.check(check) else { continue }
                if let reason = merged.blocker(of: definition, renderer: id, selected: configuration.checkIDs) {
                    skip(check, id, reason)
                    continue
                }
                let start = SystemCalls.monotonicNanoseconds()
                let outcome = run?.runtimeOutcome(check, configuration) ?? .problem("no renderer host serves '\(id)'")
                merged.append(hostResult(outcome, definition, id, since: start))
            }
        }
        return merged
    }

    private static func hostResult(_ outcome: CheckOutcome, _ check: ConformanceCheck, _ id: String, since start: UInt64) -> CheckResult {
        var result = outcome.result(for: check, renderer: id, milliseconds: Double(SystemCalls.monotonicNanoseconds() - start) / 1e6)
        if !result.notApplicable { result.message = "the host's own run: " + result.message }
        return result
    }
}

/// The run-time checks of one renderer of the file, through the host's own
/// registry and renderer host. Unlike the checks that lay out, a failed
/// call ends nothing here: each check reports its own (fuzzing goes on to
/// shrink the input that failed).
extension HostRendererRun {
    /// `testCase` laid out by the registry, its failure not kept.
    func layoutAlone(_ testCase: LayoutCase) throws(RegistryError) -> HudLayout {
        let snapshot = try ComplicationsSnapshot(testCase.complications.make())
        return try registry.layout(style: style, snapshot: snapshot, environment: testCase.environment, interaction: testCase.interaction)
    }

    func runtimeOutcome(_ check: String, _ configuration: ConformanceConfiguration) -> CheckOutcome {
        switch check {
        case "fuzz": fuzz(configuration)
        case "thread-safety": threadSafety(threads: configuration.threads)
        case "perf-layout-time": layoutTime(configuration)
        case "perf-allocations": allocations()
        case "determinism-processes": acrossProcesses()
        default: .problem("the host does not judge '\(check)'")
        }
    }

    // MARK: - fuzz

    func fuzz(_ configuration: ConformanceConfiguration) -> CheckOutcome {
        FuzzCheck.search(seed: configuration.seed, renderer: id, iterations: configuration.fuzzIterations) { testCase in
            let layout: HudLayout
            do throws(RegistryError) {
                layout = try self.layoutAlone(testCase)
            } catch {
                switch error {
                case .rendererHostFailed(_, _, _, let reason):
                    return FuzzCheck.Finding(problems: ["the renderer host \(reason) on \(testCase.name)"], shrinkable: false)
                case .layoutFailed(_, _, let status):
                    return FuzzCheck.Finding(problems: ["layout() returned \(ConformanceChecks.statusText(status))"])
                case .actionCalledDuringLayout: return FuzzCheck.Finding(problems: ["layout() called an action"])
                case .invalidComplications: return FuzzCheck.Finding(problems: [])  // the input's problem, not the renderer's
                default: return FuzzCheck.Finding(problems: ["\(error)"])
                }
            }
            return FuzzCheck.Finding(problems: FuzzCheck.layoutViolations(layout, testCase))
        }
    }

    // MARK: - thread-safety

    /// Concurrent calls in the renderer host, every slot decoded here and
    /// compared with the serial layout of its input.
    func threadSafety(threads: Int) -> CheckOutcome {
        guard info.capabilities.contains(.threadSafe) else {
            return .notApplicable("the renderer does not declare HUD_CAPABILITY_THREAD_SAFE (layout is [main-thread])")
        }
        // An input whose serial layout fails is another check's finding
        // (output-valid, output-no-action-calls): left out here.
        var cases: [LayoutCase] = []
        var inputs: [RendererHost.ConcurrentInput] = []
        var serial: [HudLayout] = []
        for testCase in DeterminismChecks.sampleInputs.prefix(6) {
            guard let snapshot = try? ComplicationsSnapshot(testCase.complications.make()),
                  let layout = try? registry.layout(style: style, snapshot: snapshot, environment: testCase.environment,
                                                    interaction: testCase.interaction) else { continue }
            cases.append(testCase)
            inputs.append(RendererHost.ConcurrentInput(snapshot, environment: testCase.environment, interaction: testCase.interaction))
            serial.append(layout)
        }
        guard !cases.isEmpty else {
            return .notApplicable("not verified: no input laid out without an error in the host's own run (other checks report why)")
        }
        let threads = min(threads, ValidationFrame.ConcurrentRequest.maxThreads)
        let capacity = max(64, serial.map(\.nodes.count).max() ?? 0)
        var calls = ParentRuntimeJudgment.threadCalls
        while calls > 1, !SharedLayoutArea.concurrentFits(slots: threads * calls, capacity: capacity) { calls -= 1 }
        for round in 1...ParentRuntimeJudgment.threadRounds {
            let results: [Result<HudLayout, RegistryError>]
            do {
                results = try host.concurrentLayouts(renderer: index, inputs, threads: threads, callsPerThread: calls, capacity: capacity)
            } catch {
                return .problem("\(threads) threads × \(calls) calls at once failed in the renderer host (round \(round)): \(error); a renderer declaring HUD_CAPABILITY_THREAD_SAFE must survive concurrent calls")
            }
            var found: [String] = []
            for (slot, result) in results.enumerated() {
                let (thread, call) = (slot / calls, slot % calls)
                let which = (thread + call) % cases.count
                if case .success(let layout) = result, layout == serial[which] { continue }
                found.append("thread \(thread), call \(call): \(cases[which].name) differs from the serial result (\(Self.difference(.success(serial[which]), result)))")
            }
            if !found.isEmpty {
                return .problem("\(found.count) of \(results.count) concurrent results differ from the serial ones (round \(round), decoded by the host); a renderer declaring HUD_CAPABILITY_THREAD_SAFE must not share mutable state between calls",
                                details: Array(found.prefix(20)))
            }
        }
        return .passed("\(ParentRuntimeJudgment.threadRounds) rounds of \(threads) threads × \(calls) calls at once in the renderer host matched the serial results (decoded by the host)")
    }

    // MARK: - determinism-processes

    /// Lays out the digest cases in two fresh renderer host processes and
    /// compares the decoded layouts.
    func acrossProcesses() -> CheckOutcome {
        let cases = DeterminismChecks.digestCases
        var runs: [(pid: Int32, layouts: [Result<HudLayout, RegistryError>])] = []
        for _ in 0..<2 {
            host.stop()
            var layouts: [Result<HudLayout, RegistryError>] = []
            var pid: Int32?
            for testCase in cases {
                layouts.append(Result { () throws(RegistryError) in try layoutAlone(testCase) })
                if pid == nil { pid = host.childProcessID }
                if let running = host.childProcessID, running != pid {
                    return .problem("the renderer host was restarted while laying out \(testCase.name) in one fresh process (\(String(describing: layouts.last)))")
                }
            }
            guard let pid else { return .problem("no renderer host served the layouts") }
            runs.append((pid, layouts))
        }
        for (index, testCase) in cases.enumerated() {
            switch (runs[0].layouts[index], runs[1].layouts[index]) {
            case (.success(let first), .success(let second)) where first == second: continue
            case (.failure(let first), .failure(let second)) where "\(first)" == "\(second)": continue
            case (let first, let second):
                return .problem("two fresh renderer hosts (pids \(runs[0].pid) and \(runs[1].pid)) laid out \(testCase.name) differently (\(Self.difference(first, second))); the output may depend on addresses, time or uninitialized memory")
            }
        }
        return .passed("two fresh renderer hosts (pids \(runs[0].pid) and \(runs[1].pid)) gave identical decoded layouts for \(cases.count) inputs")
    }

    static func difference(_ a: Result<HudLayout, RegistryError>, _ b: Result<HudLayout, RegistryError>) -> String {
        switch (a, b) {
        case (.success(let first), .success(let second)):
            if first.nodes.count != second.nodes.count { return "\(first.nodes.count) vs \(second.nodes.count) nodes" }
            if let node = zip(first.nodes, second.nodes).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                return "node \(node) differs"
            }
            return "content insets or hidden positions differ"
        case (.failure(let error), .success), (.success, .failure(let error)): return "one process failed: \(error)"
        case (.failure(let first), .failure(let second)): return "\(first) vs \(second)"
        }
    }

    // MARK: - perf-layout-time

    /// Round trips through the renderer host, timed here: request, call,
    /// reply, and the copy and validation of the nodes.
    func layoutTime(_ configuration: ConformanceConfiguration) -> CheckOutcome {
        let cases = DeterminismChecks.timedCases
        let snapshots: [ComplicationsSnapshot]
        do {
            snapshots = try cases.map { testCase throws(RegistryError) in try ComplicationsSnapshot(testCase.complications.make()) }
            for index in cases.indices { _ = try layoutAlone(cases[index]) }
        } catch {
            // Another check's finding (output-valid, output-no-action-calls, layout-basic).
            return .notApplicable("not verified: the host's own warm-up layout failed: \(error)")
        }
        let what = "samples, each the fastest of \(ParentRuntimeJudgment.roundTripsPerSample) round trips timed by the host"
        return DeterminismChecks.timingOutcome(configuration, what: what) { iteration throws(DeterminismChecks.TimingFailure) in
            let which = iteration % cases.count
            var fastest = UInt64.max
            for _ in 0..<ParentRuntimeJudgment.roundTripsPerSample {
                let start = SystemCalls.monotonicNanoseconds()
                do {
                    try host.withFrame(renderer: index, snapshots[which], environment: cases[which].environment,
                                       interaction: cases[which].interaction) { _ in }
                } catch {
                    throw DeterminismChecks.TimingFailure(reason: "\(error)")
                }
                fastest = min(fastest, SystemCalls.monotonicNanoseconds() - start)
            }
            return fastest
        }
    }

    // MARK: - perf-allocations

    /// The renderer host's data size before and after many warm calls of
    /// one input, read by the host from `/proc/<pid>/status`.
    func allocations() -> CheckOutcome {
        let testCase = ConformanceInputs.basic
        let snapshot: ComplicationsSnapshot
        // A fresh renderer host: what the other checks left in its heap
        // (fragments of fuzzing's large inputs) does not count.
        host.stop()
        do {
            snapshot = try ComplicationsSnapshot(testCase.complications.make())
            _ = try layoutAlone(testCase)
        } catch {
            // Another check's finding (output-valid, output-no-action-calls, layout-basic).
            return .notApplicable("not verified: the host's own warm-up layout failed: \(error)")
        }
        guard let pid = host.childProcessID else { return .problem("no renderer host serves '\(id)'") }
        func calls(_ count: Int) throws(RegistryError) {
            for _ in 0..<count {
                try host.withFrame(renderer: index, snapshot, environment: testCase.environment, interaction: testCase.interaction) { _ in }
            }
        }
        do {
            try calls(ParentRuntimeJudgment.allocationWarmCalls)
            guard let before = Self.dataBytes(pid) else { return .problem("could not read /proc/\(pid)/status of the renderer host") }
            try calls(ParentRuntimeJudgment.allocationCalls)
            guard host.childProcessID == pid else { return .problem("the renderer host was restarted during the measured calls") }
            guard let after = Self.dataBytes(pid) else { return .problem("could not read /proc/\(pid)/status of the renderer host") }
            let growth = after - before
            let calls = ParentRuntimeJudgment.allocationCalls
            let text = "the renderer host's data size grew \(growth / 1024) KiB over \(calls) warm layouts (VmData of pid \(pid), \(growth / calls) bytes per call; page-granular, noise up to \(ParentRuntimeJudgment.allocationSlackBytes / 1024) KiB tolerated)"
            return growth > ParentRuntimeJudgment.allocationSlackBytes
                ? .problem(text + "; layout() seems to leak: free everything it allocates before returning") : .passed(text)
        } catch {
            return .problem("a measured layout failed: \(error)")
        }
    }

    /// `VmData` of process `pid`, in bytes.
    static func dataBytes(_ pid: Int32) -> Int? {
        guard case .success(let bytes) = SystemCalls.readFile("/proc/\(pid)/status", limit: 1 << 16) else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("VmData:") {
            let digits = line.dropFirst("VmData:".count).filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }
}
