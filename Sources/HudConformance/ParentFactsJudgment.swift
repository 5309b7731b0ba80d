// SPDX-License-Identifier: MIT
import HudPluginBoundary
import HudRegistry
import HudRendererAPI
package import HudHarness

/// The loading and extension checks the host judges from raw facts its
/// renderer host reports (Docs/ISOLATION.md "The parent judges"): the
/// parent writes the script of ABI calls (init, deinit, renderer_count,
/// renderer_at) and chooses the extension ids; the child performs them and
/// returns each raw status, count, pointer, struct_size and descriptor
/// digest, and NULL or not per id; the rules are applied here. Two raw
/// calls at the frozen ABI 1.0 node stride and environment size go into a
/// guarded buffer this process lays out and reads itself. The load time is
/// judged from the start this process observed; the needed libraries from
/// the file's undefined symbols, read here and looked up in the plugin's
/// link scope by the child.
///
/// Kept apart from `ParentJudgment.judge` (the layout-based checks) so each
/// can change without the other.
extension ParentJudgment {
    /// The checks judged here.
    static let factChecks: Set<String> = [
        "abi-struct-sizes", "abi-init-refcount", "abi-descriptors-stable", "abi-extension-unknown", "abi-extension-exact",
        "abi-load-time", "abi-needed-libraries",
    ]

    /// The most descriptors the script walks (every one up to this many).
    static let scriptedDescriptors: UInt32 = 64

