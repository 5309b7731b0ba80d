// SPDX-License-Identifier: MIT
import HudRegistry
import HudPluginBoundary
import HudHarness
import HudRendererAPI
import HudSystem

/// The host's own run of one renderer of a plugin file (ParentJudgment):
/// the renderer checks the sandboxed child is never asked for, judged
/// from layouts and raw calls the host makes through the renderer hosts
/// it drives itself, with the rule functions the child uses for the
/// built-ins (`ConformanceChecks`, `DeterminismChecks`).
///
/// A call that ends the renderer host (a crash, an exit, a broken
/// channel) or misses the layout deadline ends the check it was made for,
/// as the runner attributes a crash or hang to the unit in progress:
/// `failure` holds the first, and the check makes no further call. The
/// layouts several checks read (the geometry and contrast matrices, the
/// prepared calls) are made once, by the first check that reads them, and
/// every check that reads them shares their failure.
///
/// The run-time checks (ParentRuntimeJudgment.swift) run here too, with
/// calls whose failure ends nothing.
///
/// One thread: the caller's.
final class HostRendererRun {
    let info: RendererInfo
    let registry: RendererRegistry
    let host: RendererHost
    let index: Int
    let style: HudPhoneComplicationsStyle
    private let snapshots = SnapshotCache()
    /// This run's guard pattern and poison for raw calls: the renderer
    /// cannot know them in advance.
    private let guardPattern = UInt8.random(in: 0x10...0x7F)
    private let poison = UInt8.random(in: 0x80...0xFE)

    typealias Failure = (error: RegistryError, testCase: LayoutCase)
    /// The first call of the current check that ended its renderer host or
    /// hung, once one did (`begin` clears it).
    private(set) var failure: Failure?
    /// Some case's layout called an action: the host refused it and left
    /// the case out (output-no-action-calls' finding).
    private(set) var calledActions = false

    private var geometryMade: (value: [(LayoutCase, Result<HudLayout, RegistryError>)], failure: Failure?)?
    private var contrastMade: (value: [(LayoutCase, HudLayout?)], failure: Failure?)?
    private var preparedMade: (value: PreparedFindings, failure: Failure?)?

    init?(id: String, registry: RendererRegistry) {
        guard let info = registry.info(id: id),
              let host = registry.allHosts.values.first(where: { $0.index(of: id) != nil }), let index = host.index(of: id) else { return nil }
        self.info = info
        self.registry = registry
        self.host = host
        self.index = index
        self.style = HudPhoneComplicationsStyle(name: id)
    }

    var id: String { info.id }

    /// A new check begins: no failure yet.
    func begin() { failure = nil }

    /// Errors that end the renderer host mid-call (or hang it): the check
    /// in progress is `crashed` or `timed-out` at that case.
    static func endsTheCall(_ error: RegistryError) -> Bool {
        [.crashed, .exited, .timedOut, .protocolError].contains(error.code)
    }

    private func note(_ error: RegistryError, in testCase: LayoutCase) {
        if failure == nil, Self.endsTheCall(error) { failure = (error, testCase) }
    }

    // MARK: - Calls

    /// `testCase` laid out by the registry (decoded and validated by the host).
    func layout(_ testCase: LayoutCase) -> Result<HudLayout, RegistryError> {
        if let failure { return .failure(failure.error) }
        do {
            return .success(try registry.layout(style: style, snapshot: try snapshots.snapshot(testCase.complications), environment: testCase.environment,
                                                interaction: testCase.interaction))
        } catch {
            note(error, in: testCase)
            return .failure(error)
        }
    }

    /// `cases` laid out, less those whose layout called an action (the
    /// registry refuses them; output-no-action-calls reports that).
    private func laidOut(_ cases: [LayoutCase]) -> [(LayoutCase, Result<HudLayout, RegistryError>)] {
        cases.map { ($0, layout($0)) }.filter { _, result in
            guard case .failure(.actionCalledDuringLayout) = result else { return true }
            calledActions = true
            return false
        }
    }

