// SPDX-License-Identifier: MIT
import HudRegistry
import HudHarness
import HudPresentation
import Glibc
import HudRendererAPI
import HudSystem

/// The renderer-level checks. Each reads the context's shared layouts or
/// makes its own calls, and returns what it found.
enum ConformanceChecks {
    static func run(_ id: String, _ context: RendererContext) -> CheckOutcome {
        switch id {
        case "abi-extension-unknown": extensionUnknown(context)
        case "abi-extension-exact": extensionExact(context)
        case "layout-basic": layoutBasic(context)
        case "geometry-finite": finite(context)
        case "output-valid": valid(context)
        case "determinism-repeat": DeterminismChecks.repeatable(context)
        case "output-guard-bytes": guardBytes(context)
        case "output-needed-count": neededCount(context)
        case "output-every-field": everyField(context)
        case "output-inputs-unchanged": inputsUnchanged(context)
        case "output-no-action-calls": noActionCalls(context)
        case let id where robustSuites[id] != nil: robust(context, id)
        case "geometry-rtl-mirror": mirror(context)
        case let id where layoutRules[id] != nil: perLayout(context, id)
        case "a11y-labels": labels(context)
        case "a11y-contrast": contrast(context)
        case "thread-safety": DeterminismChecks.threadSafety(context)
        case "determinism-processes": DeterminismChecks.acrossProcesses(context)
        case "perf-layout-time": DeterminismChecks.layoutTime(context)
        case "perf-allocations": DeterminismChecks.allocations(context)
        case "fuzz": FuzzCheck.run(context)
        default: .problem("unknown renderer check '\(id)'")
        }
    }

    static func statusText(_ status: Int32) -> String { "\(status) (\(StatusName.of(status)))" }

    // MARK: - Extensions

    static let unknownExtensionIDs: [(String, [UInt8])] = [
        ("an unknown versioned id", Array("org.hudson.conformance.unknown/1".utf8)),
        ("the empty string", []),
        ("\"/\"", Array("/".utf8)),
        ("a 128-byte id", Array(("org.hudson.conformance." + String(repeating: "x", count: 128)).utf8.prefix(128))),
        ("a 4096-byte id", Array(repeating: UInt8(ascii: "z"), count: 4096)),
        ("invalid UTF-8", [0xFF, 0xFE, 0x2F, 0x31]),
    ]

    static func extensionUnknown(_ context: RendererContext) -> CheckOutcome {
        extensionUnknownOutcome(ownID: context.id, probe: context.renderer.descriptor.hasExtension(idBytes:))
    }

    static func extensionExact(_ context: RendererContext) -> CheckOutcome {
        let candidates = ExtensionIDScanner.candidates(for: context.target) + [context.id + "/1", "org.hudson.example/1"]
        return extensionExactOutcome(candidates: candidates, probe: context.renderer.descriptor.hasExtension(idBytes:))
    }

    /// `abi-extension-unknown`'s rule, over `probe(id)`: true when the
    /// renderer's get_extension returned non-NULL for `id` (called here in
    /// this process, or reported by a renderer host for the host's own run).
    static func extensionUnknownOutcome(ownID: String, probe: ([UInt8]) -> Bool) -> CheckOutcome {
        var problems: [String] = []
        for (name, bytes) in unknownExtensionIDs + [("the renderer's own id", Array(ownID.utf8))] where probe(bytes) {
            problems.append("get_extension(\(name)) returned non-NULL; unknown ids must return NULL")
        }
        return problems.isEmpty ? .passed("NULL for \(unknownExtensionIDs.count + 1) unknown ids") : .problem(problems[0], details: problems)
    }

