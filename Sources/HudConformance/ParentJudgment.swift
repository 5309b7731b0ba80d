// SPDX-License-Identifier: MIT
import HudPluginBoundary
import HudRegistry
import HudRendererAPI
import HudHarness
import HudSystem

/// The host's own judgment of a plugin file, made in the parent after a
/// sandboxed `validate` child reported: the child runs in the same process
/// as the plugin, so plugin code can write result lines itself and claim
/// checks passed. Here the parent loads the file the way every host does (a
/// sandboxed scan, then a renderer host it drives itself, Docs/ISOLATION.md).
///
/// The checks in `hostOnly` are the host's alone: the child is never asked
/// for them. HostRendererRun judges every renderer check that lays out
/// from the host's own layouts and raw calls, ParentFactsJudgment.swift
/// the ABI and extension checks from the raw facts its renderer host
/// reports, each with the rule functions the child applies to the
/// built-ins. The run-time checks are the host's alone too
/// (ParentRuntimeJudgment.swift).
///
/// What the child still runs for a file, the loading chain, `abi-metadata`
/// and `abi-needed-libraries`, stands only where the host's own load of the
/// file, what its renderer host saw of the entry before that load
/// (`verifyEntry`) and its symbol lookups agree: where the child claimed a pass (or a
/// warning) and the host found a problem, the host's result replaces the
/// child's and says so, and the claims that depend on it are skipped as
/// unverified. Failures the child reported are kept (a plugin gains
/// nothing by failing itself).
package enum ParentJudgment {
    /// Every check the host judges itself for a plugin file: its own
    /// (`hostOnly`), and the child's claims it verifies (`verified`).
    package static let judged: Set<String> = hostOnly.union(verified)

    /// The checks the child still runs that the host verifies from facts
    /// its renderer host reports (ParentFactsJudgment.swift): its finding
    /// replaces a pass the child claimed. `abi-entry-symbol` and
    /// `abi-init` from what the renderer host saw of the entry before its
    /// load initialized the plugin (the rest of both, and of the loading
    /// chain, is what the host's own load checks); `abi-needed-libraries`,
    /// which stands on no loading step (a file whose load fails for a
    /// missing library is still told which).
    static let verified: Set<String> = ["abi-entry-symbol", "abi-init", "abi-needed-libraries"]

    /// The checks of a plugin file the sandboxed child is never asked for:
    /// every renderer check that lays out (HostRendererRun) and the ABI and
    /// extension checks after `abi-descriptors` (ParentFactsJudgment.swift).
    /// The host's result is the only one, in the words of the rule functions
    /// the child applies to the built-ins, with no claim to replace. None of
    /// them is required by a check the child runs, so the child's own order
    /// is unchanged.
    package static let hostOnly: Set<String> = laidOutChecks.union(factChecks.subtracting(verified))

    /// The renderer checks that lay out.
    static let laidOutChecks: Set<String> = Set([
        "layout-basic", "geometry-finite", "output-valid", "determinism-repeat", "output-guard-bytes", "output-needed-count", "output-every-field",
        "output-inputs-unchanged", "output-no-action-calls", "geometry-rtl-mirror", "a11y-labels", "a11y-contrast",
    ]).union(ConformanceChecks.layoutRules.keys).union(ConformanceChecks.robustSuites.keys)

    /// Which loading check a load failure code breaks.
    static func loadingCheck(for code: FailureCode) -> String {
        switch code {
        case .openFailed, .notAFile, .notELF, .truncated, .wrongClass, .wrongMachine, .notSharedObject, .executable, .corrupt: "abi-load"
        case .missingEntrySymbol, .nullEntry: "abi-entry-symbol"
        case .incompatibleABI, .structTooSmall: "abi-version"
        case .invalidDescriptor, .invalidRendererCount, .duplicateID, .noRenderers: "abi-descriptors"
        case .metadataMismatch: "abi-metadata"
        default: "abi-init"
        }
    }

    /// `results` with the host's verdicts applied (see the type's comment).
    /// With `olderHostSizes`, `abi-older-host-sizes` (judged here only) is added.
    /// `reproduce(check, renderer)` is the command that runs one check
    /// alone (`ConformanceSupervisor.reproduce`), named when a check of the
    /// host's own run crashed or hung.
    static func apply(to results: [CheckResult], path: String, loaded: Result<RendererRegistry, RegistryError>,
                      selected: [String], rendererFilter: String?,
                      loadBudgetMilliseconds: Double = 250, olderHostSizes: Bool = false,
                      reproduce: (_ check: String, _ renderer: String) -> String) -> [CheckResult] {
        var renderers = Array(Set(results.compactMap(\.renderer))).sorted()
        // The host's own checks, in catalog order (a prerequisite first).
        var own = ConformanceCatalog.checks.map(\.id).filter { laidOutChecks.contains($0) && selected.contains($0) }
        var merged = results
        // The loading steps the host's own load does not check, first: the rest stands on them.
        if case .success(let registry) = loaded { verifyEntry(path: path, registry: registry, selected: selected, into: &merged) }
        // A broken loading chain stops every renderer check, as in the
        // runner: the host's own are skipped in its words.
        if let stop = merged.loadingStop {
            merged += own.map { CheckResult(checkID: $0, renderer: nil, status: .skipped, message: stop) }
            own = []
        }
        // Each of the host's checks not laid out skipped, the runner's way
        // where a check they require stopped, else for `reason`.
        func skipFacts(_ reason: String) {
            let notLaidOut = hostOnly.subtracting(laidOutChecks).union(["abi-older-host-sizes"])
            for definition in ConformanceCatalog.checks where notLaidOut.contains(definition.id) && selected.contains(definition.id) {
                for id in definition.scope == .renderer && !renderers.isEmpty ? renderers.map(Optional.some) : [nil] {
                    let stop = (definition.scope == .renderer ? merged.loadingStop : nil) ?? merged.blocker(of: definition, renderer: id, selected: selected)
                    merged.append(CheckResult(checkID: definition.id, renderer: id, status: .skipped, message: stop ?? reason))
                }
            }
        }
        let registry: RendererRegistry
        switch loaded {
        case .success(let made):
            // The chain stopped: the host has nothing to run its checks on.
            if let stop = merged.loadingStop {
                skipFacts(stop)
                return merged
            }
            registry = made
        case .failure(let error):
            // The check the failure breaks, or, when the profile does not
            // select it (abi-metadata is strict only), the last loading
            // step before it that was run: a file the host refuses never
            // passes.
            let broken = loadingCheck(for: error.code)
            let candidates = [broken] + ConformanceRunner.loadingChain.reversed()
            let check = candidates.first { id in merged.contains { $0.checkID == id && $0.renderer == nil } } ?? broken
            override(&merged, check: check, renderer: nil, with: host(check, renderer: nil, status: status(of: error), "the host's own sandboxed load failed: \(error)"))
            // The host has no renderer host of its own to judge anything
            // with: its own checks are skipped, the runner's way where a
            // check they require stopped in the child.
            let reason = "not run: \(check) failed in the host's own run"
            skipFacts(reason)
            for id in renderers.isEmpty ? [nil] : renderers.map(Optional.some) {
                merged += own.map { CheckResult(checkID: $0, renderer: id, status: .skipped, message: reason) }
            }
            return merged
        }
        // Renderers the child did not get to report (it ran no renderer
        // check) are the host's own load's.
        for info in registry.renderers where info.origin != .builtin && (rendererFilter == nil || info.id == rendererFilter) && !renderers.contains(info.id) {
            renderers.append(info.id)
        }
        for id in renderers {
            guard registry.info(id: id) != nil else {
                override(&merged, check: "abi-descriptors", renderer: nil,
                         with: host("abi-descriptors", renderer: nil, status: .failed, "the child reported renderer '\(id)', but the host's own load of the file has no such renderer"))
                merged += own.map { CheckResult(checkID: $0, renderer: id, status: .skipped, message: "not run: the host's own load of the file has no such renderer") }
                continue
            }
            judge(id, registry: registry, own: own, selected: selected, into: &merged, reproduce: reproduce)
        }
        judgeFacts(path: path, registry: registry, renderers: renderers, selected: selected, loadBudgetMilliseconds: loadBudgetMilliseconds,
                   olderHostSizes: olderHostSizes, into: &merged)
        return merged
    }

    /// The host's own result for each of `own` for renderer `id`, in
    /// catalog order (HostRendererRun), or, where a check it requires does
    /// not let it run, the skip the runner would make. A check whose call
    /// crashed or hung the renderer host is `crashed` or `timed-out` at
    /// that case, with the command that runs it alone.
    private static func judge(_ id: String, registry: RendererRegistry, own: [String], selected: [String], into results: inout [CheckResult],
                              reproduce: (_ check: String, _ renderer: String) -> String) {
        guard let run = HostRendererRun(id: id, registry: registry) else {
            results += own.map { CheckResult(checkID: $0, renderer: id, status: .skipped, message: "not run: no renderer host of the host's own load serves it") }
            return
        }
        report(own, renderer: id, selected: selected, into: &results) { check in
            guard let definition = ConformanceCatalog.check(check) else {
                return CheckResult(checkID: check, renderer: id, status: .skipped, message: "not run: the host's own run could not judge it")
            }
            run.begin()
            let start = SystemCalls.monotonicNanoseconds()
            let (outcome, judged) = run.outcome(check)
            let milliseconds = Double(SystemCalls.monotonicNanoseconds() &- start) / 1e6
            if let failure = run.failure {
                return CheckResult(checkID: check, renderer: id, status: status(of: failure.error), message: run.failureMessage(failure),
                                   details: ["case: \(failure.testCase.name)", "reproduce: " + reproduce(check, id)], milliseconds: milliseconds)
            }
            // A pass over no layout at all says nothing: every case's layout
            // called an action (output-no-action-calls' finding).
            if run.calledActions, judged == 0, !outcome.isFinding {
                return CheckResult(checkID: check, renderer: id, status: .skipped,
                                   message: "not run: every case's layout called an action, which the host refuses (output-no-action-calls)")
            }
            return outcome.result(for: definition, renderer: id, milliseconds: milliseconds)
        }
    }

    /// Adds the host's own result for each of `checks` for `renderer`
    /// (`make`'s), or, where a check it requires does not let it run
    /// (after the overrides above), the skip the runner would make.
    private static func report(_ checks: [String], renderer: String, selected: [String], into results: inout [CheckResult],
                               _ make: (String) -> CheckResult) {
        for check in checks {
            guard let definition = ConformanceCatalog.check(check) else { continue }
            if let reason = results.blocker(of: definition, renderer: renderer, selected: selected) {
                results.append(CheckResult(checkID: check, renderer: renderer, status: .skipped, message: reason))
            } else {
                results.append(make(check))
            }
        }
    }

    /// Replaces the child's result for (`check`, `renderer`) when it claimed
    /// success, and, unless the verdict lets dependents run, marks every
    /// claimed success that depends on it as unverified. A warning the child
    /// reported stands against a warning of the host's. A result the child
    /// did not report is not added.
    static func override(_ results: inout [CheckResult], check: String, renderer: String?, with verdict: CheckResult) {
        guard let index = results.firstIndex(where: { $0.checkID == check && $0.renderer == renderer }),
              results[index].claimsSuccess, !(results[index].status == .warning && verdict.status == .warning) else { return }
        let claimed = results[index]
        var replaced = verdict
        replaced.details = ["the sandboxed child reported \(claimed.status.rawValue): \(claimed.message)"] + verdict.details
        replaced.milliseconds = claimed.milliseconds
        results[index] = replaced
        // A warning, or a finding that leaves the layouts usable (`dependentsRun`), blocks nothing.
        let blocked = verdict.unblocksDependents ? [] : dependents(of: check)
        for (position, result) in results.enumerated()
        where blocked.contains(result.checkID) && (renderer == nil || result.renderer == renderer) && result.claimsSuccess {
            results[position] = result.unverified(because: "\(check) failed in the host's own run")
        }
    }

    /// Every check that requires `check`, directly or not.
    static func dependents(of check: String) -> Set<String> {
        var found: Set<String> = []
        var frontier = [check]
        while let next = frontier.popLast() {
            for candidate in ConformanceCatalog.checks where candidate.requires.contains(next) && found.insert(candidate.id).inserted {
                frontier.append(candidate.id)
            }
        }
        return found
    }

    private static func status(of error: RegistryError) -> CheckStatus {
        switch error.code {
        case .crashed, .exited: .crashed
        case .timedOut: .timedOut
        default: .failed
        }
    }

    private static func host(_ check: String, renderer: String?, status: CheckStatus, _ message: String) -> CheckResult {
        CheckResult(checkID: check, renderer: renderer, status: status, message: message)
    }
}