    /// Judges the `selected` ones of `factChecks` for the file served by
    /// `registry`'s renderer host (the renderer checks for each of
    /// `renderers`), adding the host's result, or the runner's skip where a
    /// check it requires did not let it run. With `olderHostSizes`, also
    /// `abi-older-host-sizes`.
    static func judgeFacts(path: String, registry: RendererRegistry, renderers: [String], selected: [String], loadBudgetMilliseconds: Double,
                           olderHostSizes: Bool = false, into results: inout [CheckResult]) {
        func wanted(_ check: String) -> Bool { factChecks.contains(check) && selected.contains(check) }
        guard factChecks.contains(where: wanted) || olderHostSizes else { return }
        // The registry loaded this one file: one renderer host serves it,
        // whichever renderers the child got as far as reporting.
        guard let host = registry.allHosts.values.first else { return }
        let ids = host.renderers.map(\.id)
        // A fresh child: its plugin is initialized exactly once (by the load),
        // so the script's extra deinit() is one, and its start is timed.
        host.stop()
        var outcomes: [(check: String, renderer: String?, outcome: CheckOutcome)] = []

        // Phase 1: how many descriptors, and which candidate extension ids exist.
        let candidates = ExtensionIDScanner.candidates(for: .file(path: path, renderer: nil)) + ids.map { $0 + "/1" } + ["org.hudson.example/1"]
        let unknown = ConformanceChecks.unknownExtensionIDs
        let firstIDs = unknown.map(\.1) + ids.map { Array($0.utf8) } + candidates.map { Array($0.utf8) }
        let first: ValidationFrame.ABIFactsReply
        do {
            first = try host.abiFacts(script: [.init(.rendererCount)], extensionIDs: Array(firstIDs.prefix(ValidationFrame.maxExtensionIDs)))
        } catch {
            for check in factChecks where wanted(check) {
                let scope: [String?] = ConformanceCatalog.check(check)?.scope == .renderer ? ids : [nil]
                outcomes += scope.map { (check, $0, .problem("the host's renderer host could not report the ABI facts: \(error)")) }
            }
            report(outcomes, renderers: renderers, selected: selected, into: &results)
            return
        }
        // What renderer `index` answered for `bytes` in phase 1 (false for an id not probed).
        let firstPositions = Dictionary(firstIDs.prefix(ValidationFrame.maxExtensionIDs).enumerated().map { ($0.element, $0.offset) }) { a, _ in a }
        func found(_ index: Int, _ bytes: [UInt8]) -> Bool { firstPositions[bytes].map { first.extensions[index][$0] } ?? false }
        var known: [[String]] = []
        for (index, id) in ids.enumerated() {
            outcomes.append(("abi-extension-unknown", id, ConformanceChecks.extensionUnknownOutcome(ownID: id) { found(index, $0) }))
            known.append(candidates.filter { found(index, Array($0.utf8)) })
        }

        if wanted("abi-needed-libraries") { outcomes.append(("abi-needed-libraries", nil, neededLibrariesOutcome(path: path, host: host))) }

        // Phase 2: the ABI sequence, and each known id's near misses.
        let count = UInt32(clamping: max(first.observations.first?.value ?? 0, 0))
        let walked = min(count, scriptedDescriptors)
        let script = ScriptLog.sequence(count: count, walked: walked)
        let variants = known.map { $0.flatMap { id in ConformanceChecks.exactVariants(of: id).map { (id, $0) } } }
        let variantIDs = Array(Set(variants.joined().map(\.1))).sorted().prefix(ValidationFrame.maxExtensionIDs)
        let second: ValidationFrame.ABIFactsReply
        do {
            second = try host.abiFacts(script: script, extensionIDs: variantIDs.map { Array($0.utf8) })
        } catch {
            for check in factChecks.subtracting(["abi-extension-unknown"]) where wanted(check) {
                let scope: [String?] = ConformanceCatalog.check(check)?.scope == .renderer ? ids : [nil]
                outcomes += scope.map { (check, $0, .problem("the host's renderer host could not run the ABI sequence: \(error)")) }
            }
            report(outcomes, renderers: renderers, selected: selected, into: &results)
            return
        }
        // The child's state after the sequence is the plugin's business; the
        // layouts that follow start afresh.
        let observedStart = host.lastStartNanoseconds
        host.stop()
        // One more start, timed as well: the figure judged is the quicker of
        // the two, so a machine busy for one start does not make a warning.
        // The raw calls at the 1.0 sizes below use this child.
        try? host.start()
        let observed = [observedStart, host.lastStartNanoseconds].compactMap { $0 }.min()
        let secondPositions = Dictionary(uniqueKeysWithValues: variantIDs.enumerated().map { (Array($0.element.utf8), $0.offset) })
        for (index, id) in ids.enumerated() {
            // Phase 1's answers, then phase 2's for the near misses.
            let outcome = ConformanceChecks.extensionExactOutcome(candidates: candidates) { bytes in
                if firstPositions[bytes] != nil { return found(index, bytes) }
                return secondPositions[bytes].map { second.extensions[index][$0] } ?? false
            }
            outcomes.append(("abi-extension-exact", id, outcome))
        }
        let log = ScriptLog(second.observations, walked: Int(walked))
        outcomes.append(("abi-init-refcount", nil, refcountOutcome(log)))
        outcomes.append(("abi-descriptors-stable", nil, stabilityOutcome(log, count: count)))
        outcomes.append(("abi-struct-sizes", nil, LoadingChecks.structSizesOutcome(
            version: ABIVersion(packed: second.abiVersion), entrySize: Int(second.entryStructSize),
            descriptorSizes: log.snapshots[0].descriptors.filter { $0.pointer != 0 }.map { Int($0.structSize) })))
        // Renderers whose first layout failed are layout-basic's finding.
        let laidOut = ids.indices.filter { index in
            !results.contains { $0.checkID == "layout-basic" && $0.renderer == ids[index] && !$0.claimsSuccess }
        }
        if olderHostSizes, let check = ConformanceCatalog.check("abi-older-host-sizes") {
            let older = laidOut.flatMap { frozenSizeProblems(host, renderer: $0) }
            let outcome: CheckOutcome = older.isEmpty
                ? .passed("layouts at the ABI 1.0 node stride and environment size stay in their buffers")
                : .problem(older[0], details: older)
            var result = outcome.result(for: check, renderer: nil, milliseconds: 0)
            result.message = "the host's own run: " + result.message
            results.append(result)
        }
        outcomes.append(("abi-load-time", nil, loadTimeOutcome(reported: second.loadNanoseconds, sameStart: observedStart, quickest: observed,
                                                               budget: loadBudgetMilliseconds)))
        report(outcomes, renderers: renderers, selected: selected, into: &results)
    }

