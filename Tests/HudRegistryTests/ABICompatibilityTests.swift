// SPDX-License-Identifier: MIT
@testable import HudPluginBoundary
import Foundation
import HudRendererAPI
import Testing
@testable import HudRegistry
import HudHarness
import HudTestSupport

/// The versioning rules of Docs/ABI.md, exercised across a real minor
/// version: plugins compiled (here, with `cc`) against the frozen 1.0 SDK
/// in Tests/Fixtures/abi-1.0/hud load, render and validate strictly on this
/// 1.1 host, which supplies the defaults of what they cannot say; a plugin
/// compiled against 1.1 that reads the new inputs guards them by
/// `struct_size` and `node_stride`, and falls back when a 1.0-sized host
/// drives it; the host validates the new node fields.
struct ABICompatibilityTests {
    // MARK: - The frozen 1.0 SDK

    @Test func theFrozenSDKIsABI10AndThisHeaderOnlyAppendedToIt() throws {
        // Every 1.0 field of the grown structures sits where 1.0 put it.
        var lines = ["#include <stddef.h>", "#include <stdio.h>", "#include \"hud_renderer.h\"", "int main(void) {",
                     "    printf(\"version %u\\n\", (unsigned)HUD_ABI_VERSION);",
                     "    printf(\"hud_node_t %zu\\n\", sizeof(hud_node_t));",
                     "    printf(\"hud_environment_t %zu\\n\", sizeof(hud_environment_t));"]
        for (type, fields) in Self.tenFields {
            for field in fields { lines.append("    printf(\"\(type).\(field) %zu\\n\", offsetof(\(type), \(field)));") }
        }
        lines += ["    return 0;", "}", ""]
        let directory = try FixturePlugins.makeScratchDirectory("frozen-sdk")
        try lines.joined(separator: "\n").write(toFile: directory + "/probe.c", atomically: true, encoding: .utf8)
        try FixturePlugins.compileCommand(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I", Self.frozenSDK,
                                           "-o", directory + "/probe", directory + "/probe.c"])
        let run = try FixturePlugins.run([directory + "/probe"])
        try #require(run.status == 0, "\(run.transcript)")
        var values: [String: Int] = [:]
        for line in run.stdout.split(separator: "\n") {
            let words = line.split(separator: " ")
            values[String(words[0])] = Int(words[1])
        }
        #expect(values["version"] == 0x0001_0000, "the fixture is the 1.0 SDK")
        #expect(values["hud_node_t"] == Int(HUD_NODE_SIZE_1_0) && values["hud_environment_t"] == Int(HUD_ENVIRONMENT_SIZE_1_0))
        let current: [String: Int?] = [
            "hud_node_t.kind": MemoryLayout<hud_node_t>.offset(of: \.kind),
            "hud_node_t.frame": MemoryLayout<hud_node_t>.offset(of: \.frame),
            "hud_node_t.hit": MemoryLayout<hud_node_t>.offset(of: \.hit),
            "hud_node_t.font_size": MemoryLayout<hud_node_t>.offset(of: \.font_size),
            "hud_node_t.flags": MemoryLayout<hud_node_t>.offset(of: \.flags),
            "hud_node_t.icon": MemoryLayout<hud_node_t>.offset(of: \.icon),
            "hud_node_t.accessibility_label": MemoryLayout<hud_node_t>.offset(of: \.accessibility_label),
            "hud_environment_t.safe_area": MemoryLayout<hud_environment_t>.offset(of: \.safe_area),
            "hud_environment_t.palette": MemoryLayout<hud_environment_t>.offset(of: \.palette),
            "hud_environment_t.navigation_title": MemoryLayout<hud_environment_t>.offset(of: \.navigation_title),
            "hud_environment_t.accessibility": MemoryLayout<hud_environment_t>.offset(of: \.accessibility),
            "hud_environment_t.reserved": MemoryLayout<hud_environment_t>.offset(of: \.reserved),
        ]
        for (name, offset) in current { #expect(values[name] == offset, "\(name): 1.0 and 1.1 agree") }
        #expect(MemoryLayout<hud_node_t>.offset(of: \.glyph_size) == Int(HUD_NODE_SIZE_1_0), "appended after the 1.0 node")
        #expect(MemoryLayout<hud_environment_t>.offset(of: \.presentation) == Int(HUD_ENVIRONMENT_SIZE_1_0))
        #expect(MemoryLayout<hud_node_t>.size == Int(HUD_NODE_SIZE_1_1) && MemoryLayout<hud_environment_t>.size == Int(HUD_ENVIRONMENT_SIZE_1_1))
    }

