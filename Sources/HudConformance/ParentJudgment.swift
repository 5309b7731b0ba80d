// SPDX-License-Identifier: MIT
import HudPluginBoundary
import HudRegistry
import HudRendererAPI
import HudHarness

/// The host's own judgment of a plugin file, made in the parent after a
/// sandboxed `validate` child reported: the child runs in the same process
/// as the plugin, so plugin code can write result lines itself and claim
/// checks passed. Here the parent loads the file the way every host does (a
/// sandboxed scan, then a renderer host it drives itself, Docs/ISOLATION.md),
/// lays out the reference case and the whole geometry matrix with its own
/// inputs, and judges the output and geometry checks from the layouts it
/// validated itself, with the same rules the child applies.
///
/// A pass is reported only where the host's own run agrees. Where the
/// child claimed a pass (or a warning) and the host found a problem, the
/// host's result replaces the child's and says so; a file the host cannot
/// load, or a renderer whose host crashes on the reference layout, fails
/// the matching check and every check the child claimed that depends on it
/// is skipped as unverified (after a failed load, so is every claim the host
/// would have judged from its own layouts). Failures the child reported are
/// kept (a plugin gains nothing by failing itself).
///
/// Also judged here: both accessibility checks (over the geometry and
/// contrast matrices), every robustness suite, `determinism-repeat` (on
/// the decoded layouts), and the buffer checks (`output-guard-bytes`,
/// `output-needed-count`, `output-every-field`) from raw calls into a
/// guarded buffer the host lays out in the renderer host's shared region,
/// with a guard pattern and poison it picks per run, and reads back itself.
/// The loading and extension checks, inputs unchanged and no action calls
/// are judged from raw facts the renderer host reports
/// (ParentFactsJudgment.swift), the run-time checks after this
/// (ParentRuntimeJudgment.swift). Still the child's word where the host's
/// own load agrees: the loading chain and `abi-metadata`.
package enum ParentJudgment {
    /// The checks the host judges from its own layouts.
    package static let judged: Set<String> = Set(["layout-basic", "output-valid", "geometry-finite", "geometry-rtl-mirror", "determinism-repeat",
                                                  "a11y-labels", "a11y-contrast"])
        .union(ConformanceChecks.layoutRules.keys).union(ConformanceChecks.robustSuites.keys).union(bufferChecks)
        .union(factChecks).union(preparedChecks)

    /// The checks judged from raw calls into a guarded buffer the host lays
    /// out in its renderer host's shared region and reads itself.
    static let bufferChecks: Set<String> = ["output-guard-bytes", "output-needed-count", "output-every-field"]

    /// The checks of a plugin file the sandboxed child is never asked for:
    /// the host's result is the only one (in the words of the same rule
    /// functions, with no claim to replace). No check the child runs
    /// requires one of them, so the child's own order is unchanged.
    /// (The buffer checks stay the child's too: a renderer that crashes
    /// in a raw call is `crashed` there, with its case; the host's call
    /// only fails.)
    package static let hostOnly: Set<String> = Set(ConformanceChecks.layoutRules.keys).union(["a11y-labels", "a11y-contrast"])

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
    /// alone (`ConformanceSupervisor.reproduce`), named when the host's
    /// run stops at a hang.
    static func apply(to results: [CheckResult], path: String, loaded: Result<RendererRegistry, RegistryError>,
                      selected: [String], rendererFilter: String?,
                      loadBudgetMilliseconds: Double = 250, olderHostSizes: Bool = false,
                      reproduce: (_ check: String, _ renderer: String) -> String) -> [CheckResult] {
        var renderers = Array(Set(results.compactMap(\.renderer))).sorted()
        // The host's own checks, in catalog order (a prerequisite first).
        var own = ConformanceCatalog.checks.map(\.id).filter { hostOnly.contains($0) && selected.contains($0) }
        var merged = results
        // A broken loading chain in the child stops every renderer check, as
        // in the runner: the host's own are skipped in its words.
        if let stop = merged.loadingStop {
            merged += own.map { CheckResult(checkID: $0, renderer: nil, status: .skipped, message: stop) }
            own = []
        }
        let registry: RendererRegistry
        switch loaded {
        case .success(let made): registry = made
        case .failure(let error):
            // The check the failure breaks, or, when the profile does not
            // select it (abi-metadata is strict only), the last loading
            // step before it that was run: a file the host refuses never
            // passes.
            let broken = loadingCheck(for: error.code)
            let candidates = [broken] + ConformanceRunner.loadingChain.reversed()
            let check = candidates.first { id in merged.contains { $0.checkID == id && $0.renderer == nil } } ?? broken
            override(&merged, check: check, renderer: nil, with: host(check, renderer: nil, status: status(of: error), "the host's own sandboxed load failed: \(error)"))
            // Whatever the child reported for that check, the host has no
            // layouts of its own: none of the child's claims it judges stands,
            // but for abi-needed-libraries, which stands on no loading step
            // (the run fails anyway, so the child's word hides nothing).
            merged.setAsideClaims(of: ParentJudgment.judged.subtracting(["abi-needed-libraries"]), because: "\(check) failed in the host's own run")
            for id in renderers.isEmpty ? [nil] : renderers.map(Optional.some) {
                merged += own.map { CheckResult(checkID: $0, renderer: id, status: .skipped, message: "not run: \(check) failed in the host's own run") }
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
        judgePreparedCalls(registry: registry, into: &merged)
        judgeFacts(path: path, registry: registry, loadBudgetMilliseconds: loadBudgetMilliseconds, olderHostSizes: olderHostSizes, into: &merged)
        return merged
    }

    private static func judge(_ id: String, registry: RendererRegistry, own: [String], selected: [String], into results: inout [CheckResult],
                              reproduce: (_ check: String, _ renderer: String) -> String) {
        let style = HudPhoneComplicationsStyle(name: id)
        // The first layout that hung stops the run: every later case would
        // wait out the layout deadline again. (A crashed renderer host is
        // restarted at once, so the run goes on and judges every case.)
        let stop = HostRunStop()
        let snapshots = SnapshotCache()
        func layout(_ testCase: LayoutCase) -> Result<HudLayout, RegistryError> {
            if let stopped = stop.error { return .failure(stopped) }
            do {
                return .success(try registry.layout(style: style, snapshot: try snapshots.snapshot(testCase.complications), environment: testCase.environment,
                                                    interaction: testCase.interaction))
            } catch {
                stop.note(error, in: testCase)
                return .failure(error)
            }
        }
        // layout-basic is about the call (status, count, staying alive), as
        // in the child; what the nodes hold is other checks' business.
        if case .failure(let error) = layout(ConformanceInputs.basic), breaksTheCall(error) {
            override(&results, check: "layout-basic", renderer: id,
                     with: host("layout-basic", renderer: id, status: status(of: error), "the host's own layout of \(ConformanceInputs.basic.name): \(error)"))
            report(own, renderer: id, selected: selected, into: &results) { check in
                CheckResult(checkID: check, renderer: id, status: status(of: error), message: "the host's own layout of \(ConformanceInputs.basic.name): \(error)")
            }
            return
        }
        // A case whose layout called an action yields no nodes here (the
        // registry refuses it); output-no-action-calls reports that, so the
        // case is left out of the host's judgment rather than counted twice.
        var calledActions = false
        func laidOut(_ cases: [LayoutCase]) -> [(LayoutCase, Result<HudLayout, RegistryError>)] {
            cases.map { ($0, layout($0)) }.filter { _, result in
                if case .failure(.actionCalledDuringLayout) = result {
                    calledActions = true
                    return false
                }
                return true
            }
        }
        let geometry = laidOut(ConformanceInputs.geometryMatrix)
        let decoded = geometry.compactMap { testCase, result in (try? result.get()).map { (testCase, $0) } }
        // How many layouts each of the host's own checks judged.
        var judgedLayouts: [String: Int] = [:]
        // A check to judge: the host's own, or one the child claimed.
        func claimed(_ check: String) -> Bool {
            own.contains(check) || results.contains { $0.checkID == check && $0.renderer == id && $0.claimsSuccess }
        }
        var outcomes: [String: CheckOutcome] = [:]
        outcomes["output-valid"] = ConformanceChecks.validOutcome(geometry.map { testCase, result in
            (testCase, result.mapError { ConformanceChecks.Problem("\($0)") })
        })
        outcomes["geometry-finite"] = ConformanceChecks.finiteOutcome(geometry.map { ($0, .init($1)) })
        guard let info = registry.info(id: id) else { return }
        for rule in ConformanceChecks.layoutRules.keys where claimed(rule) {
            outcomes[rule] = ConformanceChecks.layoutRuleOutcome(rule, decoded, info: info)
            judgedLayouts[rule] = decoded.count
        }
        outcomes["geometry-rtl-mirror"] = ConformanceChecks.mirrorOutcome(geometry.map { ($0.0, try? $0.1.get()) }, info: info)
        // The accessibility checks read the contrast cases' layouts too
        // (an action called during one is left out, as above).
        if claimed("a11y-labels") || claimed("a11y-contrast") {
            let contrast = laidOut(ConformanceInputs.contrastMatrix).map { ($0, try? $1.get()) }
            let layouts = decoded + contrast.compactMap { testCase, layout in layout.map { (testCase, $0) } }
            if claimed("a11y-labels") { outcomes["a11y-labels"] = ConformanceChecks.labelsOutcome(layouts, rawNamesWarn: true) }
            if claimed("a11y-contrast") { outcomes["a11y-contrast"] = ConformanceChecks.contrastOutcome(contrast) }
            judgedLayouts["a11y-labels"] = layouts.count
            judgedLayouts["a11y-contrast"] = contrast.count { $0.1 != nil }
        }
        for (check, suite) in ConformanceChecks.robustSuites where claimed(check) {
            outcomes[check] = ConformanceChecks.robustOutcome(suite, suite.cases.map { ($0, .init(layout($0))) })
        }
        if claimed("determinism-repeat") {
            outcomes["determinism-repeat"] = DeterminismChecks.repeatOutcome(same: "identical layouts", { try? layout($0).get() }) { first, again in
                again == first ? nil : "the decoded layouts"
            }
        }
        if bufferChecks.contains(where: claimed), let call = rawCaller(id, registry: registry) {
            // The host's own guard pattern and poison, chosen per run: the
            // renderer cannot know them in advance.
            let guardPattern = UInt8.random(in: 0x10...0x7F)
            let poison = UInt8.random(in: 0x80...0xFE)
            let caller: ConformanceChecks.BufferCaller = { testCase, capacity, fill throws(RegistryError) in
                if let stopped = stop.error { throw stopped }
                do throws(RegistryError) {
                    return try call(testCase, capacity, fill == 0 ? 0 : poison, guardPattern)
                } catch {
                    stop.note(error, in: testCase)
                    throw error
                }
            }
            if claimed("output-guard-bytes") { outcomes["output-guard-bytes"] = ConformanceChecks.guardBytesOutcome(caller) }
            if claimed("output-needed-count") { outcomes["output-needed-count"] = ConformanceChecks.neededCountOutcome(caller) }
            if claimed("output-every-field") {
                outcomes["output-every-field"] = ConformanceChecks.everyFieldOutcome(caller, abi: info.abiVersion, poison: poison)
            }
        }
        if let (stopped, testCase) = stop.first {
            // What was judged before the stop is partial: each check gets
            // the stop itself as the host's verdict.
            let status = status(of: stopped)
            func verdict(_ check: String) -> CheckResult {
                CheckResult(checkID: check, renderer: id, status: status, message: "the host's own run stopped laying out \(testCase.name): \(stopped)",
                            details: ["case: \(testCase.name)", "reproduce: " + reproduce(check, id)])
            }
            for check in outcomes.keys.sorted() where !own.contains(check) { override(&results, check: check, renderer: id, with: verdict(check)) }
            report(own, renderer: id, selected: selected, into: &results, verdict)
            return
        }
        for (check, outcome) in outcomes where !own.contains(check) {
            guard outcome.isFinding, let definition = ConformanceCatalog.check(check) else { continue }
            var result = outcome.result(for: definition, renderer: id, milliseconds: 0)
            result.message = "the host's own run: " + result.message
            override(&results, check: check, renderer: id, with: result)
        }
        report(own, renderer: id, selected: selected, into: &results) { check in
            guard let outcome = outcomes[check], let definition = ConformanceCatalog.check(check) else {
                return CheckResult(checkID: check, renderer: id, status: .skipped, message: "not run: the host's own run could not judge it")
            }
            // A pass over no layout at all says nothing: every case's layout
            // called an action (output-no-action-calls' finding).
            if calledActions, judgedLayouts[check] == 0, !outcome.isFinding {
                return CheckResult(checkID: check, renderer: id, status: .skipped,
                                   message: "not run: every case's layout called an action, which the host refuses (output-no-action-calls)")
            }
            return outcome.result(for: definition, renderer: id, milliseconds: 0)
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

    /// Raw calls through the renderer host serving `id`: `capacity` nodes
    /// exactly (nil: 64, grown once to the count asked for, as every host
    /// calls), filled with `fill`, between guard zones of `guardPattern`, at
    /// this host's node stride and environment size; the guard zones and
    /// nodes are read back from the shared region by this process.
    private static func rawCaller(_ id: String, registry: RendererRegistry)
        -> ((LayoutCase, Int?, UInt8, UInt8) throws(RegistryError) -> RawHostCall)? {
        guard let host = registry.allHosts.values.first(where: { $0.index(of: id) != nil }), let index = host.index(of: id) else { return nil }
        // One snapshot per case, so the child decodes each case's
        // complications once: strings the renderer points at keep their
        // addresses between the zeroed and the poisoned call of a case.
        var snapshots: [String: ComplicationsSnapshot] = [:]
        for testCase in ConformanceChecks.bufferCases { snapshots[testCase.name] = try? ComplicationsSnapshot(testCase.complications.make()) }
        let made = snapshots
        return { testCase, capacity, fill, guardPattern throws(RegistryError) in
            let snapshot: ComplicationsSnapshot
            if let cached = made[testCase.name] { snapshot = cached } else { snapshot = try ComplicationsSnapshot(testCase.complications.make()) }
            func raw(_ nodes: Int) throws(RegistryError) -> RawHostCall {
                let buffer = ValidationFrame.RawBuffer(capacity: UInt32(nodes), stride: UInt32(RawPluginHarness.nodeStride),
                                                         guardBytes: UInt32(RawPluginHarness.guardBytes),
                                                         environmentSize: UInt32(SharedLayoutArea.hostEnvironmentSize))
                return try host.rawCall(renderer: index, snapshot, environment: testCase.environment, interaction: testCase.interaction,
                                        buffer: buffer, guardPattern: guardPattern, fill: fill)
            }
            if let capacity { return try raw(capacity) }
            let first = try raw(64)
            guard first.status == Int32(HUD_STATUS_BUFFER_TOO_SMALL), first.count > 64, first.count <= UInt32(HUD_MAX_NODES) else { return first }
            var again = try raw(Int(first.count))
            again.actionCalls += first.actionCalls
            return again
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

    /// True when `error` means the call itself failed (the renderer host
    /// died or hung, a failure status, a count that never settled or
    /// overran the buffer), not that the nodes break a rule.
    static func breaksTheCall(_ error: RegistryError) -> Bool {
        switch error {
        case .rendererHostFailed, .layoutFailed, .layoutTooLarge: true
        case .invalidLayout(_, _, let node, let field, _): node == nil && field == "count"
        default: false
        }
    }

    private static func status(of error: RegistryError) -> CheckStatus {
        switch error.code {
        case .crashed, .exited: .crashed
        case .timedOut: .timedOut
        default: .failed
        }
    }

    /// The first layout of a host's run that hung (its renderer host did
    /// not answer within the layout deadline), once one did.
    final class HostRunStop {
        private(set) var first: (error: RegistryError, testCase: LayoutCase)?
        var error: RegistryError? { first?.error }

        func note(_ error: RegistryError, in testCase: LayoutCase) {
            guard first == nil, error.code == .timedOut else { return }
            first = (error, testCase)
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
    func blocker(of check: ConformanceCheck, renderer: String, selected: [String]) -> String? {
        for unit in check.requirementUnits(renderer: renderer) where selected.contains(unit.checkID) {
            if let result = first(where: { $0.unit == unit }), !result.unblocksDependents {
                return "requires \(unit.checkID), which \(result.status == .skipped ? "was skipped" : result.status.rawValue)"
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
            return runners?.message ?? "not run: \(id) \(result.status == .skipped ? "was skipped" : result.status.rawValue)"
        }
        return nil
    }

    /// Every success the child claimed for one of `checks`, as not verified for `reason`.
    mutating func setAsideClaims(of checks: Set<String>, because reason: String) {
        for (position, result) in enumerated() where checks.contains(result.checkID) && result.claimsSuccess {
            self[position] = result.unverified(because: reason)
        }
    }
}
