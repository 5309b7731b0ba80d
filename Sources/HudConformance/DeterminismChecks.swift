// SPDX-License-Identifier: MIT
import HudRegistry
import HudHarness
import HudPresentation
import Glibc
import HudRendererAPI
import Synchronization
import HudSystem

/// Determinism, concurrency and performance checks.
enum DeterminismChecks {
    /// Every twelfth geometry case and the first contrast cases.
    static let sampleInputs: [LayoutCase] = {
        let geometry = ConformanceInputs.geometryMatrix
        return stride(from: 0, to: geometry.count, by: 12).map { geometry[$0] } + ConformanceInputs.contrastMatrix.prefix(8)
    }()

    static func repeatable(_ context: RendererContext) -> CheckOutcome {
        repeatOutcome(same: "byte-identical output", { context.call($0) }) { first, again in
            guard let again else { return "no output" }
            return again.outputBytes == first.outputBytes ? nil : difference(first, again) ?? "content insets or hidden positions"
        }
    }

    /// `determinism-repeat`'s rule: each sample input laid out three times
    /// gives the same output. `layout` is one call (nil: no output, which a
    /// first call leaves to other checks); `difference` says how a later
    /// call's output differs from the first's, nil when it does not.
    static func repeatOutcome<Output>(same: String, _ layout: (LayoutCase) -> Output?,
                                      difference: (Output, Output?) -> String?) -> CheckOutcome {
        var problems = ProblemList()
        for testCase in sampleInputs {
            guard let first = layout(testCase) else { continue }
            for attempt in 2...3 {
                if let differs = difference(first, layout(testCase)) {
                    problems.add(testCase, ["call \(attempt) differs from call 1 (\(differs)); layout() must be a pure function of its inputs"])
                    break
                }
            }
        }
        return problems.outcome(passed: "\(sampleInputs.count) inputs × 3 calls gave \(same)")
    }

