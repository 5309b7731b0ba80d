// SPDX-License-Identifier: MIT
import HudPluginBoundary
import Glibc
import HudRegistry
import HudScenes
import HudHarness
import HudRendererAPI

/// The in-process timing scenarios. Each renderer is measured on the seed's
/// demo set (five slots; the center's long-press modes list every
/// registered renderer) on the default device (iPhone 16 Pro, portrait, LTR,
/// dark, "Home" title), idle interaction, unless the scenario says otherwise.
struct TimingScenarios {
    let registry: RendererRegistry
    let renderers: [RendererInfo]
    let sampler: Sampler
    let options: Options
    let environment: HudEnvironment
    let demo: HudPhoneComplications

    init(registry: RendererRegistry, sampler: Sampler, options: Options) {
        self.registry = registry
        self.renderers = registry.renderers
        self.sampler = sampler
        self.options = options
        var environment = HudEnvironment(device: .default)
        environment.navigationTitle = "Home"
        self.environment = environment
        self.demo = DemoComplications.make(renderers: registry.renderers) { _ in noteBenchmarkAction() }
    }

    // MARK: - Layout: registry vs direct

    /// `layout.direct`, `layout.registry` (the per-frame `withLayout` path:
    /// validated in place) measured in alternation, and
    /// `layout.registry.decoded` (the `HudLayout` convenience path).
    func layout(into report: inout Report) throws {
        let snapshot = try ComplicationsSnapshot(demo)
        for info in renderers {
            let style = HudPhoneComplicationsStyle(name: info.id)
            guard let renderer = DirectRenderer(info) else {
                throw HarnessError("cannot reach \(info.id)'s layout function directly (origin \(info.origin))")
            }
            let direct = DirectCall(renderer)
            let registry = self.registry, environment = self.environment
            // Sanity: both paths agree on the node count.
            let viaRegistry = try registry.withLayout(style: style, snapshot: snapshot, environment: environment) { $0.count }
            let viaDirect = BenchmarkHooks.withLayoutInputs(snapshot: snapshot.storage, environment: environment, interaction: .idle) {
                direct($0)
            }
            guard viaRegistry == viaDirect, viaDirect > 0 else {
                throw HarnessError("\(info.id): the direct call returned \(viaDirect) nodes, the registry \(viaRegistry)")
            }
            if options.selects("layout.direct") || options.selects("layout.registry") {
                let (directStats, registryStats) = BenchmarkHooks.withLayoutInputs(
                    snapshot: snapshot.storage, environment: environment, interaction: .idle
                ) { inputs in
                    sampler.measurePair(
                        { consume(direct(inputs)) },
                        { consume((try? registry.withLayout(style: style, snapshot: snapshot, environment: environment) { $0.count }) ?? -1) }
                    )
                }
                report.timing("layout.direct", info.id, directStats, "renderer's layout() through its C pointer on pre-marshaled inputs")
                report.timing("layout.registry", info.id, registryStats, "registry.withLayout: env marshal + call + in-place validation")
                report.ratio(info.id, registry: registryStats.median, direct: directStats.median)
            }
            if options.selects("layout.registry.decoded") {
                let stats = sampler.measure {
                    consume((try? registry.layout(style: style, snapshot: snapshot, environment: environment))?.nodes.count ?? -1)
                }
                report.timing("layout.registry.decoded", info.id, stats, "registry.layout → HudLayout (copies nodes and strings)")
            }
        }
    }