    /// `abi-extension-exact`'s rule: of `candidates`, the ids the renderer
    /// knows must match only exactly (`exactVariants` all NULL).
    static func extensionExactOutcome(candidates: [String], probe: ([UInt8]) -> Bool) -> CheckOutcome {
        let known = candidates.filter { probe(Array($0.utf8)) }
        var problems: [String] = []
        for id in known {
            for variant in exactVariants(of: id) where probe(Array(variant.utf8)) {
                problems.append("get_extension(\"\(variant)\") returned non-NULL: only the exact id \"\(id)\" may match (compare with strcmp, not a prefix)")
            }
        }
        if known.isEmpty {
            return .passed("no extension ids found to probe (\(candidates.count) candidates tried, all NULL)")
        }
        return problems.isEmpty ? .passed("\(known.count) extension\(known.count == 1 ? "" : "s") (\(known.joined(separator: ", "))) match exactly") : .problem(problems[0], details: problems)
    }

    /// Near misses of extension id `id` that an exact match refuses.
    static func exactVariants(of id: String) -> [String] {
        [id + "x", id + " ", id + "/", id + "0", id + "\u{1}", String(id.dropLast()), id.uppercased(), "x" + id].filter { $0 != id }
    }

    // MARK: - First layout and validation

    static func layoutBasic(_ context: RendererContext) -> CheckOutcome {
        let call = context.call(ConformanceInputs.basic)
        return layoutBasicOutcome(status: call.status, count: call.count, capacity: call.capacity, nanoseconds: call.nanoseconds)
    }

    /// `layout-basic`'s rule over the reference layout's call (as every
    /// host calls: 64 nodes, grown once): HUD_STATUS_OK within the buffer.
    /// `nanoseconds`: the call's own time, where it was measured in the
    /// plugin's process.
    static func layoutBasicOutcome(status: Int32, count: UInt32, capacity: Int, nanoseconds: UInt64?) -> CheckOutcome {
        guard status == Int32(HUD_STATUS_OK) else {
            return .problem("layout() of \(ConformanceInputs.basic.name) returned \(statusText(status)) (count \(count)); a renderer must lay out the reference complications")
        }
        guard Int(count) <= capacity else {
            return .problem("layout() returned HUD_STATUS_OK with count \(count) above the capacity \(capacity); return HUD_STATUS_BUFFER_TOO_SMALL when the buffer is short")
        }
        return .passed("HUD_STATUS_OK, \(count) nodes" + (nanoseconds.map { " in \(Format.microseconds(Double($0)))" } ?? ""))
    }

    /// What `geometry-finite` reads of one geometry case, from the child's
    /// raw call or the host's own layout through a renderer host.
    enum FiniteCase {
        /// Numbers that are not finite (or lengths below zero), by field.
        case nonFinite([String])
        case laidOut(HudLayout)
        /// No output to judge here (a failure status: other checks' finding).
        case elsewhere

        init(_ call: RawPluginHarness.Call) {
            guard call.status == Int32(HUD_STATUS_OK) else { self = .elsewhere; return }
            let found = RawPluginHarness.nonFiniteFields(in: call)
            if !found.isEmpty { self = .nonFinite(found) } else if let layout = call.layout { self = .laidOut(layout) } else { self = .elsewhere }
        }

        /// The host's validation refuses a non-finite number as an invalid
        /// geometric field; its error says which.
        init(_ result: Result<HudLayout, RegistryError>) {
            switch result {
            case .success(let layout): self = .laidOut(layout)
            case .failure(let error):
                let geometric = ["frame.", "hit.", "corner_radius", "stroke_width", "font_size", "glyph_size", "content_insets."]
                if case .invalidLayout(_, _, let node, let field, let reason) = error, geometric.contains(where: { field.hasPrefix($0) }) {
                    self = .nonFinite([(node.map { "node \($0): " } ?? "") + "\(field) \(reason)"])
                } else {
                    self = .elsewhere
                }
            }
        }
    }

    static func finite(_ context: RendererContext) -> CheckOutcome {
        finiteOutcome(context.geometry.map { ($0.testCase, FiniteCase($0.call)) })
    }