    /// One raw call into a guarded buffer in the renderer host's shared
    /// region, read back by this process: `capacity` nodes exactly (nil:
    /// 64, grown once to the count asked for, as every host calls),
    /// filled with `fill`. Snapshots are kept per complication set, so a
    /// case's strings keep their addresses from one call to the next.
    func rawCall(_ testCase: LayoutCase, capacity: Int?, fill: UInt8) throws(RegistryError) -> RawHostCall {
        if let failure { throw failure.error }
        do throws(RegistryError) {
            let snapshot = try snapshots.snapshot(testCase.complications)
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
        } catch {
            note(error, in: testCase)
            throw error
        }
    }

    // MARK: - Layouts several checks read

    /// Made once, by the first check that reads it, with a failure of its
    /// own; every check that reads it shares that failure.
    private func shared<Value>(_ made: inout (value: Value, failure: Failure?)?, _ make: () -> Value) -> Value {
        if made == nil {
            let outer = failure
            failure = nil
            let value = make()
            made = (value, failure)
            failure = outer
        }
        if failure == nil { failure = made?.failure }
        return made!.value
    }

    /// The geometry matrix, each case's layout or why there is none.
    var geometry: [(LayoutCase, Result<HudLayout, RegistryError>)] {
        shared(&geometryMade) { laidOut(ConformanceInputs.geometryMatrix) }
    }

    /// The geometry cases whose layout decoded.
    var decodedGeometry: [(LayoutCase, HudLayout)] {
        geometry.compactMap { testCase, result in (try? result.get()).map { (testCase, $0) } }
    }

    /// The contrast matrix's layouts (nil: the case gave none).
    var contrast: [(LayoutCase, HudLayout?)] {
        shared(&contrastMade) { laidOut(ConformanceInputs.contrastMatrix).map { ($0, try? $1.get()) } }
    }

    /// What the prepared calls found: inputs changed, actions called, how many calls were made.
    struct PreparedFindings {
        var inputs = ProblemList()
        var actions = ProblemList()
        var made = 0
    }

    /// The cases of the prepared calls: the geometry matrix's first two
    /// devices (iPhone SE and 13 mini), each in every orientation,
    /// direction, text size and interaction the matrix has (72 cases a
    /// device), a quarter of the matrix, so the host's extra work stays small.
    static let preparedCases = Array(ConformanceInputs.geometryMatrix.prefix(144))

    /// Prepared calls over `preparedCases`: the child builds each call's C
    /// inputs in the shared region, this process copies them before the
    /// call and compares after; an action called during one ends the child
    /// with the trap's exit status, which this process observes (and stops
    /// there: a renderer that calls actions gives no further inputs to compare).
    var prepared: PreparedFindings {
        shared(&preparedMade) {
            var found = PreparedFindings()
            let buffer = ValidationFrame.RawBuffer(capacity: 64, stride: UInt32(RawPluginHarness.nodeStride), guardBytes: UInt32(RawPluginHarness.guardBytes),
                                                     environmentSize: UInt32(SharedLayoutArea.hostEnvironmentSize))
            for testCase in Self.preparedCases where failure == nil {
                guard let snapshot = try? snapshots.snapshot(testCase.complications) else { continue }
                do throws(RegistryError) {
                    let call = try host.preparedCall(renderer: index, snapshot, environment: testCase.environment, interaction: testCase.interaction,
                                                     buffer: buffer, guardPattern: guardPattern, fill: 0)
                    found.made += 1
                    if call.changedInputBytes > 0 {
                        found.inputs.add(testCase, ["layout() changed \(call.changedInputBytes) of the \(call.inputBytes) bytes of its inputs (the first at byte \(call.firstChangedInputByte ?? 0)) that the host copied from the shared region before the call; inputs are const"])
                    }
                    if call.raw.actionCalls > 0 {
                        found.actions.add(testCase, ["layout() called \(call.raw.actionCalls) action(s) (caught, not run); actions run only when the user taps"])
                    }
                } catch {
                    note(error, in: testCase)
                    // A failure status or invalid output is another check's finding.
                    guard error.code == .actionCalledDuringLayout else { continue }
                    calledActions = true
                    found.actions.add(testCase, ["\(error)"])
                    break
                }
            }
            return found
        }
    }

