// SPDX-License-Identifier: MIT
import Foundation
import HudRendererAPI
import Testing
@testable import HudRegistry
@testable import HudScenes
@testable import HudPresentation
import HudTestSupport

/// ExampleRing (`Plugins/ExampleRing/ring.c`), the third-party renderer in
/// plain C: built at test time the way the plugin guide says, loaded by
/// path like any plugin, and held to the same layout rules as the
/// built-ins (`BuiltinLayoutTests`) plus its own geometry: corner slots on
/// an arc around the center slot, chips on their slot's inner side, modes
/// fanned out on a wider arc.
struct ExampleRingTests {
    static let ringID = "org.hudson.example.ring"
    static let style = HudPhoneComplicationsStyle.renderer(ringID)
    /// The ring's radius and fan radius at full size, and the corner angles
    /// (degrees, counterclockwise from the trailing side) ring.c documents.
    static let radius = 110.0
    static let fanRadius = 180.0
    static let angles: [Position: Double] = [.topLeft: 130, .topRight: 50, .bottomLeft: 170, .bottomRight: 10]

    // MARK: - Building and loading

    @Test func theDocumentedStandaloneBuildNeedsNoSwiftRuntime() throws {
        let path = try ExampleRingBuild.standalone()
        let output = try FixturePlugins.run(["readelf", "-d", path])
        #expect(output.status == 0, "\(output.transcript)")
        let needed = Self.neededLibraries(output.stdout)
        #expect(!needed.contains { $0.hasPrefix("libswift") }, "NEEDED: \(needed)")
        #expect(Set(needed).isSubset(of: ["libc.so.6"]), "ring.c needs nothing beyond libc; NEEDED: \(needed)")
    }

    @Test func ringCompilesWithoutWarningsUnderStrictFlags() throws {
        let directory = try ExampleRingBuild.scratchCopy("ring-strict")
        let output = try ExampleRingBuild.shell(
            "cc -std=c11 -Wall -Wextra -Werror -pedantic -Wmissing-prototypes -O2 -shared -fPIC $(hudhost sdk --cflags) ring.c -o libring.so",
            in: directory)
        #expect(output.status == 0 && output.stderr.isEmpty, "\(output.transcript)")
    }

    @Test(arguments: [ExampleRingBuild.Kind.standalone, .swiftPM])
    func bothBuildsLoadByPathAndDescribeTheRing(kind: ExampleRingBuild.Kind) throws {
        let path = try kind.path()
        let registry = RendererRegistry.withBuiltins()
        let loaded = try registry.load(path: path)
        #expect(registry.failures.isEmpty, "\(registry.failures)")
        let info = try #require(loaded.first)
        #expect(loaded.count == 1)
        #expect(info.id == Self.ringID && info.name == "Ring" && info.version == "1.0.0" && info.abiVersion.description == "1.2")
        #expect(info.supportedPositions == Set(Position.allCases))
        #expect(info.capabilities == .threadSafe)
        #expect(info.origin == .file(FixturePlugins.canonical(path)))
    }