    /// Every number finite, every frame on screen. Frames that leave the
    /// screen but are finite numbers block nothing: the checks that depend
    /// on this one (output-valid and the geometry rules after it) still
    /// run, so the rule actually broken (a slot pushed through the
    /// home-indicator band: geometry-safe-bands) is reported too, not skipped.
    static func finiteOutcome(_ cases: [(LayoutCase, FiniteCase)]) -> CheckOutcome {
        var problems = ProblemList()
        var nonFinite = false
        for (testCase, found) in cases {
            switch found {
            case .nonFinite(let fields):
                nonFinite = true
                problems.add(testCase, fields)
            case .laidOut(let layout): problems.add(testCase, GeometryRules.onScreen(layout, testCase.environment))
            case .elsewhere: break
            }
        }
        let outcome = problems.outcome(passed: "\(cases.count) layouts: every number finite, every frame on screen")
        if !nonFinite, case .problem(let message, let details, _) = outcome {
            return .problemDependentsRun(message + "; every number is finite, so the checks that depend on this one still run", details: details)
        }
        return outcome
    }

    static func valid(_ context: RendererContext) -> CheckOutcome {
        validOutcome(context.geometry.map { evaluated in
            let call = evaluated.call
            if call.status != Int32(HUD_STATUS_OK) { return (evaluated.testCase, .failure(Problem("layout() returned \(statusText(call.status))"))) }
            if Int(call.count) > call.capacity {
                return (evaluated.testCase, .failure(Problem("HUD_STATUS_OK with count \(call.count) above the capacity \(call.capacity)")))
            }
            if case .failure(let error)? = call.decoded { return (evaluated.testCase, .failure(Problem("\(error)"))) }
            return (evaluated.testCase, evaluated.layout.map { .success($0) } ?? .failure(Problem("no layout")))
        })
    }

    /// Why a case produced no layout, as a sentence.
    struct Problem: Error {
        let text: String
        init(_ text: String) { self.text = text }
    }

    /// One case and what came of it: the validated layout or the problem.
    typealias JudgedCase = (testCase: LayoutCase, layout: Result<HudLayout, Problem>)

    /// `output-valid` over judged cases (the child's raw calls, or the
    /// layouts the host obtained itself through a renderer host).
    static func validOutcome(_ cases: [JudgedCase]) -> CheckOutcome {
        var problems = ProblemList()
        for (testCase, layout) in cases {
            if case .failure(let problem) = layout { problems.add(testCase, [problem.text]) }
        }
        return problems.outcome(passed: "\(cases.count) layouts on \(DevicePreset.all.count) devices pass the host's validation")
    }

    // MARK: - Output contract

    /// Cases for the buffer checks: a few different node counts.
    static let bufferCases: [LayoutCase] = {
        let env = ConformanceInputs.device(.default)
        return [
            ConformanceInputs.basic,
            LayoutCase(name: "reference, center modes revealed", complications: .reference, environment: env,
                       interaction: HudInteraction(revealedPosition: .center)),
            LayoutCase(name: "plain", complications: .plain, environment: env),
        ]
    }()

    /// One raw call for the buffer checks: `capacity` nodes exactly (nil:
    /// as the host calls, 64 nodes grown once to the count asked for), the
    /// nodes pre-filled with `fill`. The child's calls go through its
    /// guarded harness; the host's through a renderer host into a guarded
    /// buffer in the shared region it reads itself (ParentJudgment).
    typealias BufferCaller = (_ testCase: LayoutCase, _ capacity: Int?, _ fill: UInt8) throws(RegistryError) -> RawHostCall

    static func bufferCaller(_ context: RendererContext) -> BufferCaller {
        { testCase, capacity, fill in
            let call = capacity.map { context.call(testCase, capacity: $0, fill: fill) } ?? context.call(testCase, fill: fill)
            return RawHostCall(status: call.status, count: call.count, capacity: call.capacity, stride: call.stride, nodeBytes: call.nodeBytes,
                               guardDamageBefore: call.guardDamageBefore, guardDamageAfter: call.guardDamageAfter, actionCalls: call.actionCalls,
                               contentInsets: call.contentInsets, hiddenPositions: call.hiddenPositions)
        }
    }

    /// Runs `body`; a call that could not be made (the host's renderer host
    /// crashed or hung) is the check's problem.
    private static func judging(_ body: () throws(RegistryError) -> CheckOutcome) -> CheckOutcome {
        do { return try body() } catch { return .problem("a call failed: \(error)") }
    }