    /// Verifies the child's `abi-entry-symbol` and `abi-init` claims against
    /// what `registry`'s renderer host saw of the entry before its load
    /// initialized the plugin (the rest of both steps is what that load
    /// checks): a finding replaces the claim, and the claims that depend on
    /// it become unverified.
    static func verifyEntry(path: String, registry: RendererRegistry, selected: [String], into results: inout [CheckResult]) {
        guard selected.contains("abi-entry-symbol") || selected.contains("abi-init"), let host = registry.allHosts.values.first else { return }
        var outcomes: [(check: String, renderer: String?, outcome: CheckOutcome)] = []
        do {
            guard let entry = try host.abiFacts(script: [], extensionIDs: []).entry else { return }
            let owner = entry.provider.isEmpty ? nil : String(decoding: entry.provider, as: UTF8.self)
            outcomes.append(("abi-entry-symbol", nil, LoadingChecks.entrySymbolOutcome(first: entry.first, again: entry.again, owner: owner,
                                                                                      plugin: LoadingChecks.canonical(path))))
            if let problem = LoadingChecks.countBeforeInitProblem(entry.countBeforeInit) { outcomes.append(("abi-init", nil, .problem(problem))) }
        } catch {
            let problem = CheckOutcome.problem("the host's renderer host could not report what it saw of the entry: \(error)")
            outcomes = [("abi-entry-symbol", nil, problem), ("abi-init", nil, problem)]
        }
        report(outcomes, renderers: [], selected: selected, into: &results)
    }

    /// `abi-needed-libraries` from the file's undefined symbols, read here,
    /// looked up in the plugin's link scope by the renderer host (as many
    /// requests as the names need).
    static func neededLibrariesOutcome(path: String, host: RendererHost) -> CheckOutcome {
        let undefined: [String]
        do {
            undefined = try ElfMetadataReader.undefinedSymbols(path: LoadingChecks.canonical(path))
        } catch {
            return .problem("cannot read the file's dynamic symbols: \(error)")
        }
        var missing: [(symbol: String, provider: String?)] = []
        var rest = undefined.map { Array($0.utf8) }[...]
        while !rest.isEmpty {
            var chunk: [[UInt8]] = [], bytes = 0
            while let name = rest.first, chunk.count < ValidationFrame.maxSymbols, bytes + name.count <= ValidationFrame.maxSymbolBytes {
                chunk.append(name)
                bytes += name.count
                rest = rest.dropFirst()
            }
            guard !chunk.isEmpty else { return .problem("a symbol name of the file is longer than \(ValidationFrame.maxSymbolBytes) bytes") }
            do {
                let facts = try host.abiFacts(script: [], extensionIDs: [], symbols: chunk)
                for (name, fact) in zip(chunk, facts.symbols) where !fact.inScope {
                    missing.append((String(decoding: name, as: UTF8.self), fact.provider.isEmpty ? nil : String(decoding: fact.provider, as: UTF8.self)))
                }
            } catch {
                return .problem("the host's renderer host could not look up the file's undefined symbols: \(error)")
            }
        }
        return LoadingChecks.neededLibrariesOutcome(undefined: undefined.count, missing: missing)
    }