    @Test func theFrozenSDKHasNoneOfThe11Names() throws {
        // A plugin written against 1.0 cannot even name the new fields: the
        // same source that compiles against 1.1 fails against the fixture.
        let source = FixturePlugins.repositoryRoot + "/Tests/Fixtures/abi-1.1/deck_aware.c"
        let output = FixturePlugins.workDirectory + "/deck-aware-against-1.0.so"
        let result = try FixturePlugins.run(["cc", "-std=c11", "-shared", "-fPIC", "-I", Self.frozenSDK, "-o", output, source])
        #expect(result.status != 0)
        #expect(result.stderr.contains("presentation") || result.stderr.contains("HUD_STRUCT_HAS"), "\(result.transcript)")
    }

    // MARK: - A 1.0 plugin on the 1.1 host

    @Test(arguments: RendererIsolation.allCases)
    func aPluginBuiltAgainst10LoadsAndRendersWithTheHostsDefaults(isolation: RendererIsolation) throws {
        let registry = RendererRegistry.withBuiltins(isolation: isolation)
        let loaded = try registry.load(path: Self.ring10.get())
        #expect(registry.failures.isEmpty, "\(registry.failures)")
        let info = try #require(loaded.first)
        #expect(info.abiVersion == ABIVersion(major: 1, minor: 0))
        let complications = Self.complications()
        let layout = try registry.layout(style: .renderer(info.id), snapshot: ComplicationsSnapshot(complications),
                                         environment: Self.deckEnvironment, interaction: HudInteraction(revealedPosition: .center))
        #expect(layout.nodes.contains { $0.kind == .modeItem }, "the fan is there")
        for node in layout.nodes {
            #expect(node.glyphSize == 0, "a 1.0 renderer states no glyph size: \(node.kind) \(node.position?.description ?? "-")")
            let modes = node.position.flatMap { complications[$0]?.longPressModes?.count } ?? 0
            #expect(node.accessibilityActions == (node.kind == .slot ? Array(0..<modes) : []),
                    "a 1.0 slot offers every mode, in order; other nodes none")
        }
    }

    @Test func aPluginBuiltAgainst10PassesStrictValidation() throws {
        let output = try HudHost.run(["validate", try Self.ring10.get(), "--profile", "strict", "--format", "json",
                                      "--seed", "20261201", "--fuzz-iterations", "40", "--layout-timeout", "20"])
        #expect(output.status == 0, "\(output.transcript)")
        let results = (try HudHost.json(output)["targets"]?.arrayValue ?? []).flatMap { $0["results"]?.arrayValue ?? [] }
        #expect(results.count > 20, "\(output.stdout)")
        for result in results {
            let status = result["status"]?.stringValue, check = result["check"]?.stringValue ?? "?"
            #expect(TimingWarnings.passedOrFromLoad(check: check, status: status), "\(check): \(result["message"]?.stringValue ?? "")")
        }
    }

    @Test func theHostNeverReadsTheBytesA10PluginLeftPastItsNode() throws {
        // dirty_tail.c fills each node's slot with 0xFF before pushing its
        // 168 bytes: as a 1.1 node that is a NaN glyph size and all 64
        // action bits, which the host would refuse if it read them.
        let registry = RendererRegistry.withBuiltins(isolation: .inProcess)
        let info = try #require(try registry.load(path: Self.dirtyTail.get()).first)
        #expect(info.abiVersion.minor == 0)
        let complications = Self.complications()
        let layout = try registry.layout(style: .renderer(info.id), snapshot: ComplicationsSnapshot(complications),
                                         environment: Self.deckEnvironment)
        #expect(layout.nodes.count == 5)
        for node in layout.nodes {
            #expect(node.glyphSize == 0)
            #expect(node.accessibilityActions == Array(0..<(complications[node.position!]?.longPressModes?.count ?? 0)))
        }
        // The same bytes under a 1.1 contract are refused: the test would see it.
        var output = hud_layout_t()
        output.count = 1
        let node = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<hud_node_t>.stride, alignment: 8)
        defer { node.deallocate() }
        node.initializeMemory(as: UInt8.self, repeating: 0xFF, count: MemoryLayout<hud_node_t>.stride)
        node.initializeMemory(as: UInt8.self, repeating: 0, count: Int(HUD_NODE_SIZE_1_0))
        let tail = ABIVersion(major: 1, minor: 1)
        #expect(throws: LayoutValidator.Violation.self) {
            try LayoutValidator.validate(output, nodes: UnsafeRawPointer(node), stride: MemoryLayout<hud_node_t>.stride,
                                         contract: NodeContract(abi: tail, stride: MemoryLayout<hud_node_t>.stride, modes: .none))
        }
        try LayoutValidator.validate(output, nodes: UnsafeRawPointer(node), stride: MemoryLayout<hud_node_t>.stride,
                                     contract: NodeContract(abi: ABIVersion(major: 1, minor: 0), stride: MemoryLayout<hud_node_t>.stride, modes: .none))
    }

    // MARK: - A 1.1 plugin on a 1.0-sized host

    @Test(arguments: [HudLayoutDirection.leftToRight, .rightToLeft])
    func aPluginBuiltAgainst11ReadsTheNewInputsOnlyWhereTheSizesCoverThem(direction: HudLayoutDirection) throws {
        var environment = Self.deckEnvironment
        environment.layoutDirection = direction
        let complications = Self.complications()
        let now = try Self.rawLayout(Self.deckAware.get(), complications, environment, host: .host)
        let old = try Self.rawLayout(Self.deckAware.get(), complications, environment, host: ABIVersion(major: 1, minor: 0))

        // As a 1.1 host sends them: the deck's state and lanes are used.
        let nowLayout = try #require(now.layout, "\(String(describing: now.decoded))")
        #expect(nowLayout.nodes.last?.label == "deck-expanded")
        #expect(nowLayout.nodes.last?.accessibilityLabel == "node fields 1.1")
        #expect(nowLayout.slot(at: .topLeft) == nil && nowLayout.slot(at: .topRight) == nil, "the shell's top lane hosts them")
        let bottom = environment.screenSize.height - environment.safeArea.bottom
        #expect(nowLayout.slot(at: .bottomLeft)?.frame.maxY == bottom - environment.reservedLanes.bottom - 12)
        #expect(nowLayout.slot(at: .center)?.glyphSize == 22 && nowLayout.slot(at: .bottomLeft)?.glyphSize == 16)
        #expect(nowLayout.slot(at: .center)?.accessibilityActions == [4], "only its last mode, as stated")
        #expect(nowLayout.slot(at: .bottomLeft)?.accessibilityActions == [2], "only its last mode, as stated")
        #expect(nowLayout.slot(at: .bottomRight)?.accessibilityActions == [], "no modes, no actions")
        #expect(now.stride == Int(HUD_NODE_SIZE_1_1))

        // As a 1.0 host sends them (struct_size 136, node_stride 168) with the
        // same values past struct_size: it falls back to the 1.0 meaning.
        #expect(old.stride == Int(HUD_NODE_SIZE_1_0))
        #expect(old.guardDamageBefore == 0 && old.guardDamageAfter == 0, "wrote nothing past its 168-byte nodes")
        #expect(old.nodeBytes.count == Int(old.count) * Int(HUD_NODE_SIZE_1_0))
        let oldLayout = try #require(old.layout, "\(String(describing: old.decoded))")
        #expect(oldLayout.nodes.last?.label == "always-visible")
        #expect(oldLayout.nodes.last?.accessibilityLabel == "node fields 1.0")
        #expect(oldLayout.slot(at: .topLeft) != nil && oldLayout.slot(at: .topRight) != nil)
        #expect(oldLayout.slot(at: .bottomLeft)?.frame.maxY == bottom - 12, "no lanes")
        #expect(oldLayout.nodes.allSatisfy { $0.glyphSize == 0 }, "a 1.0 stride carries no glyph size")
        #expect(oldLayout.slot(at: .center)?.accessibilityActions == [0, 1, 2, 3, 4], "the host's default: every mode")
        #expect(oldLayout.slot(at: .topRight)?.accessibilityActions == [0], "0 stated (one mode): every mode")
    }

    @Test(arguments: RendererIsolation.allCases)
    func theHostPassesTheDeckInputsInEitherIsolation(isolation: RendererIsolation) throws {
        // Out of process the environment crosses the renderer host's wire
        // (HudWire): presentation and lanes must arrive there too.
        let registry = RendererRegistry.withBuiltins(isolation: isolation)
        let info = try #require(try registry.load(path: Self.deckAware.get()).first)
        #expect(info.abiVersion == .host)
        for presentation in HudPresentationState.allCases {
            var environment = Self.deckEnvironment
            environment.presentation = presentation
            let layout = try registry.layout(style: .renderer(info.id), snapshot: ComplicationsSnapshot(Self.complications()),
                                             environment: environment)
            let names: [HudPresentationState: String] = [.alwaysVisible: "always-visible", .deckResting: "deck-resting",
                                                         .deckExpanded: "deck-expanded"]
            #expect(layout.nodes.last?.label == names[presentation])
            #expect(layout.nodes.last?.accessibilityLabel == "node fields 1.1")
            let bottom = environment.screenSize.height - environment.safeArea.bottom - environment.reservedLanes.bottom
            #expect(layout.slot(at: .center)?.frame.maxY == bottom - 12)
            #expect(layout.slot(at: .center)?.glyphSize == 22)
        }
    }

    @Test func readingTheNewInputsWithoutTheGuardIsCaught() throws {
        // The same source built to skip HUD_STRUCT_HAS reads the values the
        // harness left past a 1.0 struct_size: proof that the fallback above
        // is the guard's doing and not an accident of the inputs.
        let old = try Self.rawLayout(Self.deckAwareUnguarded.get(), Self.complications(), Self.deckEnvironment,
                                     host: ABIVersion(major: 1, minor: 0))
        let layout = try #require(old.layout)
        #expect(layout.nodes.last?.label == "deck-expanded")
    }

    @Test func exampleRingStatesGlyphSizesAndKeepsToA10Stride() throws {
        let complications = Self.complications()
        for reveal in [nil, Position.center] {
            let now = try Self.rawLayout(ExampleRingBuild.standalone(), complications, Self.plainEnvironment, host: .host, reveal: reveal)
            let old = try Self.rawLayout(ExampleRingBuild.standalone(), complications, Self.plainEnvironment,
                                         host: ABIVersion(major: 1, minor: 0), reveal: reveal)
            let nowLayout = try #require(now.layout), oldLayout = try #require(old.layout)
            for node in nowLayout.nodes {
                let expected: Double = switch node.kind {
                case .slot: node.position == .center ? 22 : 16
                case .secondary: 11
                case .modeItem: 14
                case .container: 0
                }
                #expect(node.glyphSize == expected, "\(node.kind) at \(node.position?.description ?? "-")")
            }
            #expect(old.guardDamageBefore == 0 && old.guardDamageAfter == 0)
            // The same nodes, less what a 1.0 stride cannot carry.
            #expect(oldLayout.nodes.count == nowLayout.nodes.count)
            for (a, b) in zip(oldLayout.nodes, nowLayout.nodes) {
                var stripped = b
                stripped.glyphSize = 0
                #expect(a == stripped)
            }
        }
    }

    // MARK: - Validation of the new node fields

    @Test(arguments: [
        ("org.fixture.bad-glyph", "glyph_size", "-1"),
        ("org.fixture.nan-glyph", "glyph_size", "nan"),
        ("org.fixture.actions-on-chip", "accessibility_actions", "not a slot"),
        ("org.fixture.actions-beyond-modes", "accessibility_actions", "is 0x4 but the slot at this position has 2 modes"),
    ])
    func badNewNodeFieldsAreInvalidLayouts(id: String, field: String, says: String) throws {
        let registry = RendererRegistry.withBuiltins(isolation: .inProcess)
        try registry.load(path: Self.badFields.get())
        #expect(registry.failures.isEmpty, "\(registry.failures)")
        var thrown: RegistryError?
        do {
            _ = try registry.layout(style: .renderer(id), snapshot: ComplicationsSnapshot(Self.complications()),
                                    environment: Self.plainEnvironment)
        } catch {
            thrown = error
        }
        let error = try #require(thrown)
        #expect(error.code.rawValue == "invalid-layout")
        guard case .invalidLayout(_, _, let node, let named, let reason) = error else {
            Issue.record("expected invalid-layout, got \(error)")
            return
        }
        #expect(named == field && node != nil)
        #expect(reason.contains(says), "\(reason)")
    }

    @Test func modeCountsPackEachPositionAndMaskTheirModes() {
        let counts = ModeCounts([.topLeft: 3, .center: 64, .bottomRight: 0])
        #expect(counts.count(at: Int32(HUD_POSITION_TOP_LEFT)) == 3)
        #expect(counts.count(at: Int32(HUD_POSITION_CENTER)) == 64)
        #expect(counts.count(at: Int32(HUD_POSITION_TOP_RIGHT)) == 0)
        #expect(counts.count(at: Int32(HUD_POSITION_NONE)) == 0 && counts.count(at: 7) == 0)
        #expect(ModeCounts.allModes(0) == 0 && ModeCounts.allModes(3) == 0b111 && ModeCounts.allModes(64) == ~0)
    }

    // MARK: - Fixtures

    static let frozenSDK = FixturePlugins.repositoryRoot + "/Tests/Fixtures/abi-1.0/hud"
    static let currentSDK = FixturePlugins.headerDirectory

    /// The 1.0 fields whose offsets the frozen header must report.
    static let tenFields: [(String, [String])] = [
        ("hud_node_t", ["kind", "frame", "hit", "font_size", "flags", "icon", "accessibility_label"]),
        ("hud_environment_t", ["safe_area", "palette", "navigation_title", "accessibility", "reserved"]),
    ]

    static func build(_ source: String, against sdk: String, as name: String, defines: [String] = []) throws(FixtureBuildError) -> String {
        let output = FixturePlugins.workDirectory + "/" + name + ".so"
        try FixturePlugins.compileCommand(["cc"] + FixturePlugins.pluginFlags + defines + ["-I", sdk, "-o", output,
                                           FixturePlugins.repositoryRoot + "/Tests/Fixtures/" + source])
        return output
    }

    static let ring10 = Result { () throws(FixtureBuildError) in try build("abi-1.0/ring_1_0.c", against: frozenSDK, as: "ring-1.0") }
    static let dirtyTail = Result { () throws(FixtureBuildError) in try build("abi-1.0/dirty_tail.c", against: frozenSDK, as: "dirty-tail-1.0") }
    static let deckAware = Result { () throws(FixtureBuildError) in try build("abi-1.1/deck_aware.c", against: currentSDK, as: "deck-aware") }
    static let deckAwareUnguarded = Result { () throws(FixtureBuildError) in
        try build("abi-1.1/deck_aware.c", against: currentSDK, as: "deck-aware-unguarded", defines: ["-DDECK_AWARE_UNGUARDED"])
    }
    static let badFields = Result { () throws(FixtureBuildError) in try build("abi-1.1/bad_fields.c", against: currentSDK, as: "bad-fields") }

    /// Slots everywhere, with 2, 1, 3, 0 and 5 modes, one chip.
    static func complications() -> HudPhoneComplications {
        func modes(_ count: Int) -> [HudPhoneComplications.Mode] {
            (0..<count).map { .init(id: "m\($0)", icon: "\($0).circle", label: "Mode \($0)") {} }
        }
        return HudPhoneComplications(
            topLeft: .init(icon: "bell", label: "Alerts", longPressModes: modes(2)) {},
            topRight: .init(icon: "person", longPressModes: modes(1)) {},
            bottomLeft: .init(icon: "trash", role: .destructive, secondary: .init(icon: "minus") {}, longPressModes: modes(3)) {},
            bottomRight: .init(icon: "tray") {},
            center: .init(icon: "circle.grid.2x2", role: .accent, label: "Center", longPressModes: modes(5)) {})
    }

    static let plainEnvironment = HudEnvironment(device: .iphone16Pro)

    /// The deck expanded, with lanes: what a 1.0 host could never send.
    static var deckEnvironment: HudEnvironment {
        var environment = HudEnvironment(device: .iphone16Pro)
        environment.presentation = .deckExpanded
        environment.reservedLanes = HudInsets(top: 60, left: 0, bottom: 64, right: 0)
        return environment
    }

    /// One raw layout call through the conformance harness, speaking as `host`.
    static func rawLayout(_ path: String, _ complications: HudPhoneComplications, _ environment: HudEnvironment,
                          host: ABIVersion, reveal: Position? = nil) throws -> RawPluginHarness.Call {
        let library = try RawLibrary.open(path: path)
        let entry = try #require(library.entryFunction().call())
        let loaded = try entry.loader(origin: .file(path)).load()
        let renderer = try #require(loaded.renderers.first)
        let descriptor = try #require(entry.descriptor(at: 0))
        let snapshot = try CComplications(complications)
        return RawPluginHarness.layout(descriptor, info: renderer.info, snapshot: snapshot, environment: environment,
                                       interaction: HudInteraction(revealedPosition: reveal), capacity: 64, host: host)
    }
}