extension CheckResult {
    /// Passed, warned, or found the check not applicable: what a forged
    /// report would claim.
    var claimsSuccess: Bool { status == .passed || status == .warning || (status == .skipped && notApplicable) }

    /// This claim, skipped as not verified for `reason`, saying what the child claimed.
    func unverified(because reason: String) -> CheckResult {
        CheckResult(checkID: checkID, renderer: renderer, status: .skipped, message: "not verified: \(reason)",
                    details: ["the sandboxed child reported \(status.rawValue): \(message)"], milliseconds: milliseconds)
    }
}

extension [CheckResult] {
    /// Why `check` does not run for `renderer`, in the runner's words: a
    /// `selected` check it requires whose result here does not let
    /// dependents run.
    func blocker(of check: ConformanceCheck, renderer: String?, selected: [String]) -> String? {
        for unit in check.requirementUnits(renderer: renderer) where selected.contains(unit.checkID) {
            if let result = first(where: { $0.unit == unit }), !result.unblocksDependents {
                return "requires \(unit.checkID), which \(result.stoppedAs)"
            }
        }
        return nil
    }

    /// Why no renderer check runs, in the runner's words: the first step
    /// of the loading chain here that does not let dependents run (the
    /// runner's own skip of a renderer check says it with the signal).
    var loadingStop: String? {
        for id in ConformanceRunner.loadingChain {
            guard let result = first(where: { $0.checkID == id && $0.renderer == nil }), !result.unblocksDependents else { continue }
            let runners = first { $0.status == .skipped && $0.renderer == nil && ConformanceCatalog.check($0.checkID)?.scope == .renderer }
            return runners?.message ?? "not run: \(id) \(result.stoppedAs)"
        }
        return nil
    }

}