    /// Where `b`'s status, count or node bytes first differ from `a`'s
    /// (nil: they do not; the content insets and hidden positions are the
    /// caller's to compare).
    static func difference(_ a: some RawLayoutOutput, _ b: some RawLayoutOutput) -> String? {
        if a.status != b.status { return "status \(a.status) vs \(b.status)" }
        if a.count != b.count { return "count \(a.count) vs \(b.count)" }
        let stride = a.stride
        if let offset = zip(a.nodeBytes, b.nodeBytes).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            let field = NodeFields.all.last { $0.offset <= offset % stride }?.name ?? "?"
            return "node \(offset / stride) field \(field)"
        }
        return nil
    }

    // MARK: - Threads

    static func threadSafety(_ context: RendererContext) -> CheckOutcome {
        guard context.isThreadSafe else {
            return .notApplicable("the renderer does not declare HUD_CAPABILITY_THREAD_SAFE (layout is [main-thread])")
        }
        let cases = Array(sampleInputs.prefix(6))
        let snapshots = cases.map { context.snapshot($0.complications)! }
        let serial = cases.indices.map { context.call(cases[$0], snapshot: snapshots[$0]).outputBytes }
        let threads = context.configuration.threads, calls = context.configuration.callsPerThread
        let mismatches = WorkerSlots<[String]>(count: threads)
        let shared = UncheckedBox((context, cases, snapshots, serial))
        ConcurrentWorkers.run(count: threads, together: true) { thread in
            let (context, cases, snapshots, serial) = shared.value
            var mine: [String] = []
            for call in 0..<calls {
                let index = (thread + call) % cases.count
                let result = context.call(cases[index], snapshot: snapshots[index], checksum: false, announced: false)
                if result.outputBytes != serial[index], mine.count < 20 {
                    mine.append("thread \(thread), call \(call): \(cases[index].name) differs from the serial result (\(difference(result, RawPluginHarness.Call.placeholder(serial[index])) ?? "content insets or hidden positions"))")
                }
            }
            mismatches[thread] = mine
        }
        let found = Array((0..<threads).flatMap { mismatches[$0] ?? [] }.prefix(20))
        if found.isEmpty { return .passed("\(threads) threads × \(calls) calls matched the serial results") }
        return .problem("\(found.count)\(found.count == 20 ? "+" : "") concurrent results differ from the serial ones; a renderer declaring HUD_CAPABILITY_THREAD_SAFE must not share mutable state between calls",
                        details: found)
    }

    // MARK: - Fresh processes

    /// The cases the digest covers.
    static var digestCases: [LayoutCase] {
        Array(ConformanceInputs.geometryMatrix.prefix(24)) + ConformanceInputs.contrastMatrix.prefix(8)
    }

    /// FNV-1a over the decoded layouts' JSON (strings by content, so the
    /// digest does not depend on where anything was loaded).
    static func digest(_ context: RendererContext) -> String {
        var hash = FNV1a()
        for testCase in digestCases {
            let call = context.call(testCase)
            hash.add(bytes: Array("\(call.status) \(call.count)|".utf8))
            if let layout = call.layout { hash.add(bytes: Array(LayoutJSON.layout(layout).serialized(pretty: false).utf8)) }
        }
        return String(hash.value, radix: 16)
    }

    static func acrossProcesses(_ context: RendererContext) -> CheckOutcome {
        guard let executable = context.configuration.helperExecutable else {
            return .notApplicable("no helper executable to start fresh processes with")
        }
        return acrossProcesses(context.target, renderer: context.id, executable: executable,
                               timeoutSeconds: context.configuration.helperTimeoutSeconds)
    }

    /// Two fresh `hudsandbox digest` children for one renderer, compared.
    /// The supervisor runs this itself for sandboxed runs, so a validate
    /// child never needs to start a process (its seccomp filter forbids it).
    static func acrossProcesses(_ target: ConformanceTarget, renderer: String, executable: String, timeoutSeconds: Double) -> CheckOutcome {
        var request = target.sandboxValidation
        request.renderer = renderer
        var digests: [String] = []
        for _ in 0..<2 {
            let (line, outcome) = SandboxProcess.reply(executable: executable, arguments: SandboxRequest.digest(request).arguments,
                                                       timeoutSeconds: timeoutSeconds)
            outcome.deliverOutput(source: target.description, failed: line == nil)
            guard case .exited(0) = outcome.termination, let line, let value = try? JSONParser.parse(line),
                  let digest = value["digest"]?.stringValue else {
                return .problem("a fresh helper process did not report a digest (\(outcome.termination)); run the check in-process to investigate")
            }
            digests.append(digest)
        }
        if digests[0] != digests[1] {
            return .problem("two fresh processes produced different layouts (digests \(digests[0]) and \(digests[1])); the output may depend on addresses, time or uninitialized memory")
        }
        return .passed("two fresh processes produced identical layouts for \(digestCases.count) inputs (digest \(digests[0]))")
    }

    // MARK: - Performance

    /// The two inputs timed: the reference case, idle and with the center's modes revealed.
    static let timedCases = [ConformanceInputs.basic,
                             LayoutCase(name: "reference, center revealed", complications: .reference, environment: ConformanceInputs.device(.default),
                                        interaction: HudInteraction(revealedPosition: .center))]

    static func layoutTime(_ context: RendererContext) -> CheckOutcome {
        let cases = timedCases
        let snapshots = cases.map { context.snapshot($0.complications)! }
        for index in cases.indices { _ = context.call(cases[index], snapshot: snapshots[index], checksum: false) }
        return timingOutcome(context.configuration, what: "layouts") { iteration in
            let index = iteration % cases.count
            return context.call(cases[index], snapshot: snapshots[index], checksum: false).nanoseconds
        }
    }

    /// Median and p99 of `configuration.performanceIterations` timings
    /// (`time` returns nanoseconds, or nil when a call failed: then that
    /// failure is the outcome), against the configured budgets.
    static func timingOutcome(_ configuration: ConformanceConfiguration, what: String,
                              time: (Int) throws(TimingFailure) -> UInt64) -> CheckOutcome {
        var times: [Double] = []
        let iterations = configuration.performanceIterations
        for iteration in 0..<iterations {
            do {
                times.append(Double(try time(iteration)))
            } catch {
                return .problem("call \(iteration + 1) of \(iterations) failed: \(error.reason)")
            }
        }
        times.sort()
        let median = times[times.count / 2]
        let p99 = times[min(times.count - 1, Int((Double(times.count) * 0.99).rounded(.up)) - 1)]
        let text = "median \(Format.microseconds(median)), p99 \(Format.microseconds(p99)) over \(iterations) \(what) (budgets \(Format.microseconds(configuration.medianBudgetMicroseconds * 1000)) / \(Format.microseconds(configuration.p99BudgetMicroseconds * 1000)))"
        if median > configuration.medianBudgetMicroseconds * 1000 || p99 > configuration.p99BudgetMicroseconds * 1000 {
            return .problem(text + "; layout runs on every frame, keep it cheap")
        }
        return .passed(text)
    }

    /// Why a timed call gave no time.
    struct TimingFailure: Error {
        var reason: String
    }

    static func allocations(_ context: RendererContext) -> CheckOutcome {
        let testCase = ConformanceInputs.basic
        guard let snapshot = context.snapshot(testCase.complications) else { return .problem("input does not marshal") }
        let calls = 400
        for _ in 0..<50 { _ = context.call(testCase, snapshot: snapshot, checksum: false) }
        let before = SystemCalls.heapInUse()
        for _ in 0..<calls { _ = context.call(testCase, snapshot: snapshot, checksum: false) }
        let growth = SystemCalls.heapInUse() - before
        let perCall = Double(growth) / Double(calls)
        let text = "heap grew \(growth) bytes over \(calls) warm layouts (\(JSONValue.format((perCall * 10).rounded() / 10)) bytes per call)"
        return perCall > 16 ? .problem(text + "; layout() seems to leak: free everything it allocates before returning") : .passed(text)
    }
}

/// What a raw layout call returned, through the child's harness or a
/// renderer host: what `DeterminismChecks.difference` compares.
protocol RawLayoutOutput {
    var status: Int32 { get }
    var count: UInt32 { get }
    var stride: Int { get }
    var nodeBytes: [UInt8] { get }
}

extension RawPluginHarness.Call: RawLayoutOutput {}
extension RawHostCall: RawLayoutOutput {}