    static func guardBytes(_ context: RendererContext) -> CheckOutcome { guardBytesOutcome(bufferCaller(context)) }

    static func guardBytesOutcome(_ call: BufferCaller) -> CheckOutcome {
        judging { () throws(RegistryError) in
            var problems = ProblemList()
            var tried = 0
            for testCase in bufferCases {
                let needed = Int(try call(testCase, nil, 0).count)
                let capacities = Set([0, 1, 2, needed / 2, max(0, needed - 1), needed, needed + 1]).sorted()
                for capacity in capacities where capacity <= HUD_MAX_NODES {
                    tried += 1
                    let result = try call(testCase, capacity, 0)
                    var found: [String] = []
                    if result.guardDamageBefore > 0 { found.append("with capacity \(capacity) it changed \(result.guardDamageBefore) byte(s) in the guard zone before the node buffer") }
                    if result.guardDamageAfter > 0 { found.append("with capacity \(capacity) (needing \(needed)) it changed \(result.guardDamageAfter) byte(s) past the end of the node buffer; write at most `capacity` nodes (use hud_layout_push_node)") }
                    problems.add(testCase, found)
                }
            }
            return problems.outcome(passed: "\(tried) calls with capacities from 0 to the needed count + 1 left every guard byte intact")
        }
    }

    static func neededCount(_ context: RendererContext) -> CheckOutcome { neededCountOutcome(bufferCaller(context)) }

    static func neededCountOutcome(_ call: BufferCaller) -> CheckOutcome {
        judging { () throws(RegistryError) in
            var problems = ProblemList()
            var tried = 0
            for testCase in bufferCases {
                let full = try call(testCase, nil, 0)
                guard full.status == Int32(HUD_STATUS_OK) else { continue }
                let needed = Int(full.count)
                for capacity in Set([0, needed / 2, max(0, needed - 1)]).sorted() where capacity < needed {
                    tried += 1
                    let result = try call(testCase, capacity, 0)
                    if result.status != Int32(HUD_STATUS_BUFFER_TOO_SMALL) {
                        problems.add(testCase, ["with capacity \(capacity) for \(needed) nodes it returned \(statusText(result.status)) instead of HUD_STATUS_BUFFER_TOO_SMALL"])
                    } else if Int(result.count) != needed {
                        problems.add(testCase, ["with capacity \(capacity) it reported count \(result.count) but needs \(needed) nodes; count must be the number needed"])
                    }
                }
                let exact = try call(testCase, needed, 0)
                tried += 1
                if exact.status != Int32(HUD_STATUS_OK) || Int(exact.count) != needed {
                    problems.add(testCase, ["with exactly \(needed) nodes of room it returned \(statusText(exact.status)) and count \(exact.count)"])
                }
            }
            if tried == 0 { return .notApplicable("the renderer emitted no nodes for the buffer cases") }
            return problems.outcome(passed: "\(tried) short and exact buffers: BUFFER_TOO_SMALL with the exact count, then OK")
        }
    }

    static func everyField(_ context: RendererContext) -> CheckOutcome {
        everyFieldOutcome(bufferCaller(context), abi: context.info.abiVersion, poison: RawPluginHarness.poisonPattern)
    }

    /// Compares each case laid out into a zeroed buffer and into one filled
    /// with `poison`: a byte that differs was never written. Only the bytes
    /// the renderer's declared minor knows count (168 for 1.0).
    static func everyFieldOutcome(_ call: BufferCaller, abi: ABIVersion, poison: UInt8) -> CheckOutcome {
        judging { () throws(RegistryError) in
            var problems = ProblemList()
            let fields = NodeFields.all
            for testCase in bufferCases {
                let zeroed = try call(testCase, nil, 0)
                let poisoned = try call(testCase, nil, poison)
                guard zeroed.status == Int32(HUD_STATUS_OK), zeroed.nodeBytes.count == poisoned.nodeBytes.count, zeroed.stride == poisoned.stride else { continue }
                var found: [String] = []
                let stride = zeroed.stride
                let known = NodeFields.knownBytes(abi: abi, stride: stride)
                for offset in zeroed.nodeBytes.indices where zeroed.nodeBytes[offset] != poisoned.nodeBytes[offset] && offset % stride < known {
                    let field = fields.last { $0.offset <= offset % stride }?.name ?? "padding"
                    let text = "node \(offset / stride): field \(field) was not written (it kept the buffer's initial bytes)"
                    if found.last != text { found.append(text) }
                }
                problems.add(testCase, found)
            }
            let scope = abi.minor >= 1 ? "" : " (the \(HUD_NODE_SIZE_1_0) bytes an ABI 1.0 renderer knows)"
            return problems.outcome(passed: "every byte of every counted node is written" + scope)
        }
    }

