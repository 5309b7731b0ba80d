// SPDX-License-Identifier: MIT
import HudRegistry
import HudPresentation
import Synchronization
import HudSystem

/// Runs the checks for one target and collects a report: in a sandboxed
/// child process (the default) or in this process (`--in-process`).
///
/// Isolation is one child per target running every unit in order and
/// streaming one line per finished unit. A crash or hang is attributed to
/// the unit that had begun and not finished: it becomes `crashed` (with the
/// signal) or `timed-out`, its dependents are skipped, and a new child
/// resumes after it (bounded by `maxRestarts`), so one bad code path does
/// not hide the results of the others.
package struct ConformanceSupervisor: Sendable {
    package enum Mode: Sendable {
        case sandbox(executable: String, timeoutSeconds: Double, cpuSeconds: Int, memoryMegabytes: Int)
        case inProcess
    }

    package var mode: Mode
    package var configuration: ConformanceConfiguration
    package var maxRestarts = 6

    package init(mode: Mode, configuration: ConformanceConfiguration) {
        self.mode = mode
        self.configuration = configuration
    }

    /// Validates every target, `jobs` at a time (each in its own child, so
    /// parallel runs cannot disturb each other), in argument order.
    package static func validateAll(_ targets: [(ConformanceTarget, String)], with supervisor: ConformanceSupervisor, jobs: Int,
                                   starting: @escaping @Sendable (String) -> Void = { _ in }) -> [ConformanceTargetReport] {
        // One slot per target, written by the one worker that took its index.
        let reports = WorkerSlots<ConformanceTargetReport>(count: targets.count)
        let next = Atomic<Int>(0)
        let work = UncheckedBox(targets)
        ConcurrentWorkers.run(count: max(1, min(jobs, targets.count))) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < work.value.count else { return }
                let (target, argument) = work.value[index]
                starting(argument)
                reports[index] = supervisor.validate(target, argument: argument)
            }
        }
        return targets.indices.compactMap { reports[$0] }
    }

    package func validate(_ target: ConformanceTarget, argument: String) -> ConformanceTargetReport {
        var results: [CheckResult]
        switch mode {
        case .inProcess:
            results = []
            var configuration = configuration
            if case .builtin = target { configuration.pluginIsFresh = false }
            ConformanceRunner(target: target, configuration: configuration).run { event in
                if case .result(let result) = event { results.append(result) }
            }
        case .sandbox(let executable, let timeout, let cpu, let memory):
            let childSkips: Set<ConformanceUnit>
            (results, childSkips) = sandboxed(target, executable: executable, timeout: timeout, cpu: cpu, memory: memory)
            // The child shares its process with the plugin: the output and
            // geometry verdicts are the host's own (ParentJudgment).
            // The run-time checks too (ParentRuntimeJudgment), and
            // determinism-processes from two fresh renderer hosts. The file
            // is loaded once for both.
            // Which renderers the host's own load of the file serves (nil: it did not load it).
            var hostServes: ((String) -> Bool)?
            if case .file(let path, _) = target {
                let parent = !ParentJudgment.judged.isDisjoint(with: configuration.checkIDs) || configuration.checkIDs.contains("abi-older-host-sizes")
                let runtime = !ParentRuntimeJudgment.judged.isDisjoint(with: configuration.checkIDs)
                if parent || runtime {
                    let loaded = ParentRuntimeJudgment.hostRegistry(loading: path, allowInsecurePath: true,
                                                                                timeoutSeconds: ConformanceSupervisor.hostLoadDeadline(timeout),
                                                                                layoutTimeoutSeconds: configuration.layoutTimeoutSeconds)
                    if case .success(let registry) = loaded { hostServes = { registry.info(id: $0) != nil } }
                    if parent {
                        results = ParentJudgment.apply(to: results, path: path, loaded: loaded, selected: configuration.checkIDs,
                                                       rendererFilter: target.rendererFilter, loadBudgetMilliseconds: configuration.loadBudgetMilliseconds,
                                                       olderHostSizes: configuration.checkIDs.contains("abi-older-host-sizes")) { check, renderer in
                            Self.reproduce(target, check: check, renderer: renderer, configuration: configuration)
                        }
                    }
                    if runtime {
                        results = ParentRuntimeJudgment.apply(to: results, loaded: loaded, configuration: configuration, rendererFilter: target.rendererFilter)
                    }
                }
            }
            results = Self.unexplainedSkipsFailed(results, reportedByChild: childSkips, filter: target.rendererFilter, hostServes: hostServes)
        }
        results = completed(results)
        let unloadable = results.first { $0.checkID == "abi-load" && $0.status == .failed }?.message
        return ConformanceTargetReport(argument: argument, target: target, results: Self.ordered(results), unloadable: unloadable,
                                       seed: configuration.seed)
    }

    /// Judged by the parent only, never asked of the child: what the child
    /// printed, the fresh-process digests (which need processes the child
    /// may not start), the raw calls at a 1.0 host's sizes and, for a plugin
    /// file, every run-time check (ParentRuntimeJudgment: fuzzing, thread
    /// safety, timing and allocations through the host's own renderer
    /// hosts). The linked built-ins run no plugin code: their child runs those.
    static func parentChecks(for target: ConformanceTarget) -> Set<String> {
        let always: Set<String> = ["abi-quiet-stdout", "determinism-processes", "abi-older-host-sizes"]
        if case .file = target { return always.union(ParentRuntimeJudgment.judgedHere).union(ParentJudgment.hostOnly) }
        return always
    }

    /// The child's skips (not as not applicable) that nothing in the final
    /// `results` explains, as failures. The runner skips a check only
    /// behind a prerequisite that did not let its dependents run (for a
    /// renderer check, also a step of the loading chain), for no renderer
    /// at all, or for a `--renderer` filter that matches no renderer (`hostServes`: the
    /// renderers of the host's own load, nil when it did not load the file):
    /// any other skip would hide a failure, and is plugin code's frame.
    static func unexplainedSkipsFailed(_ results: [CheckResult], reportedByChild: Set<ConformanceUnit>, filter: String?,
                                       hostServes: ((String) -> Bool)?) -> [CheckResult] {
        let stopping = Set(results.filter { !$0.unblocksDependents }.map(\.unit))
        return results.map { result in
            guard result.status == .skipped, !result.notApplicable, reportedByChild.contains(result.unit),
                  let check = ConformanceCatalog.check(result.checkID) else { return result }
            // A renderer check skipped for no renderer at all stands beside
            // each renderer's own result, which it cannot hide.
            if check.scope == .renderer, result.renderer == nil { return result }
            if check.scope == .renderer, let renderer = result.renderer, renderer == filter, hostServes?(renderer) != true { return result }
            let chain = check.scope == .renderer ? ConformanceRunner.loadingChain.map { ConformanceUnit(checkID: $0, renderer: nil) } : []
            if (check.requirementUnits(renderer: result.renderer) + chain).contains(where: stopping.contains) { return result }
            return CheckResult(checkID: result.checkID, renderer: result.renderer, status: .crashed,
                               message: "the plugin wrote to the result channel (a skip without a prerequisite that did not pass); plugin code must never write to descriptor 3",
                               details: ["the sandboxed child reported skipped: \(result.message)"], milliseconds: result.milliseconds)
        }
    }

    /// A command that runs `check` alone on the same target with the same
    /// inputs (the seed and the layout deadline), in the least profile
    /// that has it: the cases of every check are fixed by the seed.
    static func reproduce(_ target: ConformanceTarget, check: String, renderer: String?,
                          configuration: ConformanceConfiguration) -> String {
        let argument: String
        switch target {
        case .file(let path, let filter): argument = filter ?? path
        case .builtin(let filter): argument = filter ?? renderer ?? "com.hudson.tray"
        }
        let profile = ConformanceProfile.allCases.first { $0.checkIDs.contains(check) } ?? .strict
        return ["hudhost", "validate", argument, "--profile", profile.rawValue, "--include", "^\(check)$",
                "--seed", String(configuration.seed), "--layout-timeout", JSONValue.format(configuration.layoutTimeoutSeconds)]
            .map(shellWord).joined(separator: " ")
    }

    /// `word` as one word of a POSIX shell command line.
    static func shellWord(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || "0123456789-_./=:@%+,".unicodeScalars.contains($0)) }
        if plain && !word.isEmpty { return word }
        return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// The deadline of the host's own loads (its sandboxed scan, each
    /// renderer host's start) and calls for a run whose checks have
    /// `timeout`: the same, kept between 2 s (a sandboxed start on a loaded
    /// machine; a short --timeout proves a hang, it must not fail a load)
    /// and 10 s (a plugin that hangs in init() is the child's abi-init
    /// finding, not worth waiting on again).
    package static func hostLoadDeadline(_ timeout: Double) -> Double { min(max(timeout, 2), 10) }

    /// The child's results and the parent's own (`abi-quiet-stdout`, …),
    /// and the units the child reported skipped (not as not applicable).
    private func sandboxed(_ target: ConformanceTarget, executable: String, timeout: Double, cpu: Int,
                           memory: Int) -> (results: [CheckResult], childSkips: Set<ConformanceUnit>) {
        var results: [CheckResult] = []
        var childSkips: Set<ConformanceUnit> = []
        var finished: Set<ConformanceUnit> = []
        var blocked: [ConformanceUnit: String] = [:]
        var stdoutBytes = 0
        var stdoutSample: [UInt8] = []
        let parentOnly = Self.parentChecks(for: target)
        let childChecks = configuration.checkIDs.filter { !parentOnly.contains($0) }
        let asked = Set(childChecks)
        var restarts = 0
        while true {
            var request = target.sandboxValidation
            request.checks = childChecks
            request.seed = configuration.seed
            request.fuzzIterations = configuration.fuzzIterations
            request.cpuSeconds = cpu
            request.memoryMegabytes = memory
            request.helper = executable
            request.helperTimeoutSeconds = timeout
            request.skip = finished.map(\.description)
            request.blocked = Dictionary(uniqueKeysWithValues: blocked.map { ($0.key.description, $0.value) })
            let arguments = SandboxRequest.validate(request).arguments
            var current: ConformanceUnit?
            // The case whose layout had begun and not returned.
            var inCall: String?
            var begun: Set<ConformanceUnit> = []
            var sawDone = false
            let outcome = SandboxProcess.run(executable: executable, arguments: arguments, timeoutSeconds: timeout) { line in
                guard let json = try? JSONParser.parse(line), let event = ConformanceEvent(json: json) else { return .none }
                switch event {
                case .begin(let unit):
                    // Progress is a unit begun or finished for the first time
                    // (each check gets the full timeout); a child repeating
                    // lines cannot keep itself alive.
                    current = unit
                    inCall = nil
                    return begun.insert(unit).inserted ? .progress : .none
                case .call(let name):
                    // A layout must return within the layout deadline; calls
                    // never extend the check's own.
                    inCall = String(name.prefix(200))
                    return .call(seconds: configuration.layoutTimeoutSeconds)
                case .returned:
                    inCall = nil
                    return .returned
                case .result(let result):
                    // A result for a check the child was not asked to run (one
                    // the parent judges, or no check at all), or a plugin check
                    // said of one renderer, is plugin code's forgery: dropped.
                    guard asked.contains(result.checkID), result.renderer == nil || ConformanceCatalog.check(result.checkID)?.scope == .renderer,
                          finished.insert(result.unit).inserted else { return .none }
                    results.append(result)
                    if result.status == .skipped, !result.notApplicable { childSkips.insert(result.unit) }
                    if !result.unblocksDependents { blocked[result.unit] = result.stoppedAs }
                    if current == result.unit { current = nil }
                    inCall = nil
                    return .progress
                case .done:
                    sawDone = true
                    return .none
                }
            }
            outcome.deliverOutput(source: target.description, failed: !sawDone || results.contains { $0.status.isFailure })
            stdoutBytes += outcome.stdout.totalBytes
            if stdoutSample.isEmpty { stdoutSample = Array(outcome.stdout.kept.prefix(200)) }
            // The runner says done once every unit it was asked for has a
            // result: a done before that is plugin code's frame.
            let unreported = sawDone ? pendingUnits(results, among: childChecks).first : nil
            if sawDone, unreported == nil, outcome.termination == .exited(0) { break }

            let status: CheckStatus
            let what: String
            switch outcome.termination {
            case .signaled(let signal):
                status = .crashed
                what = "crashed (\(SignalName.of(signal)))"
            case .timedOut(let seconds):
                status = .timedOut
                what = inCall != nil ? "did not return from a layout within \(JSONValue.format(seconds)) s (--layout-timeout)"
                    : "timed out (no progress for \(JSONValue.format(seconds)) s)"
            case .exited(0) where unreported != nil:
                status = .crashed
                what = "wrote to the result channel (done before every check had reported); plugin code must never write to descriptor 3"
            case .exited(let code):
                status = .crashed
                what = "ended the process (exit status \(code)); plugin code must never call exit()"
            case .protocolError(let reason):
                status = .crashed
                what = "wrote to the result channel (\(reason)); plugin code must never write to descriptor 3"
            case .spawnFailed(let reason):
                results.append(CheckResult(checkID: current?.checkID ?? childChecks.first ?? "abi-load", renderer: current?.renderer,
                                           status: .failed, message: "the sandbox could not start: \(reason)"))
                return (results, childSkips)
            }
            guard let unit = current ?? unreported else {
                // Died between units (e.g. in a static destructor at exit).
                results.append(CheckResult(checkID: "abi-load", renderer: nil, status: status == .crashed ? .crashed : .timedOut,
                                           message: "the sandbox \(what) outside any check"))
                return (results, childSkips)
            }
            let message: String
            var details: [String] = []
            if let name = inCall {
                message = "the plugin \(what) laying out \(name)"
                details = ["case: \(name)", "reproduce: " + Self.reproduce(target, check: unit.checkID, renderer: unit.renderer, configuration: configuration)]
            } else {
                message = "the plugin \(what) during this check"
            }
            results.append(CheckResult(checkID: unit.checkID, renderer: unit.renderer, status: status, message: message, details: details))
            finished.insert(unit)
            blocked[unit] = status == .crashed ? what : "timed out"
            restarts += 1
            if restarts > maxRestarts {
                let reason = "not run: the sandbox was restarted \(maxRestarts) times after crashes and hangs"
                results += pendingUnits(results, among: childChecks).map { CheckResult(checkID: $0.checkID, renderer: $0.renderer, status: .skipped, message: reason) }
                break
            }
        }
        // For a plugin file the host lays out in two fresh renderer hosts
        // itself (ParentRuntimeJudgment): a digest child's line is plugin
        // code's to forge. The built-ins run no plugin code.
        if case .builtin = target, configuration.checkIDs.contains("determinism-processes"),
           let check = ConformanceCatalog.checks.first(where: { $0.id == "determinism-processes" }) {
            var renderers: [String] = []
            for result in results { if let id = result.renderer, !renderers.contains(id) { renderers.append(id) } }
            for id in renderers {
                let requirement = results.first { $0.checkID == "determinism-repeat" && $0.renderer == id }
                guard requirement?.unblocksDependents == true else {
                    results.append(CheckResult(checkID: check.id, renderer: id, status: .skipped,
                                               message: "not run: determinism-repeat did not pass"))
                    continue
                }
                let start = SystemCalls.monotonicNanoseconds()
                let outcome = DeterminismChecks.acrossProcesses(target, renderer: id, executable: executable, timeoutSeconds: timeout)
                results.append(outcome.result(for: check, renderer: id, milliseconds: Double(SystemCalls.monotonicNanoseconds() - start) / 1e6))
            }
        }
        if case .builtin = target, configuration.checkIDs.contains("abi-older-host-sizes") {
            results.append(CheckResult(checkID: "abi-older-host-sizes", renderer: nil, status: .skipped,
                                       message: "the built-ins are linked into this host and laid out at its own sizes", notApplicable: true))
        }
        if configuration.checkIDs.contains("abi-quiet-stdout") {
            let sample = String(decoding: stdoutSample, as: UTF8.self).replacingNewlines()
            results.append(stdoutBytes == 0
                ? CheckResult(checkID: "abi-quiet-stdout", renderer: nil, status: .passed, message: "nothing was written to stdout")
                : CheckResult(checkID: "abi-quiet-stdout", renderer: nil, status: .failed,
                              message: "plugin code wrote \(stdoutBytes) bytes to stdout (\"\(sample)\"); stdout belongs to the host, log to stderr or not at all"))
        }
        return (results, childSkips)
    }

    /// Units with no result yet, given the renderers seen so far.
    private func pendingUnits(_ results: [CheckResult], among checkIDs: [String]? = nil) -> [ConformanceUnit] {
        let have = Set(results.map(\.unit))
        let renderers = Array(Set(results.compactMap(\.renderer))).sorted()
        let selected = Set(checkIDs ?? configuration.checkIDs)
        var units: [ConformanceUnit] = []
        for check in ConformanceCatalog.checks where selected.contains(check.id) {
            if check.scope == .plugin || renderers.isEmpty {
                let unit = ConformanceUnit(checkID: check.id, renderer: nil)
                if !have.contains(unit), !(check.scope == .renderer && results.contains { $0.checkID == check.id }) { units.append(unit) }
            } else {
                units += renderers.map { ConformanceUnit(checkID: check.id, renderer: $0) }.filter { !have.contains($0) }
            }
        }
        return units
    }

    /// Every selected unit accounted for: the missing ones are skipped.
    private func completed(_ results: [CheckResult]) -> [CheckResult] {
        let missing = pendingUnits(results)
        return results + missing.map { CheckResult(checkID: $0.checkID, renderer: $0.renderer, status: .skipped, message: "not run: the sandbox ended before this check") }
    }

    /// Plugin-level checks first, then each renderer's, in catalog order.
    static func ordered(_ results: [CheckResult]) -> [CheckResult] {
        let rank = Dictionary(uniqueKeysWithValues: ConformanceCatalog.checks.enumerated().map { ($0.element.id, $0.offset) })
        var rendererOrder: [String] = []
        for result in results { if let renderer = result.renderer, !rendererOrder.contains(renderer) { rendererOrder.append(renderer) } }
        return results.sorted { a, b in
            let ga = a.renderer.flatMap { rendererOrder.firstIndex(of: $0) } ?? -1
            let gb = b.renderer.flatMap { rendererOrder.firstIndex(of: $0) } ?? -1
            return (ga, rank[a.checkID] ?? 999) < (gb, rank[b.checkID] ?? 999)
        }
    }
}

extension String {
    func replacingNewlines() -> String { String(map { $0.isNewline ? " " : $0 }) }
}