    /// The ABI sequence `abi-init-refcount` and `abi-descriptors-stable`
    /// judge, as raw calls and what each returned: the same script runs in
    /// a renderer host (`judgeFacts`, the host's own judgment) and on the
    /// entry in this process (`LoadingChecks`, the child's), so each
    /// verdict has one implementation (`refcountOutcome`, `stabilityOutcome`).
    package struct ScriptLog {
        /// The script for a plugin of `count` renderers, the first `walked`
        /// of them read at each snapshot: count and descriptors; the
        /// descriptors again; init; snapshot; deinit; snapshot; deinit, an
        /// extra deinit, init; snapshot; three indices past the end; count.
        static func sequence(count: UInt32, walked: UInt32) -> [ValidationFrame.ABIStep] {
            var script: [ValidationFrame.ABIStep] = []
            func snapshot() { script.append(.init(.rendererCount)); script += (0..<walked).map { .init(.rendererAt, $0) } }
            snapshot()
            script += (0..<walked).map { .init(.rendererAt, $0) }
            script.append(.init(.initialize)); snapshot()
            script.append(.init(.deinitialize)); snapshot()
            script += [.init(.deinitialize), .init(.deinitialize), .init(.initialize)]; snapshot()
            script += [.init(.rendererAt, count), .init(.rendererAt, count &+ 1), .init(.rendererAt, .max), .init(.rendererCount)]
            return script
        }

        /// Runs `script` on `entry` in this process, reporting what each
        /// call returned (what a renderer host reports for `abiFacts`).
        package static func run(_ script: [ValidationFrame.ABIStep], on entry: RawEntry) -> [ValidationFrame.ABIObservation] {
            script.map { step in
                switch step.call {
                case .initialize:
                    return .init(step: step, value: entry.initialize().map { Int64($0) } ?? ValidationFrame.ABIObservation.missing)
                case .deinitialize:
                    entry.deinitialize()
                    return .init(step: step, value: 0)
                case .rendererCount:
                    return .init(step: step, value: entry.rendererCount().map { Int64($0) } ?? ValidationFrame.ABIObservation.missing)
                case .rendererAt:
                    let descriptor = entry.descriptor(at: step.argument)
                    return .init(step: step, value: descriptor == nil ? 0 : 1, pointer: descriptor?.address ?? 0,
                                 structSize: UInt32(clamping: descriptor?.structSize ?? 0), digest: descriptor?.digest ?? 0)
                }
            }
        }

        /// The whole sequence run on `entry` in this process, and the renderer count it started from.
        static func observing(_ entry: RawEntry) -> (log: ScriptLog, count: UInt32) {
            let count = min(entry.rendererCount() ?? 0, UInt32(ABILimits.maxRenderers))
            let walked = min(count, scriptedDescriptors)
            return (ScriptLog(run(sequence(count: count, walked: walked), on: entry), walked: Int(walked)), count)
        }

        struct Snapshot {
            var count: Int64
            var descriptors: [ValidationFrame.ABIObservation]
            var digests: [UInt64] { descriptors.map(\.digest) }
        }
        /// 0: loaded; 1: after a second init; 2: after one deinit; 3: after
        /// deinit, an extra deinit and init again.
        var snapshots: [Snapshot] = []
        var repeated: [ValidationFrame.ABIObservation] = []
        var secondInit: Int64 = 0
        var reinit: Int64 = 0
        var pastTheEnd: [ValidationFrame.ABIObservation] = []
        var finalCount: Int64 = 0

        init(_ observations: [ValidationFrame.ABIObservation], walked: Int) {
            var rest = observations[...]
            func take(_ n: Int) -> [ValidationFrame.ABIObservation] {
                defer { rest = rest.dropFirst(n) }
                return Array(rest.prefix(n))
            }
            func snapshot() -> Snapshot {
                let count = take(1).first?.value ?? 0
                return Snapshot(count: count, descriptors: take(walked))
            }
            snapshots.append(snapshot())
            repeated = take(walked)
            secondInit = take(1).first?.value ?? 0
            snapshots.append(snapshot())
            _ = take(1)
            snapshots.append(snapshot())
            reinit = take(3).last?.value ?? 0
            snapshots.append(snapshot())
            pastTheEnd = take(3)
            finalCount = take(1).first?.value ?? 0
        }
    }

    static func statusText(_ value: Int64) -> String {
        value == ValidationFrame.ABIObservation.missing ? "nothing (init is NULL)" : ConformanceChecks.statusText(Int32(truncatingIfNeeded: value))
    }

    /// init twice, deinit once (nothing released), deinit, an extra deinit
    /// (a no-op), init again: the same renderers with the same contents.
    static func refcountOutcome(_ log: ScriptLog) -> CheckOutcome {
        let base = log.snapshots[0]
        var problems: [String] = []
        if log.secondInit != Int64(HUD_STATUS_OK) {
            problems.append("a second init() returned \(statusText(log.secondInit)); init() is reference counted and must succeed again")
        } else {
            if log.snapshots[1].count != base.count { problems.append("renderer_count() changed after a second init()") }
            if log.snapshots[1].digests != base.digests { problems.append("descriptors changed after a second init()") }
            if log.snapshots[2].count != base.count {
                problems.append("after init(), init(), deinit() the plugin reports \(log.snapshots[2].count) renderers instead of \(base.count); the first deinit() must not release anything")
            } else if log.snapshots[2].digests != base.digests {
                problems.append("after init(), init(), deinit() the descriptors changed; they must stay valid and constant until the last deinit()")
            }
        }
        if log.reinit != Int64(HUD_STATUS_OK) {
            problems.append("init() after the last deinit() and an extra deinit() returned \(statusText(log.reinit)); extra deinit() calls must be harmless no-ops")
        } else {
            if log.snapshots[3].count != base.count { problems.append("renderer_count() is \(log.snapshots[3].count) after re-init, was \(base.count)") }
            if log.snapshots[3].digests != base.digests { problems.append("descriptors differ after deinit() and init() again") }
        }
        return problems.isEmpty ? .passed("init, init, deinit, deinit, extra deinit, init: reference counted, descriptors unchanged")
                                : .problem(problems[0], details: problems)
    }