    static func inputsUnchanged(_ context: RendererContext) -> CheckOutcome {
        var problems = ProblemList()
        for evaluated in context.geometry + context.contrast where !evaluated.call.changedInputs.isEmpty {
            problems.add(evaluated.testCase, ["layout() changed its \(evaluated.call.changedInputs.joined(separator: " and ")) input; inputs are const"])
        }
        return problems.outcome(passed: "\(context.geometry.count + context.contrast.count) calls left complications, environment and interaction unchanged")
    }

    static func noActionCalls(_ context: RendererContext) -> CheckOutcome {
        var problems = ProblemList()
        for evaluated in context.geometry + context.contrast where evaluated.call.actionCalls > 0 {
            problems.add(evaluated.testCase, ["layout() called \(evaluated.call.actionCalls) action(s) (caught, not run); actions run only when the user taps"])
        }
        return problems.outcome(passed: "no action called during \(context.geometry.count + context.contrast.count) layouts")
    }

    // MARK: - Robustness

    /// What one case of a robustness suite came to, as the child's raw
    /// call or the host's own layout through a renderer host saw it.
    enum RobustCase {
        /// HUD_STATUS_OK and output the host's validation accepts.
        case laidOut
        /// A status other than HUD_STATUS_OK.
        case status(Int32)
        /// HUD_STATUS_OK, but the output breaks the host's rules.
        case broken([String])
        /// Another check's finding (an action called during layout).
        case elsewhere

        init(_ call: RawPluginHarness.Call) {
            guard call.status == Int32(HUD_STATUS_OK) else { self = .status(call.status); return }
            let nonFinite = RawPluginHarness.nonFiniteFields(in: call)
            if !nonFinite.isEmpty { self = .broken(nonFinite); return }
            switch call.decoded {
            case .success?: self = .laidOut
            case .failure(let error)?: self = .broken(["\(error)"])
            case nil: self = .broken(["HUD_STATUS_OK with count \(call.count) above the capacity \(call.capacity)"])
            }
        }

        init(_ result: Result<HudLayout, RegistryError>) {
            switch result {
            case .success: self = .laidOut
            case .failure(.actionCalledDuringLayout): self = .elsewhere
            case .failure(.layoutFailed(_, _, let status)): self = .status(status)
            case .failure(let error): self = .broken(["\(error)"])
            }
        }
    }

    /// A robustness suite's rule: every case OK (or, when the suite allows
    /// it, UNSUPPORTED) with output that passes the host's validation.
    static func robustOutcome(_ suite: RobustSuite, _ cases: [(LayoutCase, RobustCase)]) -> CheckOutcome {
        var problems = ProblemList()
        for (testCase, outcome) in cases {
            switch outcome {
            case .laidOut, .elsewhere: break
            case .broken(let found): problems.add(testCase, found)
            case .status(let status) where suite.allowUnsupported && status == Int32(HUD_STATUS_UNSUPPORTED): break
            case .status(let status):
                problems.add(testCase, ["layout() returned \(statusText(status))\(suite.allowUnsupported ? "; only HUD_STATUS_OK or HUD_STATUS_UNSUPPORTED are valid here" : "; these are valid inputs")"])
            }
        }
        return problems.outcome(passed: "\(suite.cases.count) \(suite.passed)")
    }