    /// Forward compatibility: ring.c rebuilt against a later 1.x header,
    /// whose structures are all larger, still serves this host's
    /// smaller ones, because it compares struct_size with the frozen 1.0
    /// sizes rather than with sizeof, and lays out exactly as before.
    @Test(arguments: [Case(device: .iphone16Pro, orientation: .portrait, direction: .leftToRight),
                      Case(device: .iphoneSE, orientation: .landscape, direction: .rightToLeft)])
    func aRebuildAgainstALaterMinorHeaderServesThisHostsSmallerStructures(_ c: Case) throws {
        let later = try Self.registry(.laterHeader)
        let info = try #require(later.info(id: Self.ringID))
        #expect(info.abiVersion == ExampleRingBuild.laterMinor, "the rebuilt plugin claims the later minor")
        let standalone = try Self.registry(.standalone)
        for scene in Scene.allCases {
            for reveal in scene.reveals {
                #expect(try Self.layout(c, scene: scene, reveal: reveal, in: later)
                    == Self.layout(c, scene: scene, reveal: reveal, in: standalone), "\(scene) reveal \(String(describing: reveal))")
            }
        }
    }

    @Test(arguments: cases)
    func bothBuildsLayOutIdentically(_ c: Case) throws {
        let standalone = try Self.registry(.standalone)
        let swiftPM = try Self.registry(.swiftPM)
        for scene in Scene.allCases {
            for reveal in scene.reveals {
                #expect(try Self.layout(c, scene: scene, reveal: reveal, in: standalone)
                    == Self.layout(c, scene: scene, reveal: reveal, in: swiftPM), "\(scene) reveal \(String(describing: reveal))")
            }
        }
    }

    // MARK: - The ring's geometry

    @Test(arguments: cases)
    func cornerSlotsSitOnAnArcAroundTheCenterSlot(_ c: Case) throws {
        let layout = try Self.layout(c, scene: .demo)
        let center = try #require(layout.slot(at: .center))
        let safe = c.environment.safeRect
        // The center slot: 64 pt, at the bottom middle, 28 pt above the bottom safe edge.
        #expect(center.frame.width == 64 && center.frame.height == 64)
        #expect(center.frame.maxY == safe.maxY - 28)
        #expect(center.frame.midX == safe.midX)
        for (position, angle) in Self.angles {
            let slot = try #require(layout.slot(at: position))
            #expect(slot.frame.width == 48 && slot.frame.height == 48)
            let (distance, measured) = Self.polar(slot.frame, around: center.frame, in: c)
            // Every preset has room for the full radius.
            #expect(abs(distance - Self.radius) < 1e-9, "\(position) at \(distance) pt")
            #expect(abs(measured - angle) < 1e-6, "\(position) at \(measured)°")
            let isLeading = position == .topLeft || position == .bottomLeft
            let onLeft = isLeading == (c.direction == .leftToRight)
            #expect(onLeft ? slot.frame.maxX <= center.frame.midX : slot.frame.minX >= center.frame.midX, "\(position) on the wrong side")
            #expect(slot.placement == .overlay && slot.shape == .circle)
        }
        let topLeft = try #require(layout.slot(at: .topLeft)), bottomLeft = try #require(layout.slot(at: .bottomLeft))
        #expect(topLeft.frame.midY < bottomLeft.frame.midY)
        #expect(layout.contentInsets == .zero && layout.hiddenPositions.isEmpty)
    }

    @Test(arguments: cases)
    func secondaryChipsSitOnTheInnerSideFourPointsFromTheirSlots(_ c: Case) throws {
        // As in Hudson's renderers: toward the screen's centre (right of a
        // leading slot in LTR), vertically centred, 4 pt from a slot that
        // stays on the arc; none on the center slot.
        let layout = try Self.layout(c, scene: .chips)
        let center = try #require(layout.slot(at: .center))
        let width = c.environment.screenSize.width
        for position in Self.angles.keys {
            let slot = try #require(layout.slot(at: position))
            let chip = try #require(layout.nodes.first { $0.kind == .secondary && $0.position == position })
            let (distance, _) = Self.polar(slot.frame, around: center.frame, in: c)
            #expect(abs(distance - Self.radius) < 1e-9, "\(position) left the arc for its chip")
            let ltr = c.direction == .leftToRight
            let chipW = ltr ? chip.frame : chip.frame.mirrored(screenWidth: width)
            let slotW = ltr ? slot.frame : slot.frame.mirrored(screenWidth: width)
            let leading = position == .topLeft || position == .bottomLeft
            let gap = leading ? chipW.minX - slotW.maxX : slotW.minX - chipW.maxX
            #expect(abs(gap - 4) < 1e-9, "\(position) chip \(chip.frame) is \(gap) pt from its slot \(slot.frame) on the inner side")
            #expect(abs(chip.frame.midY - slot.frame.midY) < 1e-9)
            #expect(chip.frame.width == 22 && chip.shape == .circle)
            if chip.isInteractive {
                #expect(!chip.hit.intersects(slot.hit) && chip.hit.width == 44 && chip.hit.contains(chip.frame))
                #expect(!chip.hit.intersects(center.hit))
            }
        }
        #expect(!layout.nodes.contains { $0.kind == .secondary && $0.position == .center })
    }

    @Test(arguments: cases)
    func everyInteractiveNodeHasAFullSizeTargetInsideTheSafeArea(_ c: Case) throws {
        let environment = c.environment
        for scene in Scene.allCases {
            for reveal in scene.reveals {
                let layout = try Self.layout(c, scene: scene, reveal: reveal)
                LayoutRules.expectTouchTargets(layout, in: environment, context: "\(scene) reveal \(String(describing: reveal))")
            }
        }
    }

    @Test(arguments: cases.filter { $0.direction == .rightToLeft })
    func rightToLeftIsTheMirrorOfLeftToRight(_ c: Case) throws {
        let width = c.environment.screenSize.width
        for scene in Scene.allCases {
            for reveal in scene.reveals {
                let rtl = try Self.layout(c, scene: scene, reveal: reveal)
                let ltr = try Self.layout(c.mirrored, scene: scene, reveal: reveal)
                #expect(rtl.nodes.count == ltr.nodes.count)
                for (r, l) in zip(rtl.nodes, ltr.nodes) {
                    var mirrored = l
                    mirrored.frame = l.frame.mirrored(screenWidth: width)
                    mirrored.hit = l.hit.isEmpty ? l.hit : l.hit.mirrored(screenWidth: width)
                    #expect(r == mirrored, "\(scene) reveal \(String(describing: reveal))")
                }
                #expect(rtl.contentInsets == ltr.contentInsets && rtl.hiddenPositions == ltr.hiddenPositions)
            }
        }
    }

    @Test(arguments: cases)
    func identicalInputsGiveIdenticalLayouts(_ c: Case) throws {
        let registry = try Self.registry(.standalone)
        for scene in Scene.allCases {
            let first = try Self.layout(c, scene: scene, reveal: .center, in: registry)
            #expect(try first == Self.layout(c, scene: scene, reveal: .center, in: registry))
            #expect(try first == Self.layout(c, scene: scene, reveal: .center))
        }
    }

    @Test(arguments: cases)
    func revealedModesFanOutOnAWiderArc(_ c: Case) throws {
        let registry = try Self.registry(.standalone)
        for scene in Scene.allCases {
            let complications = scene.complications(registry)
            for case let revealed? in scene.reveals {
                let context = "\(scene) reveal \(revealed)"
                let layout = try Self.layout(c, scene: scene, reveal: revealed, in: registry)
                let modes = try #require(complications[revealed]?.longPressModes)
                let fans = layout.nodes.filter { $0.kind == .container }
                try #require(fans.count == 1, "\(context)")
                let fan = fans[0]
                #expect(fan.position == revealed && fan.part == .container && !fan.isInteractive && fan.hit == .zero)
                let items = layout.nodes.filter { $0.kind == .modeItem }
                #expect(items.map(\.modeIndex) == Array(modes.indices).map { Optional($0) }, "\(context)")
                #expect(items.map(\.accessibilityLabel) == modes.map { Optional($0.label) })
                #expect(items.map(\.icon) == modes.map { Optional($0.icon) })
                let center = try #require(layout.slot(at: .center))
                let slot = try #require(layout.slot(at: revealed))
                var previousAngle: Double?
                for item in items {
                    #expect(item.isInteractive && item.position == revealed && item.part == .mode)
                    #expect(item.hit.width >= 44 && item.hit.height >= 44)
                    #expect(fan.frame.contains(item.frame))
                    #expect(item.z > slot.z && fan.z > slot.z)
                    // On a circle around the ring, 70 pt wider than it, above its center.
                    let (distance, angle) = Self.polar(item.frame, around: center.frame, in: c)
                    #expect(abs(distance - Self.fanRadius) < 1e-9, "\(context): item at \(distance) pt")
                    #expect(angle >= -1e-6 && angle <= 180 + 1e-6)
                    // Leading to trailing, 20° apart.
                    if let previousAngle { #expect(abs(previousAngle - angle - 20) < 1e-6, "\(context): \(previousAngle)° then \(angle)°") }
                    previousAngle = angle
                }
                // Every item of a small fan shares one arc.
                let distances = items.map { Self.polar($0.frame, around: center.frame, in: c).distance }
                #expect(distances.allSatisfy { abs($0 - distances[0]) < 1e-9 }, "\(context): \(distances)")
            }
        }
        // The demo's style switcher offers the ring itself, like any registered style.
        let demo = Scene.demo.complications(registry)
        #expect(demo.center?.longPressModes?.map(\.label) == ["Tray", "Scattered", "Minimal", "Ring"])
        // Nothing is revealed unless asked.
        #expect(try Self.layout(c, scene: .demo, in: registry).nodes.allSatisfy { $0.kind != .modeItem && $0.kind != .container })
    }

    // MARK: - Colors, pressed state, degenerate screens

    @Test func colorsComeFromThePaletteAndTheSlotsRoles() throws {
        let registry = try Self.registry(.standalone)
        let complications = Scene.chips.complications(registry)
        for (appearance, scheme, palette) in [(HudPhoneAppShellAppearance.hudson, HudColorScheme.light, HudPalette.stable),
                                              (.system, .light, .stable), (.system, .dark, .stable)] {
            let environment = HudEnvironment(device: .iphone16Pro, colorScheme: scheme, appearance: appearance)
            let layout = try registry.layout(style: Self.style, snapshot: ComplicationsSnapshot(complications), environment: environment,
                                             interaction: HudInteraction(revealedPosition: .center))
            let standard = try #require(layout.slot(at: .topLeft))
            #expect(standard.fill == palette.surface && standard.iconColor == palette.ink && standard.stroke == palette.hairlineStandard)
            let accent = try #require(layout.slot(at: .center))
            #expect(accent.fill == palette.accent && accent.iconColor == palette.bg && accent.stroke == palette.accent.tintStrong)
            let destructive = try #require(layout.slot(at: .bottomLeft))
            #expect(destructive.fill == palette.statusError && destructive.iconColor == palette.ink && destructive.stroke == palette.statusError.tintStrong)
            for chip in layout.nodes where chip.kind == .secondary {
                #expect(chip.fill == palette.surface && chip.iconColor == palette.muted && chip.stroke == palette.hairlineSubtle)
            }
            for item in layout.nodes where item.kind == .modeItem {
                #expect(item.fill == palette.surface && item.iconColor == palette.ink && item.stroke == palette.hairlineStandard)
            }
        }
    }

    @Test func pressedStateIsReflectedOnThePressedNodeOnly() throws {
        let registry = try Self.registry(.standalone)
        let snapshot = try ComplicationsSnapshot(Scene.chips.complications(registry))
        let environment = HudEnvironment(device: .iphone16Pro)
        let idle = try registry.layout(style: Self.style, snapshot: snapshot, environment: environment,
                                       interaction: HudInteraction(revealedPosition: .center))
        #expect(!idle.nodes.contains { $0.isPressed })
        let targets: [(HudInteraction.Target, HudNode.Kind, Position, Int?)] = [
            (.slot(.bottomLeft), .slot, .bottomLeft, nil), (.secondary(.topRight), .secondary, .topRight, nil), (.mode(.center, index: 1), .modeItem, .center, 1),
        ]
        for (target, kind, position, index) in targets {
            let pressed = try registry.layout(style: Self.style, snapshot: snapshot, environment: environment,
                                              interaction: HudInteraction(pressed: target, revealedPosition: .center))
            let marked = pressed.nodes.filter(\.isPressed)
            #expect(marked.count == 1 && marked.first?.kind == kind && marked.first?.position == position && marked.first?.modeIndex == index)
            #expect(pressed.nodes.map(\.frame) == idle.nodes.map(\.frame))
        }
    }

    @Test(arguments: [
        HudEnvironment(screenSize: HudSize(width: 1, height: 1), safeArea: .zero),
        HudEnvironment(screenSize: HudSize(width: 40, height: 30), safeArea: HudInsets(top: 5, left: 1, bottom: 5, right: 1)),
        HudEnvironment(screenSize: HudSize(width: 200, height: 150), safeArea: .zero, layoutDirection: .rightToLeft),
        HudEnvironment(screenSize: HudSize(width: 375, height: 667), safeArea: HudInsets(top: 600, left: 0, bottom: 600, right: 0)),
        HudEnvironment(screenSize: HudSize(width: 375, height: 667), safeArea: HudInsets(top: 0, left: 500, bottom: 0, right: 500)),
        HudEnvironment(screenSize: HudSize(width: 320, height: 480), safeArea: .zero, textScale: 50, navigationBar: HudRect(x: 0, y: 0, width: 320, height: 470)),
        HudEnvironment(screenSize: HudSize(width: 100_000, height: 100_000), safeArea: HudInsets(top: 10, left: 10, bottom: 10, right: 10)),
    ])
    func degenerateViewportsStillGiveValidLayouts(environment: HudEnvironment) throws {
        let registry = try Self.registry(.standalone)
        for scene in Scene.allCases {
            for reveal in scene.reveals {
                let layout = try registry.layout(style: Self.style, snapshot: ComplicationsSnapshot(scene.complications(registry)),
                                                 environment: environment, interaction: HudInteraction(revealedPosition: reveal))
                #expect(layout.nodes.filter { $0.kind == .slot }.count == 5)
                for node in layout.nodes {
                    #expect(environment.screen.contains(node.frame), "\(node.kind) \(node.frame) off a \(environment.screenSize) screen")
                    if node.isInteractive { #expect(node.hit.width >= 44 && node.hit.height >= 44 && node.hit.contains(node.frame)) }
                }
            }
        }
    }

    @Test func invalidInputsAreRefusedAtTheABI() throws {
        let path = try ExampleRingBuild.standalone()
        let handle = try #require(dlopen(path, RTLD_NOW | RTLD_LOCAL))
        let symbol = try #require(dlsym(handle, HUD_ENTRY_SYMBOL_NAME))
        let entry = try #require(unsafeBitCast(symbol, to: hud_get_entry_fn.self)())
        let initialize = try #require(entry.pointee.`init`), finish = try #require(entry.pointee.`deinit`)
        #expect(initialize() == hud_status_t(HUD_STATUS_OK))
        defer { finish() }
        let descriptor = try #require(entry.pointee.renderer_at?(0))
        #expect(entry.pointee.renderer_at?(1) == nil)
        let invalid = hud_status_t(HUD_STATUS_INVALID_ARGUMENT)

        #expect(RawCall(descriptor).status == hud_status_t(HUD_STATUS_OK))
        #expect(RawCall(descriptor, capacity: 0).status == hud_status_t(HUD_STATUS_BUFFER_TOO_SMALL))
        #expect(RawCall(descriptor, capacity: 0).count == 2) // slot + chip, counted though not written
        #expect(RawCall(descriptor) { $0.passSelf = false }.status == invalid)
        #expect(RawCall(descriptor) { $0.passComplications = false }.status == invalid)
        #expect(RawCall(descriptor) { $0.passPalette = false }.status == invalid)
        #expect(RawCall(descriptor) { $0.environment.struct_size = 8 }.status == invalid)
        #expect(RawCall(descriptor) { $0.interaction.struct_size = 0 }.status == invalid)
        #expect(RawCall(descriptor) { $0.slot.struct_size = 4 }.status == invalid)
        #expect(RawCall(descriptor) { $0.stride = 16 }.status == invalid)
        #expect(RawCall(descriptor) { $0.environment.screen_width = .nan }.status == invalid)
        #expect(RawCall(descriptor) { $0.environment.screen_height = -1 }.status == invalid)
        #expect(RawCall(descriptor) { $0.environment.safe_area.left = .infinity }.status == invalid)
        #expect(RawCall(descriptor) { $0.environment.screen_width = 1e9 }.status == hud_status_t(HUD_STATUS_UNSUPPORTED))
    }

    // MARK: - The CLI and the kit

    @Test(arguments: [ExampleRingBuild.Kind.standalone, .swiftPM])
    func renderDrawsTheRingInTheTerminal(kind: ExampleRingBuild.Kind) throws {
        let output = try HudHost.run(["render", "--plugin", kind.path(), "--style", Self.ringID, "--format", "ascii"])
        #expect(output.status == 0, "\(output.transcript)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        let top = try #require(lines.firstIndex { $0.contains("(TL)") })
        let bottom = try #require(lines.firstIndex { $0.contains("(BL)") })
        let center = try #require(lines.firstIndex { $0.contains("(C)") })
        #expect(lines[top].contains("(TR)") && lines[bottom].contains("(BR)"))
        #expect(top < bottom && bottom <= center)
    }

    @Test func listShowsTheRingOnTheSearchPathWithItsOrigin() throws {
        let directory = try FixturePlugins.makeScratchDirectory("ring-path")
        try FileManager.default.copyItem(atPath: ExampleRingBuild.standalone(), toPath: directory + "/libring.so")
        let output = try HudHost.run(["list", "--json"], environment: ["HUD_RENDERER_PATH": directory])
        #expect(output.status == 0, "\(output.transcript)")
        let ring = try #require(HudHost.json(output)["renderers"]?.arrayValue?.first { $0["id"]?.stringValue == Self.ringID })
        #expect(ring["origin"]?.stringValue == directory + "/libring.so")
    }

    @Test func sdkPrintsWhatAnOutOfTreeBuildNeeds() throws {
        let includeDirectory = FixturePlugins.canonical(FixturePlugins.headerDirectory)
        let cflags = try HudHost.run(["sdk", "--cflags"])
        #expect(cflags.status == 0 && cflags.stdout == "-I\(includeDirectory)\n", "\(cflags.transcript)")
        let include = try HudHost.run(["sdk", "--include-dir"])
        #expect(include.stdout == includeDirectory + "\n")
        let version = try HudHost.run(["sdk", "--abi-version"])
        #expect(version.status == 0 && version.stdout == "\(HUD_ABI_VERSION_MAJOR).\(HUD_ABI_VERSION_MINOR)\n")
        let pc = try HudHost.run(["sdk", "--pkg-config"])
        #expect(pc.status == 0)
        let lines = pc.stdout.split(separator: "\n").map(String.init)
        let prefix = ((includeDirectory as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
        #expect(lines.contains("prefix=" + prefix))
        #expect(lines.contains("includedir=${prefix}/include/hud"))
        #expect(lines.contains("Version: 1.2") && lines.contains("abi_version=1.2") && lines.contains("Cflags: -I${includedir}") && lines.contains("Name: hud-renderer"))
        let json = try HudHost.json(HudHost.run(["sdk", "--json"]))
        #expect(json["schemaVersion"] == 1 && json["abiVersion"]?.stringValue == "1.2")
        #expect(json["includeDir"]?.stringValue == includeDirectory && json["layout"]?.stringValue == "source-checkout")
        #expect(try HudHost.run(["sdk", "--json", "--cflags"]).status == 2)
        // Where the documents and the Rust bindings are: the scene the help's
        // example names is there, and so are the bindings.
        let checkout = FixturePlugins.canonical(FixturePlugins.repositoryRoot)
        let docs = try HudHost.run(["sdk", "--doc-dir"])
        #expect(docs.status == 0 && docs.stdout == checkout + "/Docs\n", "\(docs.transcript)")
        #expect(json["docDir"]?.stringValue == checkout + "/Docs")
        #expect(json["rustBindings"]?.stringValue == checkout + "/Sources/HudRendererAPI/bindings/rust/hud_renderer.rs")
        #expect(FileManager.default.fileExists(atPath: checkout + "/Docs/examples/home.json"))
        #expect(try HudHost.run(["sdk", "--doc-dir", "--json"]).status == 2)
    }

    @Test func sdkFindsAnInstalledHeaderAndExplainsAMissingOne() throws {
        let root = try FixturePlugins.makeScratchDirectory("sdk-layout")
        for prefix in ["installed", "bare"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(prefix)/bin", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: HudHost.path, toPath: "\(root)/\(prefix)/bin/hudhost")
        }
        // The SDK include directory installed whole, as <prefix>/include/hud.
        try FileManager.default.createDirectory(atPath: "\(root)/installed/include", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: FixturePlugins.headerDirectory, toPath: "\(root)/installed/include/hud")

        let installed = try FixturePlugins.run(["\(root)/installed/bin/hudhost", "sdk", "--cflags"])
        #expect(installed.status == 0 && installed.stdout == "-I\(root)/installed/include/hud\n", "\(installed.transcript)")
        let pc = try FixturePlugins.run(["\(root)/installed/bin/hudhost", "sdk", "--pkg-config"])
        #expect(pc.stdout.contains("prefix=\(root)/installed\n") && pc.stdout.contains("includedir=${prefix}/include/hud\n"), "\(pc.transcript)")
        let docs = try FixturePlugins.run(["\(root)/installed/bin/hudhost", "sdk", "--doc-dir"])
        #expect(docs.status == 0 && docs.stdout == "\(root)/installed/share/doc/hud\n", "\(docs.transcript)")
        let missing = try FixturePlugins.run(["\(root)/bare/bin/hudhost", "sdk", "--cflags"])
        #expect(missing.status == 1 && missing.stdout.isEmpty)
        #expect(missing.stderr.contains("\(root)/bare/include/hud/hud_renderer.h") && missing.stderr.contains("Sources/HudRendererAPI/include/hud/hud_renderer.h"),
                "\(missing.transcript)")
    }

    // MARK: - Cases and helpers

    struct Case: Sendable, CustomTestStringConvertible {
        var device: DevicePreset
        var orientation: DevicePreset.Orientation
        var direction: HudLayoutDirection
        var testDescription: String { "\(device.id) \(orientation.rawValue) \(direction.rawValue)" }

        var environment: HudEnvironment {
            HudEnvironment(device: device, orientation: orientation, layoutDirection: direction, navigationTitle: "Home")
        }

        var mirrored: Case {
            Case(device: device, orientation: orientation, direction: direction == .leftToRight ? .rightToLeft : .leftToRight)
        }
    }

    /// Every preset × direction in portrait, plus a few presets in landscape.
    static let cases: [Case] = DevicePreset.all.flatMap { device in
        HudLayoutDirection.allCases.map { Case(device: device, orientation: .portrait, direction: $0) }
    } + [DevicePreset.iphoneSE, .iphone16Pro, .iphoneAir].flatMap { device in
        HudLayoutDirection.allCases.map { Case(device: device, orientation: .landscape, direction: $0) }
    }

    /// The complications laid out: the seed's demo set, and one with a chip
    /// on every slot (badges and controls), every role, and modes on three
    /// positions.
    enum Scene: CaseIterable, CustomStringConvertible {
        case demo
        case chips

        var description: String { self == .demo ? "demo" : "chips" }

        var reveals: [Position?] { self == .demo ? [nil, .center] : [nil, .center, .topLeft, .bottomLeft, .topRight] }

        func complications(_ registry: RendererRegistry) -> HudPhoneComplications {
            switch self {
            case .demo:
                return DemoComplications.make(renderers: registry.renderers) { _ in }
            case .chips:
                func modes(_ count: Int) -> [HudPhoneComplications.Mode] {
                    (0..<count).map { .init(id: "m\($0)", icon: "\($0).circle", label: "Mode \($0)") {} }
                }
                return HudPhoneComplications(
                    topLeft: .init(icon: "bell", label: "Alerts", secondary: .init(icon: "1.circle"), longPressModes: modes(2)) {},
                    topRight: .init(icon: "person", secondary: .init(icon: "plus", label: "Add") {}, longPressModes: modes(1)) {},
                    bottomLeft: .init(icon: "trash", role: .destructive, secondary: .init(icon: "minus") {}, longPressModes: modes(3)) {},
                    bottomRight: .init(icon: "tray", secondary: .init(icon: "dot")) {},
                    center: .init(icon: "circle.grid.2x2", role: .accent, label: "Center", secondary: .init(icon: "star") {},
                                  longPressModes: modes(5)) {})
            }
        }
    }

    static func registry(_ kind: ExampleRingBuild.Kind) throws -> RendererRegistry {
        let registry = RendererRegistry.withBuiltins()
        try registry.load(path: kind.path())
        return registry
    }

    static func layout(_ c: Case, scene: Scene, reveal: Position? = nil, in registry: RendererRegistry? = nil) throws -> HudLayout {
        let registry = try registry ?? Self.registry(.standalone)
        return try registry.layout(style: style, snapshot: ComplicationsSnapshot(scene.complications(registry)),
                                   environment: c.environment, interaction: HudInteraction(revealedPosition: reveal))
    }

    /// Where `rect`'s center is seen from `origin`'s center, in the LTR
    /// working frame: distance (pt) and angle (degrees, counterclockwise
    /// from the trailing side, y up).
    static func polar(_ rect: HudRect, around origin: HudRect, in c: Case) -> (distance: Double, angle: Double) {
        let dx = (rect.midX - origin.midX) * (c.direction == .leftToRight ? 1 : -1)
        let dy = origin.midY - rect.midY
        return ((dx * dx + dy * dy).squareRoot(), atan2(dy, dx) * 180 / .pi)
    }

    /// The NEEDED entries of `readelf -d` output.
    static func neededLibraries(_ output: String) -> [String] {
        output.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
            guard let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }
}

/// One direct call of a renderer's layout() through the C ABI, with a valid
/// request (one standard center slot with a badge, on a 402×874 screen)
/// that `edit` may break.
struct RawCall {
    var environment = hud_environment_t()
    var interaction = hud_interaction_t()
    var slot = hud_slot_t()
    var stride = UInt32(MemoryLayout<hud_node_t>.stride)
    var passSelf = true
    var passComplications = true
    var passPalette = true

    private(set) var status: hud_status_t = 0
    private(set) var count: UInt32 = 0

    init(_ descriptor: UnsafePointer<hud_renderer_descriptor_t>, capacity: UInt32 = 16, _ edit: (inout RawCall) -> Void = { _ in }) {
        environment.struct_size = UInt32(MemoryLayout<hud_environment_t>.stride)
        environment.screen_width = 402
        environment.screen_height = 874
        environment.safe_area = hud_insets_t(top: 62, left: 0, bottom: 34, right: 0)
        environment.scale = 3
        environment.text_scale = 1
        environment.navigation_bar = hud_rect_t(x: 0, y: 62, width: 402, height: 44)
        interaction.struct_size = UInt32(MemoryLayout<hud_interaction_t>.stride)
        interaction.pressed_position = hud_position_t(HUD_POSITION_NONE)
        interaction.pressed_part = hud_part_t(HUD_PART_NONE)
        interaction.pressed_mode_index = -1
        interaction.revealed_position = hud_position_t(HUD_POSITION_NONE)
        slot.struct_size = UInt32(MemoryLayout<hud_slot_t>.stride)
        edit(&self)

        var palette = hud_palette_t()
        palette.struct_size = UInt32(MemoryLayout<hud_palette_t>.stride)
        var secondary = hud_secondary_t()
        secondary.struct_size = UInt32(MemoryLayout<hud_secondary_t>.stride)
        let icon = StaticString("star")
        let chipIcon = StaticString("dot")
        secondary.icon = UnsafeRawPointer(chipIcon.utf8Start).assumingMemoryBound(to: CChar.self)
        slot.icon = UnsafeRawPointer(icon.utf8Start).assumingMemoryBound(to: CChar.self)
        slot.action = {}
        var complications = hud_complications_t()
        complications.struct_size = UInt32(MemoryLayout<hud_complications_t>.stride)
        var layout = hud_layout_t()
        layout.struct_size = UInt32(MemoryLayout<hud_layout_t>.stride)
        layout.node_stride = stride
        layout.capacity = capacity
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: Int(max(1, capacity)) * Int(max(stride, 1)), alignment: 16)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: Int(max(1, capacity)) * Int(max(stride, 1)))
        layout.nodes = capacity > 0 ? buffer : nil

        let call = descriptor.pointee.layout!
        var slot = self.slot, environment = self.environment, interaction = self.interaction
        let (passSelf, passComplications, passPalette) = (self.passSelf, self.passComplications, self.passPalette)
        status = withUnsafePointer(to: &secondary) { secondaryPointer in
            slot.secondary = secondaryPointer
            return withUnsafePointer(to: &slot) { slotPointer in
                complications.slots.0 = slotPointer // top-left: a corner, so its chip is drawn
                return withUnsafePointer(to: &palette) { palettePointer in
                    environment.palette = passPalette ? palettePointer : nil
                    return withUnsafePointer(to: &complications) { complicationsPointer in
                        withUnsafePointer(to: &environment) { environmentPointer in
                            withUnsafePointer(to: &interaction) { interactionPointer in
                                call(passSelf ? descriptor : nil, passComplications ? complicationsPointer : nil,
                                     environmentPointer, interactionPointer, &layout)
                            }
                        }
                    }
                }
            }
        }
        count = layout.count
    }
}