    /// renderer_at(i) twice: the same pointer and contents; NULL past the end.
    static func stabilityOutcome(_ log: ScriptLog, count: UInt32) -> CheckOutcome {
        var problems: [String] = []
        for (index, (first, again)) in zip(log.snapshots[0].descriptors, log.repeated).enumerated() {
            if first.pointer == 0 || again.pointer == 0 {
                problems.append("renderer_at(\(index)) returned NULL although renderer_count() is \(count)")
                continue
            }
            if first.pointer != again.pointer { problems.append("renderer_at(\(index)) returned two different pointers") }
            if first.digest != again.digest { problems.append("renderer_at(\(index))'s contents changed between calls") }
        }
        for observation in log.pastTheEnd where observation.pointer != 0 {
            problems.append("renderer_at(\(observation.step.argument)) returned a descriptor although renderer_count() is \(count); it must return NULL past the end")
        }
        if log.finalCount != log.snapshots[0].count { problems.append("renderer_count() changed between calls") }
        return problems.isEmpty ? .passed("\(count) descriptor\(count == 1 ? "" : "s") stable; NULL past the end") : .problem(problems[0], details: problems)
    }

    /// The load time: the child's figure is a fact to cross-check against
    /// the start it belongs to; the figure judged is the quicker of two
    /// starts this process observed.
    static func loadTimeOutcome(reported: UInt64, sameStart: UInt64?, quickest: UInt64?, budget: Double) -> CheckOutcome {
        guard let sameStart, let observed = quickest else { return .problem("the host did not observe its renderer host's start") }
        let child = Double(reported) / 1e6, seen = Double(observed) / 1e6
        if reported > sameStart {
            return .problem("the renderer host reported \(Format.milliseconds(child)) for dlopen + entry + init(), more than the \(Format.milliseconds(Double(sameStart) / 1e6)) the host observed for that whole start: the report cannot be true")
        }
        let text = "the host observed \(Format.milliseconds(seen)) to start a sandboxed renderer host (spawn, sandbox, dlopen, entry, init(); the child reports \(Format.milliseconds(child)) for dlopen + entry + init()), budget \(Format.milliseconds(budget))"
        return seen > budget ? .problem(text + "; move work out of init() and static constructors") : .passed(text)
    }