    /// `--profile`: one scenario run 100,000 times without the sampler, so
    /// a callgrind profile shows only that work.
    static func profile(_ scenario: String, renderer id: String, registry: RendererRegistry) throws {
        guard let info = registry.info(id: id) else {
            throw HarnessError("no renderer '\(id)'; registered: \(registry.renderers.map(\.id).joined(separator: ", "))")
        }
        var environment = HudEnvironment(device: .default)
        environment.navigationTitle = "Home"
        let demo = DemoComplications.make(renderers: registry.renderers) { _ in noteBenchmarkAction() }
        let snapshot = try ComplicationsSnapshot(demo)
        let style = HudPhoneComplicationsStyle(name: id)
        let iterations = 100_000
        switch scenario {
        case "layout.direct":
            guard let renderer = DirectRenderer(info) else { throw HarnessError("cannot reach \(id) directly") }
            let direct = DirectCall(renderer)
            BenchmarkHooks.withLayoutInputs(snapshot: snapshot.storage, environment: environment, interaction: .idle) { inputs in
                for _ in 0..<iterations { consume(direct(inputs)) }
            }
        case "layout.registry":
            for _ in 0..<iterations {
                consume(try registry.withLayout(style: style, snapshot: snapshot, environment: environment) { $0.count })
            }
        case "layout.registry.decoded":
            for _ in 0..<iterations {
                consume(try registry.layout(style: style, snapshot: snapshot, environment: environment).nodes.count)
            }
        case "frame.shell.republish":
            let shell = DemoComplications.makeShell(style: style, registry: registry, environment: HudEnvironment(device: .default))
            for _ in 0..<iterations {
                shell.updateTop { _ in }
                consume(try shell.layout().nodes.count)
            }
        default:
            throw HarnessError("--profile supports layout.direct, layout.registry, layout.registry.decoded, frame.shell.republish; not '\(scenario)'")
        }
    }

    // MARK: - Full frame

    /// `frame.shell.republish`: the top page republishes equal content (a
    /// page re-rendering), so the shell resolves the preference (last
    /// non-nil writer over the stack), compares content, rebinds thunks,
    /// lays out, validates and decodes. `frame.shell.interaction`: the
    /// interaction changes (picker opened / closed in turn), so the cached
    /// layout is dropped and laid out again; no re-resolve.
    func frame(into report: inout Report) throws {
        for info in renderers {
            let style = HudPhoneComplicationsStyle(name: info.id)
            let shell = DemoComplications.makeShell(style: style, registry: registry, environment: HudEnvironment(device: .default))
            _ = try shell.layout()
            if options.selects("frame.shell.republish") {
                let stats = sampler.measure {
                    shell.updateTop { _ in }
                    consume((try? shell.layout())?.nodes.count ?? -1)
                }
                report.timing("frame.shell.republish", info.id, stats, "resolve + rebind + layout + validate + decode (HudPhoneAppShell)")
            }
            if options.selects("frame.shell.interaction") {
                var open = false
                let stats = sampler.measure {
                    open.toggle()
                    try? shell.reveal(open ? .center : nil)
                    consume((try? shell.layout())?.nodes.count ?? -1)
                }
                report.timing("frame.shell.interaction", info.id, stats, "interaction changed (picker open/closed in turn) → layout + validate + decode")
            }
        }
    }

    // MARK: - Publish and thunks

    /// `publish.marshal`: marshal the demo set (strings, slots, modes, one
    /// libffi thunk per action) and release the previous snapshot (retiring
    /// its thunks). `publish.rebind`: an equal republish, which keeps the C
    /// view and only rebinds the thunks.
    func publish(into report: inout Report) throws {
        let thunks = try ComplicationsSnapshot(demo).thunkCount
        if options.selects("publish.marshal") {
            var current: ComplicationsSnapshot? = try ComplicationsSnapshot(demo)
            let demo = self.demo
            let stats = sampler.measure {
                current = try? ComplicationsSnapshot(demo)  // releases (retires) the previous one
            }
            consume(current?.thunkCount ?? 0)
            report.timing("publish.marshal", "demo set", stats, "marshal \(thunks) actions' worth of C view + retire the previous snapshot")
        }
        if options.selects("publish.rebind") {
            let snapshot = try ComplicationsSnapshot(demo)
            let demo = self.demo
            let stats = sampler.measure { snapshot.rebind(to: demo) }
            report.timing("publish.rebind", "demo set", stats, "equal-content republish: rebind \(thunks) thunks, no marshaling")
        }
    }