    /// A robustness check's inputs: the cases, whether UNSUPPORTED is an
    /// acceptable answer, and what a pass says.
    struct RobustSuite {
        var cases: [LayoutCase]
        var allowUnsupported: Bool
        var passed: String
    }

    static func robust(_ context: RendererContext, _ id: String) -> CheckOutcome {
        guard let suite = robustSuites[id] else { return .problem("unknown robustness suite '\(id)'") }
        return robustOutcome(suite, suite.cases.map { ($0, RobustCase(context.call($0))) })
    }

    /// Every robustness check's inputs, by check id (the child runs them
    /// through its raw harness, the host through a renderer host).
    static let robustSuites: [String: RobustSuite] = [
        "robust-complications": RobustSuite(cases: {
            var cases: [LayoutCase] = []
            for environment in [ConformanceInputs.device(.default), ConformanceInputs.device(.iphoneSE, .landscape, .rightToLeft)] {
                for (name, spec) in ConformanceInputs.complicationSets {
                    cases.append(LayoutCase(name: "\(name), \(ConformanceInputs.describe(environment))", complications: spec, environment: environment))
                    for position in Position.allCases where !(spec.slots[position]?.modes.isEmpty ?? true) {
                        cases.append(LayoutCase(name: "\(name), \(position) revealed and pressed, \(ConformanceInputs.describe(environment))", complications: spec,
                                                environment: environment, interaction: HudInteraction(pressed: .slot(position), revealedPosition: position)))
                    }
                }
            }
            return cases
        }(), allowUnsupported: false, passed: "complication sets laid out"),
        "robust-strings": RobustSuite(cases: {
            var cases: [LayoutCase] = []
            for (name, spec, title) in ConformanceInputs.oddStringSets() {
                for direction in HudLayoutDirection.allCases {
                    var environment = ConformanceInputs.device(.iphoneSE, .portrait, direction, textSize: .accessibility5)
                    environment.navigationTitle = title
                    cases.append(LayoutCase(name: "\(name), \(direction.rawValue)", complications: spec, environment: environment,
                                            interaction: HudInteraction(revealedPosition: .center)))
                }
            }
            return cases
        }(), allowUnsupported: false, passed: "layouts with extreme strings"),
        "robust-modes": RobustSuite(cases: {
            var cases: [LayoutCase] = []
            for count in [1, 8, Int(HUD_MAX_MODES)] {
                var spec = ComplicationsSpec.plain
                for position in Position.allCases { spec.slots[position]?.modes = ComplicationsSpec.modes(count) }
                for device in [DevicePreset.iphoneSE, .iphone16ProMax] {
                    for orientation in DevicePreset.Orientation.allCases {
                        let environment = ConformanceInputs.device(device, orientation)
                        for position in Position.allCases {
                            cases.append(LayoutCase(name: "\(count) modes on every slot, \(position) revealed, last pressed, \(device.id) \(orientation.rawValue)",
                                                    complications: spec, environment: environment,
                                                    interaction: HudInteraction(pressed: .mode(position, index: count - 1), revealedPosition: position)))
                        }
                    }
                }
            }
            return cases
        }(), allowUnsupported: false, passed: "layouts with 1 to \(HUD_MAX_MODES) modes"),
        "robust-viewports": RobustSuite(cases: {
            var cases: [LayoutCase] = []
            for (name, environment) in ConformanceInputs.viewports {
                for (setName, spec) in [("reference", ComplicationsSpec.reference), ("empty", .empty)] {
                    cases.append(LayoutCase(name: "\(setName), \(name)", complications: spec, environment: environment,
                                            interaction: setName == "reference" ? HudInteraction(revealedPosition: .center) : .idle))
                }
            }
            return cases
        }(), allowUnsupported: true, passed: "degenerate screens handled"),
        "robust-text-sizes": RobustSuite(cases: {
            var cases: [LayoutCase] = []
            for textSize in TextSizeCategory.allCases {
                for device in DevicePreset.all {
                    for orientation in DevicePreset.Orientation.allCases {
                        cases.append(LayoutCase(name: "reference, center revealed, \(ConformanceInputs.name(device, orientation, .leftToRight, textSize))",
                                                complications: .reference, environment: ConformanceInputs.device(device, orientation, textSize: textSize),
                                                interaction: HudInteraction(revealedPosition: .center)))
                    }
                }
            }
            return cases
        }(), allowUnsupported: false, passed: "layouts over every text size"),
    ]