    /// Raw calls with renderer `index` at the ABI 1.0 node stride, into a
    /// buffer of exactly the nodes the host-stride layout needs, and at the
    /// 1.0 environment size: the guard zones this process laid out must be
    /// intact, and each node must be where the stride puts it (its first
    /// 1.0 bytes equal to the host-stride layout's).
    static func frozenSizeProblems(_ host: RendererHost, renderer index: Int) -> [String] {
        let id = host.renderers[index].id
        let testCase = ConformanceInputs.basic
        guard let snapshot = try? ComplicationsSnapshot(testCase.complications.make()) else { return [] }
        let hostStride = RawPluginHarness.nodeStride, frozen = Int(HUD_NODE_SIZE_1_0)
        let guardPattern = UInt8.random(in: 0x10...0x7F)
        func call(_ capacity: Int, stride: Int, environment: Int) throws(RegistryError) -> RawHostCall {
            let buffer = ValidationFrame.RawBuffer(capacity: UInt32(capacity), stride: UInt32(stride), guardBytes: UInt32(RawPluginHarness.guardBytes),
                                                     environmentSize: UInt32(environment))
            return try host.rawCall(renderer: index, snapshot, environment: testCase.environment, interaction: testCase.interaction,
                                    buffer: buffer, guardPattern: guardPattern, fill: 0)
        }
        // Not laid out, or not the same twice, or not inside an exact
        // buffer at the host's own stride: other checks' findings.
        guard let full = try? call(64, stride: hostStride, environment: SharedLayoutArea.hostEnvironmentSize),
              let again = try? call(64, stride: hostStride, environment: SharedLayoutArea.hostEnvironmentSize),
              full.status == Int32(HUD_STATUS_OK), full.count > 0, full.count <= 64, again.nodeBytes == full.nodeBytes,
              let exact = try? call(Int(full.count), stride: hostStride, environment: SharedLayoutArea.hostEnvironmentSize),
              exact.guardDamageBefore + exact.guardDamageAfter == 0 else { return [] }
        let nodes = Int(full.count)
        var problems: [String] = []
        do {
            let narrow = try call(nodes, stride: frozen, environment: SharedLayoutArea.hostEnvironmentSize)
            if narrow.guardDamageBefore + narrow.guardDamageAfter > 0 {
                problems.append("\(id): at the ABI 1.0 node stride (\(frozen) bytes) with room for exactly its \(nodes) nodes, layout() wrote \(narrow.guardDamageAfter) bytes past the buffer (\(narrow.guardDamageBefore) before it); step by hud_layout_t.node_stride, never by sizeof(hud_node_t)")
            } else if narrow.status != Int32(HUD_STATUS_OK) || narrow.count != full.count {
                problems.append("\(id): at the ABI 1.0 node stride layout() returned \(ConformanceChecks.statusText(narrow.status)) with count \(narrow.count); at the host's stride it returned HUD_STATUS_OK with \(nodes)")
            } else if let node = (0..<nodes).first(where: { k in
                !full.nodeBytes[k * hostStride..<k * hostStride + frozen].elementsEqual(narrow.nodeBytes[k * frozen..<(k + 1) * frozen])
            }) {
                problems.append("\(id): at the ABI 1.0 node stride node \(node) differs from the same layout at the host's stride; nodes go node_stride bytes apart and the fields the stride covers are written")
            }
            let old = try call(64, stride: frozen, environment: Int(HUD_ENVIRONMENT_SIZE_1_0))
            if old.guardDamageBefore + old.guardDamageAfter > 0 {
                problems.append("\(id): with a 1.0 host's sizes (node stride \(frozen), environment struct_size \(HUD_ENVIRONMENT_SIZE_1_0)) layout() wrote outside its buffer (\(old.guardDamageBefore) bytes before, \(old.guardDamageAfter) after)")
            } else if old.status == Int32(HUD_STATUS_OK), old.count > 64 {
                problems.append("\(id): with a 1.0 host's sizes layout() returned HUD_STATUS_OK with count \(old.count) above the capacity 64")
            }
        } catch {
            problems.append("\(id): the host's raw calls at the ABI 1.0 sizes failed where the same call at its own sizes worked: \(error)")
        }
        return problems
    }

    /// Adds each selected outcome of the host's own checks (a renderer
    /// check's for `renderers` only; none of them requires another), or the runner's
    /// skip where a check it requires did not let it run; for a check the
    /// child ran, replaces the claim the host's finding disproves.
    private static func report(_ outcomes: [(check: String, renderer: String?, outcome: CheckOutcome)], renderers: [String], selected: [String],
                               into results: inout [CheckResult]) {
        for (check, renderer, outcome) in outcomes where selected.contains(check) && (renderer.map(renderers.contains) ?? true) {
            guard let definition = ConformanceCatalog.check(check) else { continue }
            if !hostOnly.contains(check) {
                // The child's claim (abi-needed-libraries) stands unless the host finds a problem.
                guard outcome.isFinding else { continue }
                var result = outcome.result(for: definition, renderer: renderer, milliseconds: 0)
                result.message = "the host's own run: " + result.message
                override(&results, check: check, renderer: renderer, with: result)
            } else if let reason = results.blocker(of: definition, renderer: renderer, selected: selected) {
                results.append(CheckResult(checkID: check, renderer: renderer, status: .skipped, message: reason))
            } else {
                results.append(outcome.result(for: definition, renderer: renderer, milliseconds: 0))
            }
        }
    }
}