    /// `thunk.create` / `thunk.free`: 256 thunks made, then retired and
    /// released, each phase timed on its own (the quarantine is past its
    /// limit after warm-up, so every retirement also frees the oldest
    /// closure: the steady state). `thunk.call`: a call through the C
    /// pointer of a live thunk, as a plugin or the host's tap dispatch makes
    /// it (the action bumps a counter). `thunk.call.reference`: a plain
    /// `@convention(c)` call, for scale.
    func thunks(into report: inout Report) throws {
        let batch = 256
        if options.selects("thunk.create") || options.selects("thunk.free") {
            // Preallocated: storing into them in the timed loop allocates nothing.
            var slots = [BenchmarkThunk?](repeating: nil, count: batch)
            var freeTimes = [Double](repeating: 0, count: sampler.config.samples + sampler.config.warmupSamples)
            let action: () -> Void = { noteBenchmarkAction() }
            var failures = 0
            var sample = 0
            let create = sampler.measureTimed(batch: batch) { count in
                let start = monotonicNanoseconds()
                for index in 0..<count {
                    do { slots[index] = try BenchmarkHooks.makeThunk(action) } catch { failures += 1 }
                }
                let made = monotonicNanoseconds()
                for index in 0..<count {
                    slots[index]?.retire()
                    slots[index] = nil
                }
                freeTimes[sample] = Double(monotonicNanoseconds() &- made) / Double(count)
                sample += 1
                return made &- start
            }
            if failures > 0 { throw HarnessError("ffi_closure_alloc failed \(failures) times while measuring thunk creation") }
            let measured = Array(freeTimes[sampler.config.warmupSamples..<sample])
            report.timing("thunk.create", "libffi", create, "ffi_closure_alloc + prep + box, per thunk (batches of \(batch))")
            report.timing("thunk.free", "libffi", Self.stats(measured, batch: batch), "retire (into the quarantine, which frees its oldest) + release, per thunk")
        }
        if options.selects("thunk.call") {
            let thunk = try BenchmarkHooks.makeThunk { noteBenchmarkAction() }
            let stats = sampler.measure { thunk.callThroughPointer() }
            report.timing("thunk.call", "libffi", stats, "call through the C pointer (trampoline + retired/in-layout checks + action)")
            thunk.retire()
            let reference = opaqueReferenceFunction()
            let referenceStats = sampler.measure { reference() }
            report.timing("thunk.call.reference", "@convention(c)", referenceStats, "plain C function pointer call, for scale")
        }
    }

    static func stats(_ values: [Double], batch: Int) -> Stats {
        let sorted = values.sorted()
        func percentile(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            let rank = p * Double(sorted.count - 1)
            let low = Int(rank.rounded(.down)), high = min(low + 1, sorted.count - 1)
            return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
        }
        return Stats(median: percentile(0.5), p10: percentile(0.1), p90: percentile(0.9), p99: percentile(0.99),
                     samples: sorted.count, batch: batch)
    }

    // MARK: - Hit testing and taps

    /// `hit.frame`: `LayoutFrame.hitTest` on the center slot (in place, no
    /// allocation). `hit.decoded`: `HudLayout.hitTest` on the same layout.
    /// `tap.invoke`: the snapshot's dispatch of the center slot's action
    /// through its thunk. `tap.shell`: a whole tap (down + up 50 ms later)
    /// through `HudPhoneAppShell.send`: hit test, press feedback re-layout,
    /// gesture machine, action through the thunk.
    func hitTesting(into report: inout Report) throws {
        let snapshot = try ComplicationsSnapshot(demo)
        for info in renderers {
            let style = HudPhoneComplicationsStyle(name: info.id)
            let decoded = try registry.layout(style: style, snapshot: snapshot, environment: environment)
            guard let center = decoded.slot(at: .center) else { continue }
            let x = center.hit.midX, y = center.hit.midY
            if options.selects("hit.frame") {
                let stats = try registry.withLayout(style: style, snapshot: snapshot, environment: environment) { frame in
                    sampler.measure { consume(frame.hitTestIndex(x: x, y: y) ?? -1) }
                }
                report.timing("hit.frame", info.id, stats, "LayoutFrame.hitTest at the center slot (\(decoded.nodes.count) nodes)")
            }
            if options.selects("hit.decoded") {
                let stats = sampler.measure { consume(decoded.hitTest(x: x, y: y)?.z ?? -1) }
                report.timing("hit.decoded", info.id, stats, "HudLayout.hitTest at the center slot")
            }
            if options.selects("tap.shell") {
                let shell = DemoComplications.makeShell(style: style, registry: registry, environment: HudEnvironment(device: .default))
                _ = try shell.layout()
                var time = 1.0
                let stats = sampler.measure {
                    time += 1
                    let down = (try? shell.send(PointerEvent(.down, x: x, y: y, time: time)))?.count ?? -1
                    let up = (try? shell.send(PointerEvent(.up, x: x, y: y, time: time + 0.05)))?.count ?? -1
                    consume(down + up)
                }
                report.timing("tap.shell", info.id, stats, "down + up through HudPhoneAppShell.send (hit test, 2 re-layouts, action)")
            }
        }
        if options.selects("tap.invoke") {
            let stats = sampler.measure { consume(snapshot.invoke(.slot(.center)) ? 1 : 0) }
            report.timing("tap.invoke", "demo set", stats, "ComplicationsSnapshot.invoke(.slot(.center)): lookup + thunk call + action")
        }
    }