    // MARK: - Geometry and accessibility

    /// The rules judged on every decoded geometry layout, by check id: what
    /// a pass says, and the rule (problems found in one layout).
    static let layoutRules: [String: (passed: String, rule: @Sendable (HudLayout, LayoutCase, RendererInfo) -> [String])] = [
        "geometry-hit-size": ("every interactive node has a ≥ 44×44 hit region containing its frame", { l, _, _ in GeometryRules.hitSize(l) }),
        "geometry-hit-overlap": ("no two controls' hit regions overlap", { l, _, _ in GeometryRules.overlap(l) }),
        "geometry-safe-bands": ("nothing interactive in the safe-area bands", { l, c, _ in GeometryRules.safeBands(l, c.environment) }),
        "geometry-positions-once": ("every published position shown once or reported hidden", { l, c, _ in
            GeometryRules.positionsOnce(l, c.complications, interaction: c.interaction) }),
        "hudson-chip-inner-side": ("every corner chip on its slot's inner side", { l, c, _ in GeometryRules.chipSide(l, c.environment) }),
        "geometry-mode-picker": ("the picker appears exactly when modes are revealed, one item per mode", { l, c, _ in
            GeometryRules.modePicker(l, c.complications, c.interaction) }),
        "output-current-mode": ("the current mode's item, and only it, is marked selected", { l, c, info in
            GeometryRules.currentMode(l, c.complications, c.interaction, abi: info.abiVersion) }),
        "geometry-content-insets": ("content insets are measured as documented, fit the content area and cover their chrome", { l, c, _ in GeometryRules.contentInsets(l, c.environment) }),
        "geometry-nav-bar": ("navigation-bar items inside the bar", { l, c, _ in GeometryRules.navigationBar(l, c.environment) }),
        "geometry-supported-positions": ("draws exactly its supported positions", { l, c, info in
            GeometryRules.supportedPositions(l, c.complications, supported: info.supportedPositions) }),
    ]

    static func perLayout(_ context: RendererContext, _ id: String) -> CheckOutcome {
        layoutRuleOutcome(id, context.decodedGeometry, info: context.info)
    }

    /// The outcome of the layout rule `id` over `layouts`.
    static func layoutRuleOutcome(_ id: String, _ layouts: [(LayoutCase, HudLayout)], info: RendererInfo) -> CheckOutcome {
        guard let (passed, rule) = layoutRules[id] else { return .problem("unknown layout rule '\(id)'") }
        var problems = ProblemList()
        for (testCase, layout) in layouts { problems.add(testCase, rule(layout, testCase, info)) }
        return problems.outcome(passed: "\(layouts.count) layouts: \(passed)")
    }

    static func mirror(_ context: RendererContext) -> CheckOutcome {
        mirrorOutcome(context.geometry.map { ($0.testCase, $0.layout) }, info: context.info)
    }

    /// `geometry-rtl-mirror` over the geometry cases (nil: no layout).
    static func mirrorOutcome(_ geometry: [(testCase: LayoutCase, layout: HudLayout?)], info: RendererInfo) -> CheckOutcome {
        if info.capabilities.contains(.rtlNotMirrored) {
            return .notApplicable("the renderer declares HUD_CAPABILITY_RTL_NOT_MIRRORED")
        }
        var problems = ProblemList()
        var pairs = 0
        for (index, evaluated) in geometry.enumerated() where evaluated.testCase.environment.layoutDirection == .leftToRight {
            guard let ltr = evaluated.layout else { continue }
            let twinName = evaluated.testCase.name.replacingFirst(" ltr ", with: " rtl ")
            guard let twin = geometry[index...].first(where: { $0.testCase.name == twinName }), let rtl = twin.layout else { continue }
            pairs += 1
            problems.add(twin.testCase, GeometryRules.mirror(ltr: ltr, rtl: rtl, screenWidth: evaluated.testCase.environment.screenSize.width))
        }
        return problems.outcome(passed: "\(pairs) RTL layouts are the mirror of their LTR twins")
    }

