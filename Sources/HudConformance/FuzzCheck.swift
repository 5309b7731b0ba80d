// SPDX-License-Identifier: MIT
import HudRegistry
import HudHarness
import HudPresentation
import HudRendererAPI

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and the same sequence
/// on every platform for a seed, which is all `--seed` needs.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A seed derived from `seed` and a name, so each renderer and check
    /// gets its own stream and adding one does not shift the others.
    static func derive(_ seed: UInt64, _ name: String) -> UInt64 {
        var hash = FNV1a()
        hash.add(bytes: Array(name.utf8))
        var generator = SplitMix64(seed: seed ^ hash.value)
        return generator.next()
    }
}

/// Seeded random complications × environments. Every failure is shrunk to
/// a minimal input (slots, chips, modes, labels and settings removed while
/// it still fails) and reported with the seed and iteration.
enum FuzzCheck {
    static func run(_ context: RendererContext) -> CheckOutcome {
        search(seed: context.configuration.seed, renderer: context.id, iterations: context.configuration.fuzzIterations) { testCase in
            Finding(problems: violations(context, testCase))
        }
    }

    /// What one case broke: rule violations (shrunk to a minimal input),
    /// or a failure of the call itself that is reported as found, without
    /// shrinking (a crash or hang of a renderer host: every shrinking step
    /// would restart it or wait out its deadline).
    struct Finding {
        var problems: [String]
        var shrinkable = true
    }

    /// The seeded cases for `renderer` (the same for the child and the
    /// host: `--seed` reproduces either), each judged by `judge`; the first
    /// failing one is shrunk and reported with the seed and iteration.
    static func search(seed: UInt64, renderer id: String, iterations: Int, judge: (LayoutCase) -> Finding) -> CheckOutcome {
        var generator = SplitMix64(seed: SplitMix64.derive(seed, "fuzz/" + id))
        for iteration in 0..<iterations {
            let testCase = randomCase(&generator, iteration: iteration)
            let finding = judge(testCase)
            guard !finding.problems.isEmpty else { continue }
            guard finding.shrinkable else {
                return .problem(
                    "iteration \(iteration) of seed \(seed): \(finding.problems[0]); reproduce with --seed \(seed)",
                    details: ["input: \(testCase.json.serialized(pretty: false))"] + finding.problems.dropFirst().prefix(5), seed: seed)
            }
            let minimal = shrink(testCase) { judge($0) }
            let found = judge(minimal).problems
            return .problem(
                "iteration \(iteration) of seed \(seed) broke a rule: \(found.first ?? finding.problems[0]); reproduce with --seed \(seed)",
                details: ["minimal input: \(minimal.json.serialized(pretty: false))"] + found.prefix(5) + ["original input: \(testCase.json.serialized(pretty: false))"],
                seed: seed)
        }
        return .passed("\(iterations) random inputs kept every per-layout rule", seed: seed)
    }

    /// The per-layout rules on a decoded layout (the child's and the host's).
    static func layoutViolations(_ layout: HudLayout, _ testCase: LayoutCase) -> [String] {
        GeometryRules.hitSize(layout)
            + GeometryRules.positionsOnce(layout, testCase.complications, interaction: testCase.interaction)
            + GeometryRules.modePicker(layout, testCase.complications, testCase.interaction)
            + GeometryRules.labels(layout, testCase.complications)
    }

    /// Every per-layout rule that holds on any realistic screen.
    static func violations(_ context: RendererContext, _ testCase: LayoutCase) -> [String] {
        let call = context.call(testCase)
        guard call.status == Int32(HUD_STATUS_OK) else { return ["layout() returned \(ConformanceChecks.statusText(call.status))"] }
        if call.actionCalls > 0 { return ["layout() called an action"] }
        if !call.changedInputs.isEmpty { return ["layout() changed its \(call.changedInputs.joined(separator: ", ")) input"] }
        let nonFinite = RawPluginHarness.nonFiniteFields(in: call)
        if !nonFinite.isEmpty { return nonFinite }
        guard let decoded = call.decoded else { return ["HUD_STATUS_OK with a count above the capacity"] }
        let layout: HudLayout
        switch decoded {
        case .success(let value): layout = value
        case .failure(let error): return ["\(error)"]
        }
        return layoutViolations(layout, testCase)
    }

    static let icons = ["star", "bolt", "gearshape", "list.bullet", "🙂", "circle.grid.2x2", String(repeating: "i", count: 128)]
    static let labels: [String?] = [nil, "", "Go", "Settings", "مرحبا", "👨‍👩‍👧‍👦", String(repeating: "W", count: 300), "a\tb", "\u{202E}RTL"]