extension ABICompatibilityTests {
    /// A plugin rebuilt unchanged against a newer SDK: its entry reports the
    /// header's minor, its metadata record the one it was written for. Such
    /// a record is consistent — the plugin lists, renders in both isolation
    /// modes and is shown with its entry's version — while a record newer
    /// than its entry stays a metadata mismatch (exit 3).
    @Test(arguments: (0...Int(ABIVersion.host.minor) + 1).map { ($0, $0 <= Int(ABIVersion.host.minor)) }
        .flatMap { minor, consistent in ["process", "in-process"].map { (minor, consistent, $0) } })
    func aRecordMayNameAnOlderMinorThanItsEntry(_ recordMinor: Int, _ consistent: Bool, _ isolation: String) throws {
        let directory = try FixturePlugins.makeScratchDirectory("record-minor-\(recordMinor)-\(isolation)")
        chmod(directory, 0o755)
        try FixturePlugins.compileCommand(["cc"] + FixturePlugins.pluginFlags + [
            "-DRECORD_MINOR=\(recordMinor)", "-I", FixturePlugins.headerDirectory, "-I", FixturePlugins.sourceDirectory,
            "-o", directory + "/older_minor.so", FixturePlugins.repositoryRoot + "/Tests/Fixtures/discovery/meta_older_minor.c",
        ])
        let output = try DiscoveryFixtures.hudhost(["render", "--isolation", isolation, "--style", "org.fixture.older-minor", "--format", "json"],
                                                   path: directory, cache: try FixturePlugins.makeScratchDirectory("record-minor-cache"))
        let json = try HudHost.json(output)
        if consistent {
            #expect(output.status == 0, "\(output.transcript)")
            #expect(json["renderer"]?["abiVersion"]?.stringValue == "\(ABIVersion.host)", "the entry's version is shown")
        } else {
            #expect(output.status == 3, "\(output.transcript)")
            #expect(json["error"]?["code"]?.stringValue == "metadata-mismatch", "\(output.stdout)")
        }
    }
}