    // MARK: - Checks

    /// What `check` found, and how many layouts it judged where that is
    /// what a pass stands on (the per-layout rules and accessibility).
    func outcome(_ check: String) -> (outcome: CheckOutcome, judged: Int?) {
        switch check {
        case "layout-basic":
            do {
                let call = try rawCall(ConformanceInputs.basic, capacity: nil, fill: 0)
                return (ConformanceChecks.layoutBasicOutcome(status: call.status, count: call.count, capacity: call.capacity, nanoseconds: nil), nil)
            } catch {
                return (.problem("the host's own layout of \(ConformanceInputs.basic.name): \(error)"), nil)
            }
        case "geometry-finite":
            return (ConformanceChecks.finiteOutcome(geometry.map { ($0, .init($1)) }), nil)
        case "output-valid":
            return (ConformanceChecks.validOutcome(geometry.map { testCase, result in (testCase, result.mapError { ConformanceChecks.Problem("\($0)") }) }), nil)
        case "determinism-repeat":
            let outcome = DeterminismChecks.repeatOutcome(same: "byte-identical output", { try? rawCall($0, capacity: nil, fill: 0) }) { first, again in
                guard let again else { return "no output" }
                return DeterminismChecks.difference(first, again) ?? (again.sameHeader(as: first) ? nil : "content insets or hidden positions")
            }
            return (outcome, nil)
        case "output-guard-bytes":
            return (ConformanceChecks.guardBytesOutcome(rawCall), nil)
        case "output-needed-count":
            return (ConformanceChecks.neededCountOutcome(rawCall), nil)
        case "output-every-field":
            return (ConformanceChecks.everyFieldOutcome(rawCall, abi: info.abiVersion, poison: poison), nil)
        case "output-inputs-unchanged":
            let found = prepared
            return (found.inputs.outcome(passed: "\(found.made) calls left their inputs in the shared region unchanged"), found.made)
        case "output-no-action-calls":
            let found = prepared
            return (found.actions.outcome(passed: "no action called during \(found.made) layouts"), nil)
        case "geometry-rtl-mirror":
            return (ConformanceChecks.mirrorOutcome(geometry.map { ($0, try? $1.get()) }, info: info), nil)
        case "a11y-labels":
            let layouts = decodedGeometry + contrast.compactMap { testCase, layout in layout.map { (testCase, $0) } }
            return (ConformanceChecks.labelsOutcome(layouts, rawNamesWarn: true), layouts.count)
        case "a11y-contrast":
            let cases = contrast
            return (ConformanceChecks.contrastOutcome(cases), cases.count { $0.1 != nil })
        case let rule where ConformanceChecks.layoutRules[rule] != nil:
            let layouts = decodedGeometry
            return (ConformanceChecks.layoutRuleOutcome(rule, layouts, info: info), layouts.count)
        case let suite where ConformanceChecks.robustSuites[suite] != nil:
            let cases = ConformanceChecks.robustSuites[suite]!
            return (ConformanceChecks.robustOutcome(cases, cases.cases.map { ($0, .init(layout($0))) }), nil)
        default:
            return (.problem("the host has no run of its own for '\(check)'"), nil)
        }
    }

    /// The runner's words for a call that ended the renderer host or hung.
    func failureMessage(_ failure: Failure) -> String {
        let what: String = switch failure.error {
        case .rendererHostFailed(_, _, .timedOut, _):
            "did not return from a layout within \(JSONValue.format(registry.hostSettings.layoutTimeoutSeconds)) s (--layout-timeout)"
        case .rendererHostFailed(_, _, .crashed, let reason) where reason.hasPrefix("crashed (killed by "):
            "crashed (" + reason.dropFirst("crashed (killed by ".count)
        case .rendererHostFailed(_, _, _, let reason): reason
        default: "\(failure.error)"
        }
        return "the plugin \(what) laying out \(failure.testCase.name)"
    }
}