    static func pick<T>(_ items: [T], _ generator: inout SplitMix64) -> T { items[Int(generator.next() % UInt64(items.count))] }
    static func chance(_ percent: UInt64, _ generator: inout SplitMix64) -> Bool { generator.next() % 100 < percent }

    static func randomCase(_ generator: inout SplitMix64, iteration: Int) -> LayoutCase {
        var spec = ComplicationsSpec()
        for position in Position.allCases where chance(70, &generator) {
            var slot = ComplicationsSpec.SlotSpec(icon: pick(icons, &generator), role: pick(HudPhoneComplications.Role.allCases, &generator),
                                                  label: pick(labels, &generator))
            if chance(40, &generator) {
                slot.secondary = .init(icon: pick(icons, &generator), label: pick(labels, &generator), isControl: chance(50, &generator))
            }
            if chance(40, &generator) {
                slot.modes = (0..<Int(1 + generator.next() % 6)).map { .init(id: "m\($0)", icon: pick(icons, &generator), label: pick(labels, &generator) ?? "Mode") }
            }
            spec.slots[position] = slot
        }
        let environment = ConformanceInputs.device(
            pick(DevicePreset.all, &generator), pick(DevicePreset.Orientation.allCases, &generator),
            pick(HudLayoutDirection.allCases, &generator), textSize: pick(TextSizeCategory.allCases, &generator),
            scheme: pick(HudColorScheme.allCases, &generator), appearance: pick(HudPhoneAppShellAppearance.allCases, &generator),
            accessibility: HudEnvironment.AccessibilityOptions(rawValue: UInt32(generator.next() % 8)))
        var interaction = HudInteraction.idle
        let withModes = Position.allCases.filter { !(spec.slots[$0]?.modes.isEmpty ?? true) }
        if !withModes.isEmpty, chance(50, &generator) { interaction.revealedPosition = pick(withModes, &generator) }
        if let position = spec.slots.keys.sorted(by: { $0.rawValue < $1.rawValue }).first, chance(30, &generator) {
            interaction.pressed = .slot(position)
        }
        return LayoutCase(name: "fuzz iteration \(iteration)", complications: spec, environment: environment, interaction: interaction)
    }

    /// Greedy shrinking: try each simplification; keep it while some rule still fails.
    static func shrink(_ original: LayoutCase, judge: (LayoutCase) -> Finding) -> LayoutCase {
        var current = original
        var budget = 200
        func fails(_ candidate: LayoutCase) -> Bool {
            budget -= 1
            return !judge(candidate).problems.isEmpty
        }
        var progress = true
        while progress, budget > 0 {
            progress = false
            for candidate in simplifications(of: current) where budget > 0 {
                if fails(candidate) {
                    current = candidate
                    progress = true
                    break
                }
            }
        }
        current.name = "minimal input (from \(original.name))"
        return current
    }

    static func simplifications(of testCase: LayoutCase) -> [LayoutCase] {
        var candidates: [LayoutCase] = []
        func with(_ change: (inout LayoutCase) -> Void) {
            var copy = testCase
            change(&copy)
            candidates.append(copy)
        }
        for position in Position.allCases {
            guard let slot = testCase.complications.slots[position] else { continue }
            if testCase.interaction.revealedPosition != position, testCase.interaction.pressed != .slot(position) {
                with { $0.complications.slots[position] = nil }
            }
            if slot.secondary != nil { with { $0.complications.slots[position]?.secondary = nil } }
            if slot.modes.count > 1 { with { $0.complications.slots[position]?.modes.removeLast() } }
            if !slot.modes.isEmpty, testCase.interaction.revealedPosition != position { with { $0.complications.slots[position]?.modes = [] } }
            if slot.label != nil { with { $0.complications.slots[position]?.label = nil } }
            if slot.icon != "star" { with { $0.complications.slots[position]?.icon = "star" } }
            if slot.role != .standard { with { $0.complications.slots[position]?.role = .standard } }
        }
        if testCase.interaction.pressed != nil { with { $0.interaction.pressed = nil } }
        if testCase.interaction.revealedPosition != nil { with { $0.interaction.revealedPosition = nil } }
        let environment = testCase.environment
        if environment.textScale != 1 { with { $0.environment.textScale = 1 } }
        if environment.accessibility != [] { with { $0.environment.accessibility = [] } }
        if environment.layoutDirection != .leftToRight { with { $0.environment.layoutDirection = .leftToRight } }
        if environment.appearance != .hudson || environment.colorScheme != .dark {
            with { $0.environment.appearance = .hudson; $0.environment.colorScheme = .dark }
        }
        return candidates
    }
}
