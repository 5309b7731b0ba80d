// SPDX-License-Identifier: MIT
import HudRegistry
import HudHarness
import HudPresentation
import HudRendererAPI

/// Everything the renderer-level checks share for one renderer: marshaled
/// snapshots (one per complication set, reused like a published set) and
/// the geometry and contrast matrices, laid out once and read by every
/// check that needs them.
final class RendererContext {
    let renderer: RendererUnderTest
    let configuration: ConformanceConfiguration
    let target: ConformanceTarget
    private let snapshots = SnapshotCache()
    private var geometryCache: [Evaluated]?
    private var contrastCache: [Evaluated]?
    /// Told the case's name before each layout on the check's own thread
    /// and nil once it returned (the sandboxed child streams these, so a
    /// crash or hang is reported with its case and a hang is cut at the
    /// layout deadline).
    var announce: ((String?) -> Void)?

    /// One case and what the renderer did with it.
    struct Evaluated {
        var testCase: LayoutCase
        var call: RawPluginHarness.Call
        var layout: HudLayout? { call.layout }
    }

    init(renderer: RendererUnderTest, configuration: ConformanceConfiguration, target: ConformanceTarget) {
        self.renderer = renderer
        self.configuration = configuration
        self.target = target
    }

    var info: RendererInfo { renderer.info }
    var id: String { renderer.info.id }
    var isThreadSafe: Bool { info.capabilities.contains(.threadSafe) }

    func snapshot(_ spec: ComplicationsSpec) -> ComplicationsSnapshot? { try? snapshots.snapshot(spec) }

    /// Lays out `testCase` like the host does: a 64-node buffer, grown once
    /// to the count the renderer asks for.
    func call(_ testCase: LayoutCase, fill: UInt8 = 0, checksum: Bool = true) -> RawPluginHarness.Call {
        guard let snapshot = snapshot(testCase.complications) else {
            preconditionFailure("conformance input '\(testCase.name)' does not marshal")
        }
        return call(testCase, snapshot: snapshot, fill: fill, checksum: checksum)
    }

    /// `announced` false for calls made on worker threads (they must not
    /// call `announce`).
    func call(_ testCase: LayoutCase, snapshot: ComplicationsSnapshot, capacity: Int = 64, fill: UInt8 = 0,
              checksum: Bool = true, announced: Bool = true) -> RawPluginHarness.Call {
        let announce = announced ? self.announce : nil
        announce?(testCase.name)
        defer { announce?(nil) }
        var result = RawPluginHarness.layout(renderer.descriptor, info: info, snapshot: snapshot.storage, environment: testCase.environment,
                                             interaction: testCase.interaction, capacity: capacity, fill: fill, checksum: checksum)
        if result.status == Int32(HUD_STATUS_BUFFER_TOO_SMALL), result.count > UInt32(capacity), result.count <= UInt32(HUD_MAX_NODES) {
            let first = result
            result = RawPluginHarness.layout(renderer.descriptor, info: info, snapshot: snapshot.storage, environment: testCase.environment,
                                             interaction: testCase.interaction, capacity: Int(first.count), fill: fill, checksum: checksum)
            result.actionCalls += first.actionCalls
            result.changedInputs = Array(Set(result.changedInputs + first.changedInputs)).sorted()
        }
        return result
    }

    /// A layout with an exact capacity (no growing), for the buffer checks.
    func call(_ testCase: LayoutCase, capacity: Int, fill: UInt8 = 0) -> RawPluginHarness.Call {
        guard let snapshot = snapshot(testCase.complications) else { preconditionFailure("input does not marshal") }
        announce?(testCase.name)
        defer { announce?(nil) }
        return RawPluginHarness.layout(renderer.descriptor, info: info, snapshot: snapshot.storage, environment: testCase.environment,
                                       interaction: testCase.interaction, capacity: capacity, fill: fill)
    }

    var geometry: [Evaluated] {
        if let geometryCache { return geometryCache }
        let made = ConformanceInputs.geometryMatrix.map { Evaluated(testCase: $0, call: call($0)) }
        geometryCache = made
        return made
    }

    var contrast: [Evaluated] {
        if let contrastCache { return contrastCache }
        let made = ConformanceInputs.contrastMatrix.map { Evaluated(testCase: $0, call: call($0)) }
        contrastCache = made
        return made
    }

    /// Geometry cases whose layout decoded.
    var decodedGeometry: [(LayoutCase, HudLayout)] {
        geometry.compactMap { evaluated in evaluated.layout.map { (evaluated.testCase, $0) } }
    }
}

/// One snapshot per set of complications, made on first use and reused,
/// as a page keeps its published set: a renderer host (or the child's
/// marshaling) then handles each set once, not once a case.
final class SnapshotCache {
    private var made: [ComplicationsSpec: ComplicationsSnapshot] = [:]

    func snapshot(_ spec: ComplicationsSpec) throws(RegistryError) -> ComplicationsSnapshot {
        if let existing = made[spec] { return existing }
        let snapshot = try ComplicationsSnapshot(spec.make())
        made[spec] = snapshot
        return snapshot
    }
}

/// Collects problems for one check, keeping the first few per case.
struct ProblemList {
    private(set) var items: [String] = []
    private(set) var cases = 0
    private(set) var firstCase: String?

    mutating func add(_ testCase: LayoutCase, _ problems: [String]) {
        guard !problems.isEmpty else { return }
        cases += 1
        if firstCase == nil { firstCase = testCase.name }
        if items.count < 60 {
            items += problems.prefix(3).map { "\(testCase.name): \($0)" }
        }
    }

    var isEmpty: Bool { items.isEmpty }

    /// `.passed(ok)` or `.problem` naming the first failure and how many cases failed.
    func outcome(passed: String, seed: UInt64? = nil) -> CheckOutcome {
        guard let first = items.first else { return .passed(passed, seed: seed) }
        let summary = cases > 1 ? "\(first) (and \(cases - 1) more case\(cases == 2 ? "" : "s"))" : first
        // The message says the first problem; the details go on from there.
        return .problem(summary, details: Array(items.dropFirst()), seed: seed)
    }
}