    // MARK: - Growth

    static let modeCounts = [0, 1, 2, 4, 8, 16, 32, 64]
    static let labelLengths = [0, 64, 256, 1024, 4096]

    /// Layout cost (registry, per-frame path) against the number of
    /// long-press modes on the center slot (revealed), and against the
    /// length of every label (five slots, three revealed modes).
    func growth(into report: inout Report) throws {
        for info in renderers {
            let style = HudPhoneComplicationsStyle(name: info.id)
            if options.selects("growth.modes") {
                var points: [(Int, Stats)] = []
                for count in options.quick ? [0, 8, 64] : Self.modeCounts {
                    let snapshot = try ComplicationsSnapshot(Self.growthSet(modes: count, labelBytes: 8))
                    points.append((count, try measureRegistry(style, snapshot, HudInteraction(revealedPosition: count > 0 ? .center : nil))))
                }
                report.growth("growth.modes", info.id, "modes", points)
            }
            if options.selects("growth.label") {
                var points: [(Int, Stats)] = []
                for length in options.quick ? [0, 4096] : Self.labelLengths {
                    let snapshot = try ComplicationsSnapshot(Self.growthSet(modes: 3, labelBytes: length))
                    points.append((length, try measureRegistry(style, snapshot, HudInteraction(revealedPosition: .center))))
                }
                report.growth("growth.label", info.id, "label bytes", points)
            }
        }
    }

    private func measureRegistry(_ style: HudPhoneComplicationsStyle, _ snapshot: ComplicationsSnapshot,
                                 _ interaction: HudInteraction) throws -> Stats {
        let registry = self.registry, environment = self.environment
        _ = try registry.withLayout(style: style, snapshot: snapshot, environment: environment, interaction: interaction) { $0.count }
        return sampler.measure {
            consume((try? registry.withLayout(style: style, snapshot: snapshot, environment: environment, interaction: interaction) { $0.count }) ?? -1)
        }
    }

    /// Five slots; the center has `modes` modes; every label (slots and
    /// modes) is `labelBytes` bytes of mixed ASCII and two-byte UTF-8.
    static func growthSet(modes: Int, labelBytes: Int) -> HudPhoneComplications {
        let label = growthLabel(labelBytes)
        let action: () -> Void = { noteBenchmarkAction() }
        func slot(_ icon: String, role: HudPhoneComplications.Role = .standard, modes: [HudPhoneComplications.Mode]? = nil) -> HudPhoneComplications.Slot {
            .init(icon: icon, role: role, label: label, longPressModes: modes, action: action)
        }
        let modeList = (0..<modes).map { HudPhoneComplications.Mode(id: "mode-\($0)", icon: "circle.fill", label: label, action: action) }
        return HudPhoneComplications(
            topLeft: slot("list.bullet"), topRight: slot("ellipsis.circle"),
            bottomLeft: slot("gearshape"), bottomRight: slot("rectangle.3.group"),
            center: slot("circle.grid.2x2", role: .accent, modes: modeList.isEmpty ? nil : modeList)
        )
    }

    /// `bytes` bytes of "Hudson é …" (whole characters only).
    static func growthLabel(_ bytes: Int) -> String {
        var label = ""
        let pattern = Array("Hudson é ")
        var index = 0
        while true {
            let next = pattern[index % pattern.count]
            if label.utf8.count + String(next).utf8.count > bytes { break }
            label.append(next)
            index += 1
        }
        return label
    }
}

/// The harness itself failed (not a budget): exit 1.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