    /// Raw symbol names as labels fail the built-ins and warn a plugin (a
    /// rule added after ABI 1.0 shipped; Docs/CONFORMANCE.md).
    static func labels(_ context: RendererContext) -> CheckOutcome {
        let layouts = (context.geometry + context.contrast).compactMap { evaluated in evaluated.layout.map { (evaluated.testCase, $0) } }
        if case .file = context.target { return labelsOutcome(layouts, rawNamesWarn: true) }
        return labelsOutcome(layouts, rawNamesWarn: false)
    }

    /// `a11y-labels` over decoded layouts: every control has a label, and
    /// (a warning for a plugin file, `rawNamesWarn`) no label is a raw
    /// symbol name.
    static func labelsOutcome(_ layouts: [(LayoutCase, HudLayout)], rawNamesWarn: Bool) -> CheckOutcome {
        var problems = ProblemList()
        var rawNames = ProblemList()
        for (testCase, layout) in layouts {
            problems.add(testCase, GeometryRules.labels(layout, testCase.complications))
            rawNames.add(testCase, GeometryRules.rawSymbolLabels(layout))
        }
        let passed = "\(layouts.count) layouts: every control has a real accessibility label"
        guard problems.isEmpty else { return problems.outcome(passed: passed) }
        let outcome = rawNames.outcome(passed: passed)
        if case .problem(let message, let details, _) = outcome, rawNamesWarn {
            return .warning(message, details: details)
        }
        return outcome
    }

    static func contrast(_ context: RendererContext) -> CheckOutcome {
        contrastOutcome(context.contrast.map { ($0.testCase, $0.layout) })
    }

    /// `a11y-contrast` over the contrast cases' layouts (nil: the case
    /// gave none, which fails here too).
    static func contrastOutcome(_ cases: [(LayoutCase, HudLayout?)]) -> CheckOutcome {
        var problems = ProblemList()
        var count = 0
        for (testCase, layout) in cases {
            guard let layout else {
                problems.add(testCase, ["the layout failed or did not validate; see output-valid"])
                continue
            }
            count += 1
            problems.add(testCase, ContrastRules.problems(layout, palette: testCase.environment.complicationPalette))
        }
        return problems.outcome(passed: "\(count) layouts over both schemes and appearances: icons ≥ 3:1, text ≥ 4.5:1 (3:1 large)")
    }
}

/// Candidate extension ids: strings in the plugin file shaped like
/// `reverse.dns.name/N` (bounded read; nothing is executed).
enum ExtensionIDScanner {
    static func candidates(for target: ConformanceTarget) -> [String] {
        guard case .file(let path, _) = target, case .success(let file) = ReadOnlyFile.open(path),
              case .success(let bytes) = file.readToEnd(limit: 32 << 20, truncating: true) else { return [] }
        let count = bytes.count
        var found: [String] = []
        var current: [UInt8] = []
        func flush() {
            defer { current.removeAll(keepingCapacity: true) }
            guard current.count >= 5, current.count <= Int(HUD_MAX_EXTENSION_ID_BYTES), let slash = current.lastIndex(of: UInt8(ascii: "/")),
                  slash > 2, slash < current.count - 1, current[..<slash].contains(UInt8(ascii: ".")),
                  current[(slash + 1)...].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  let text = String(validating: current, as: UTF8.self), !found.contains(text) else { return }
            if found.count < 64 { found.append(text) }
        }
        for byte in bytes[..<count] {
            let isIDByte = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "_")
            if isIDByte { current.append(byte) } else { flush() }
        }
        flush()
        return found
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return String(self[..<range.lowerBound]) + replacement + String(self[range.upperBound...])
    }

    func range(of target: String) -> Range<Index>? {
        guard !target.isEmpty else { return nil }
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(target) { return index..<(self.index(index, offsetBy: target.count)) }
            index = self.index(after: index)
        }
        return nil
    }
}
