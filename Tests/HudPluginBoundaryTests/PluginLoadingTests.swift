// SPDX-License-Identifier: MIT
@testable import HudPluginBoundary
import Foundation
import Testing
@testable import HudRegistry
@testable import HudScenes
@testable import HudPresentation
import HudTestSupport

/// Real plugins through real `dlopen`: the C fixtures (compiled at test time)
/// and the built-ins' own `libBuiltinRenderers.so`, loaded with
/// `RendererRegistry.load(path:)` and `discover(_:)`. Every broken fixture
/// must give its own typed error, and never disturb the good plugins next
/// to it.
struct PluginLoadingTests {
    static let simpleIDs = ["org.fixture.simple", "org.fixture.simple-alt"]

    // MARK: - Inputs

    /// Four of five positions published (bottomLeft is empty), one slot
    /// without a label, and all three roles.
    static func complications() -> HudPhoneComplications {
        HudPhoneComplications(
            topLeft: .init(icon: "chevron.left", label: "Back", action: {}),
            topRight: .init(icon: "gear", action: {}),
            bottomRight: .init(icon: "trash", role: .destructive, label: "Delete", action: {}),
            center: .init(icon: "record.circle", role: .accent, label: "Record", action: {})
        )
    }

    /// All five positions, with secondaries and modes (for the built-ins).
    static func fullComplications() -> HudPhoneComplications {
        HudPhoneComplications(
            topLeft: .init(icon: "chevron.left", label: "Back", action: {}),
            topRight: .init(icon: "gear", secondary: .init(icon: "bell", label: "3"), action: {}),
            bottomLeft: .init(icon: "square.and.arrow.up", label: "Share", action: {}),
            bottomRight: .init(icon: "trash", role: .destructive, label: "Delete",
                               secondary: .init(icon: "arrow.uturn.backward", action: {}), action: {}),
            center: .init(icon: "record.circle", role: .accent, label: "Record",
                          longPressModes: [.init(id: "photo", icon: "camera", label: "Photo", action: {}),
                                           .init(id: "video", icon: "video", label: "Video", action: {})],
                          action: {})
        )
    }

    static let environment = HudEnvironment(device: .iphone16Pro)

    static func layout(_ registry: RendererRegistry, _ id: String,
                       _ complications: HudPhoneComplications = complications(),
                       environment: HudEnvironment = environment,
                       interaction: HudInteraction = .idle) throws -> HudLayout {
        try registry.layout(style: .renderer(id), snapshot: ComplicationsSnapshot(complications),
                            environment: environment, interaction: interaction)
    }

    /// The error `body` throws, failing the test if it throws none.
    static func error<T>(from body: () throws(RegistryError) -> T, sourceLocation: SourceLocation = #_sourceLocation) -> RegistryError? {
        do {
            _ = try body()
            Issue.record("expected a RegistryError, got success", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    /// What good_simple draws for `slot` at `position` (see good_simple.c):
    /// a 48x48 circle 8 pt inside the safe area's corner (or centered).
    static func simpleNode(_ position: Position, _ slot: HudPhoneComplications.Slot, in environment: HudEnvironment,
                           pressed: Bool = false) -> HudNode {
        let safe = environment.safeRect
        let x: Double, y: Double
        switch position {
        case .topLeft: (x, y) = (safe.minX + 8, safe.minY + 8)
        case .topRight: (x, y) = (safe.maxX - 56, safe.minY + 8)
        case .bottomLeft: (x, y) = (safe.minX + 8, safe.maxY - 56)
        case .bottomRight: (x, y) = (safe.maxX - 56, safe.maxY - 56)
        case .center: (x, y) = (safe.minX + (safe.width - 48) / 2, safe.minY + (safe.height - 48) / 2)
        }
        let palette = environment.complicationPalette
        let frame = HudRect(x: x, y: y, width: 48, height: 48)
        let fill = switch slot.role {
        case .standard: palette.surface
        case .accent: palette.accent
        case .destructive: palette.statusError
        }
        return HudNode(
            kind: .slot, position: position, part: .slot, modeIndex: nil, frame: frame, hit: frame,
            shape: .circle, material: .solid, cornerRadius: 0, strokeWidth: 1, fontSize: 0,
            fill: fill, stroke: palette.hairlineStandard, iconColor: palette.ink, textColor: palette.ink,
            placement: .overlay, z: 0, isPressed: pressed, isInteractive: true,
            icon: slot.icon, label: slot.label, accessibilityLabel: slot.label ?? slot.icon
        )
    }

    static func expectedSimpleNodes(in environment: HudEnvironment = environment, pressed: Position? = nil) -> [HudNode] {
        let complications = complications()
        return complications.occupiedPositions.map {
            simpleNode($0, complications[$0]!, in: environment, pressed: $0 == pressed)
        }
    }

    // MARK: - Good plugins

    @Test func goodSimpleRegistersBothRenderersWithFileOriginAndDescriptorInfo() throws {
        let path = try FixturePlugins.path(of: .goodSimple)
        let registry = RendererRegistry()
        let loaded = try registry.load(path: path)

        #expect(registry.failures.isEmpty)
        #expect(loaded.map(\.id) == Self.simpleIDs)
        #expect(registry.renderers == loaded)
        #expect(loaded.map(\.origin) == [.file(path), .file(path)])

        let simple = try #require(registry.info(id: "org.fixture.simple"))
        #expect(simple == RendererInfo(
            id: "org.fixture.simple", name: "Simple", version: "1.0.0", vendor: "Hudson fixtures",
            summary: "A test fixture: Simple.", supportedPositions: Set(Position.allCases), capabilities: [],
            abiVersion: .host, origin: .file(path)
        ))
        let alternate = try #require(registry.info(id: "org.fixture.simple-alt"))
        #expect(alternate == RendererInfo(
            id: "org.fixture.simple-alt", name: "Simple (alternate)", version: "2.1.0", vendor: "Hudson fixtures",
            summary: "The simple layout under a second descriptor.", supportedPositions: [.center, .bottomRight],
            capabilities: [.threadSafe, .rtlNotMirrored], abiVersion: .host, origin: .file(path)
        ))
        #expect(alternate.origin.description == path)
    }

    @Test func goodSimpleLaysOutOneInteractiveCirclePerPublishedSlot() throws {
        let registry = RendererRegistry()
        try registry.load(path: FixturePlugins.path(of: .goodSimple))

        for id in Self.simpleIDs {
            let layout = try Self.layout(registry, id)
            #expect(layout.nodes == Self.expectedSimpleNodes(), "renderer \(id)")
            #expect(layout.contentInsets == HudInsets(top: 0, left: 0, bottom: 0, right: 0))
            #expect(layout.hiddenPositions.isEmpty)
            #expect(layout.slot(at: .bottomLeft) == nil)
            #expect(layout.hitTest(x: layout.slot(at: .center)!.frame.midX, y: layout.slot(at: .center)!.frame.midY)?.position == .center)
        }
    }

    @Test func goodSimpleSeesTheHostsInteractionAndEnvironment() throws {
        let registry = RendererRegistry()
        try registry.load(path: FixturePlugins.path(of: .goodSimple))

        let pressed = try Self.layout(registry, "org.fixture.simple", interaction: HudInteraction(pressed: .slot(.center)))
        #expect(pressed.nodes == Self.expectedSimpleNodes(pressed: .center))

        let landscape = HudEnvironment(device: .iphone16ProMax, orientation: .landscape, appearance: .system)
        let laidOut = try Self.layout(registry, "org.fixture.simple", environment: landscape)
        #expect(laidOut.nodes == Self.expectedSimpleNodes(in: landscape))

        let rtl = HudEnvironment(device: .iphone16Pro, layoutDirection: .rightToLeft)
        let mirrored = try Self.layout(registry, "org.fixture.simple", environment: rtl)
        #expect(mirrored.nodes.map(\.frame) == Self.expectedSimpleNodes().map { $0.frame.mirrored(screenWidth: rtl.screenSize.width) })
    }

    @Test func manyNodesMakesTheHostGrowItsBufferAndKeepsAll200Nodes() throws {
        let registry = RendererRegistry()
        let loaded = try registry.load(path: FixturePlugins.path(of: .goodManyNodes))
        #expect(loaded.map(\.id) == ["org.fixture.many"])

        for _ in 0..<2 {  // the second call reuses the grown buffer
            let layout = try Self.layout(registry, "org.fixture.many")
            #expect(layout.nodes.count == 200)
            #expect(layout.nodes.map(\.z) == Array(0..<200))
            #expect(layout.nodes.allSatisfy { $0.kind == .container && !$0.isInteractive && $0.hit == .zero })
            #expect(layout.nodes.last?.frame == HudRect(x: 19 * 12, y: Self.environment.safeArea.top + 9 * 12, width: 10, height: 10))
        }
    }

    // MARK: - Broken plugins, one rule each

    /// The fixtures that fail while loading, and the error code each gives.
    static let loadFailures: [(fixture: Fixture, code: String)] = [
        (.missingEntry, "missing-entry-symbol"),
        (.wrongMajor, "incompatible-abi"),
        (.smallEntry, "struct-too-small"),
        (.smallDescriptor, "struct-too-small"),
        (.invalidID, "invalid-descriptor"),
        (.initFails, "init-failed"),
        (.nullLayout, "invalid-descriptor"),
    ]

    /// The fixtures that load but fail when laid out, by renderer id.
    static let layoutFailures: [(fixture: Fixture, id: String, code: String)] = [
        (.nanFrame, "org.fixture.nan-frame", "invalid-layout"),
        (.countOverCapacity, "org.fixture.count-over-capacity", "invalid-layout"),
        (.badUTF8Label, "org.fixture.bad-utf8-label", "invalid-layout"),
        (.layoutFails, "org.fixture.layout-fails", "layout-failed"),
        (.callsActionInLayout, "org.fixture.calls-action", "action-during-layout"),
    ]

    /// Checks that `error` is the specific error `fixture` (at `path`) must give.
    static func expectSpecificError(_ error: RegistryError, for fixture: Fixture, at path: String,
                                    sourceLocation: SourceLocation = #_sourceLocation) {
        switch (fixture, error) {
        case (.missingEntry, .missingEntrySymbol(let errorPath, let symbol, let dlerror)):
            #expect(errorPath == path, sourceLocation: sourceLocation)
            #expect(symbol == "hud_renderer_get_entry", sourceLocation: sourceLocation)
            #expect(dlerror.contains("hud_renderer_get_entry"), "dlerror text: \(dlerror)", sourceLocation: sourceLocation)
        case (.wrongMajor, .incompatibleABI(let errorPath, let pluginVersion, let hostVersion)):
            #expect(errorPath == path, sourceLocation: sourceLocation)
            #expect(pluginVersion.description == "2.0", sourceLocation: sourceLocation)
            #expect(hostVersion == ABIVersion.host && hostVersion.description == "1.2", sourceLocation: sourceLocation)
        case (.smallEntry, .structTooSmall(let errorPath, let structure, let size, let required)):
            #expect(errorPath == path, sourceLocation: sourceLocation)
            #expect(structure == "hud_entry_t" && size == 8 && required == 40, sourceLocation: sourceLocation)
        case (.smallDescriptor, .structTooSmall(let errorPath, let structure, let size, let required)):
            #expect(errorPath == path, sourceLocation: sourceLocation)
            #expect(structure == "hud_renderer_descriptor_t" && size == 16 && required == 72, sourceLocation: sourceLocation)
        case (.invalidID, .invalidDescriptor(let errorPath, let index, let id, let field, let reason)):
            #expect(errorPath == path && index == 0 && field == "id", sourceLocation: sourceLocation)
            #expect(id == "Not A Valid Id", sourceLocation: sourceLocation)
            #expect(!reason.isEmpty, sourceLocation: sourceLocation)
        case (.initFails, .initFailed(let errorPath, let status)):
            #expect(errorPath == path, sourceLocation: sourceLocation)
            #expect(status == -3, sourceLocation: sourceLocation)
            #expect(error.description.contains("HUD_STATUS_INTERNAL_ERROR"), sourceLocation: sourceLocation)
        case (.nullLayout, .invalidDescriptor(let errorPath, let index, let id, let field, _)):
            #expect(errorPath == path && index == 0 && field == "layout", sourceLocation: sourceLocation)
            #expect(id == "org.fixture.null-layout", sourceLocation: sourceLocation)
        case (.nanFrame, .invalidLayout(let id, let origin, let node, let field, let reason)):
            #expect(id == "org.fixture.nan-frame" && origin == path, sourceLocation: sourceLocation)
            #expect(node == 0 && field == "frame.x", sourceLocation: sourceLocation)
            #expect(reason.lowercased().contains("nan"), "reason: \(reason)", sourceLocation: sourceLocation)
        case (.countOverCapacity, .invalidLayout(let id, let origin, let node, let field, _)):
            #expect(id == "org.fixture.count-over-capacity" && origin == path, sourceLocation: sourceLocation)
            #expect(node == nil && field == "count", sourceLocation: sourceLocation)
        case (.badUTF8Label, .invalidLayout(let id, let origin, let node, let field, let reason)):
            #expect(id == "org.fixture.bad-utf8-label" && origin == path, sourceLocation: sourceLocation)
            #expect(node == 0 && field == "label", sourceLocation: sourceLocation)
            #expect(reason.contains("UTF-8"), "reason: \(reason)", sourceLocation: sourceLocation)
        case (.layoutFails, .layoutFailed(let id, let origin, let status)):
            #expect(id == "org.fixture.layout-fails" && origin == path, sourceLocation: sourceLocation)
            #expect(status == -2, sourceLocation: sourceLocation)
            #expect(error.description.contains("HUD_STATUS_UNSUPPORTED"), sourceLocation: sourceLocation)
        case (.callsActionInLayout, .actionCalledDuringLayout(let id, let origin, let count)):
            #expect(id == "org.fixture.calls-action" && origin == path && count == 1, sourceLocation: sourceLocation)
        default:
            Issue.record("\(fixture) gave the wrong error: \(error)", sourceLocation: sourceLocation)
        }
        #expect(error.path == path, sourceLocation: sourceLocation)
        #expect(error.description.contains(path), "description: \(error.description)", sourceLocation: sourceLocation)
    }

    /// The errors loading `path` into `registry` produces, whether
    /// `load` throws it or records it in `failures`.
    static func loadErrors(_ registry: RendererRegistry, _ path: String) -> [RegistryError] {
        let before = registry.failures.count
        do {
            let loaded = try registry.load(path: path)
            #expect(loaded.isEmpty, "a broken plugin registered \(loaded.map(\.id))")
            return Array(registry.failures[before...])
        } catch {
            return [error] + registry.failures[before...]
        }
    }

    @Test(arguments: loadFailures.map(\.fixture))
    func brokenPluginFailsToLoadWithItsOwnErrorAndGoodOnesKeepWorking(_ fixture: Fixture) throws {
        let goodPath = try FixturePlugins.path(of: .goodSimple)
        let brokenPath = try FixturePlugins.path(of: fixture)
        let registry = RendererRegistry()
        try registry.load(path: goodPath)

        let errors = Self.loadErrors(registry, brokenPath)
        let error = try #require(errors.count == 1 ? errors.first : nil, "expected exactly one error, got \(errors)")
        #expect(error.code.rawValue == Self.loadFailures.first { $0.fixture == fixture }?.code)
        Self.expectSpecificError(error, for: fixture, at: brokenPath)

        #expect(registry.renderers.map(\.id) == Self.simpleIDs)
        #expect(try Self.layout(registry, "org.fixture.simple").nodes == Self.expectedSimpleNodes())
    }

    @Test(arguments: layoutFailures.map(\.fixture))
    func brokenLayoutFailsWithItsOwnErrorAndGoodOnesKeepWorking(_ fixture: Fixture) throws {
        let expected = try #require(Self.layoutFailures.first { $0.fixture == fixture })
        let brokenPath = try FixturePlugins.path(of: fixture)
        let registry = RendererRegistry()
        try registry.load(path: FixturePlugins.path(of: .goodSimple))
        let loaded = try registry.load(path: brokenPath)
        #expect(loaded.map(\.id) == [expected.id])
        #expect(registry.failures.isEmpty)

        for _ in 0..<2 {  // failing once does not change the next answer
            let error = try #require(Self.error { () throws(RegistryError) in
                try registry.layout(style: .renderer(expected.id), snapshot: ComplicationsSnapshot(Self.complications()),
                                    environment: Self.environment)
            })
            #expect(error.code.rawValue == expected.code)
            #expect(error.rendererID == expected.id)
            Self.expectSpecificError(error, for: fixture, at: brokenPath)
            #expect(try Self.layout(registry, "org.fixture.simple").nodes == Self.expectedSimpleNodes())
        }
    }

    @Test(arguments: ["Home", "A title longer than any small-string buffer", "الرئيسية"])
    func aNodeStringPointingAtTheTitleStaysValidWhileTheHostReadsIt(title: String) throws {
        let registry = RendererRegistry()
        try registry.load(path: FixturePlugins.path(of: .titleLabel))
        let environment = HudEnvironment(device: .iphone16Pro, navigationTitle: title)
        let snapshot = try ComplicationsSnapshot(HudPhoneComplications())
        for _ in 0..<3 {
            let layout = try registry.layout(style: .renderer("org.fixture.title-label"), snapshot: snapshot, environment: environment)
            #expect(layout.nodes.first?.label == title)
        }
    }

    @Test func anActionCalledFromLayoutIsNotRunAndIsReported() throws {
        let registry = RendererRegistry()
        try registry.load(path: FixturePlugins.path(of: .callsActionInLayout))
        var fired = 0
        let snapshot = try ComplicationsSnapshot(HudPhoneComplications(center: .init(icon: "star") { fired += 1 }))
        let countedBefore = ActionThunkCounters.callsDuringLayout
        let error = Self.error { () throws(RegistryError) in
            try registry.layout(style: .renderer("org.fixture.calls-action"), snapshot: snapshot, environment: Self.environment)
        }
        #expect(error?.code.rawValue == "action-during-layout")
        #expect(fired == 0)
        #expect(ActionThunkCounters.callsDuringLayout > countedBefore)
        // Outside layout the same action runs normally.
        #expect(snapshot.invoke(.slot(.center)))
        #expect(fired == 1)
    }

    @Test func discoveringAMixedDirectoryLoadsTheGoodAndReportsEachBrokenFileOnce() throws {
        let directory = try FixturePlugins.makeScratchDirectory("mixed")
        var paths: [Fixture: String] = [:]
        for fixture in Fixture.allCases {
            // Files load in name order; the impostor must come after good_simple.
            let name = fixture == .duplicateID ? "zz_duplicate_id.so" : fixture.fileName
            paths[fixture] = directory + "/" + name
            try FileManager.default.copyItem(atPath: FixturePlugins.path(of: fixture), toPath: directory + "/" + name)
        }
        try "not a plugin".write(toFile: directory + "/README.txt", atomically: true, encoding: .utf8)

        let registry = RendererRegistry()
        let report = registry.discoverWithoutSandbox(SearchPaths(directories: [directory]))

        let goodIDs = Self.simpleIDs + ["org.fixture.many", "org.fixture.title-label", "org.fixture.crash-on-title", "org.fixture.reads-file"]
        let layoutFailureIDs = Self.layoutFailures.map(\.id)
        #expect(Set(report.loaded.map(\.id)) == Set(goodIDs + layoutFailureIDs))
        #expect(report.loaded.count == goodIDs.count + layoutFailureIDs.count)
        #expect(registry.renderers == report.loaded)
        #expect(report.refusedPaths.isEmpty)

        var expectedCodes = Dictionary(uniqueKeysWithValues: Self.loadFailures.map { (paths[$0.fixture]!, [$0.code]) })
        expectedCodes[paths[.duplicateID]!] = ["duplicate-id"]
        #expect(Dictionary(grouping: report.failures, by: { $0.path ?? "?" }).mapValues { $0.map(\.code.rawValue) } == expectedCodes)
        #expect(registry.failures == report.failures)
        for (fixture, _) in Self.loadFailures {
            let error = try #require(report.failures.first { $0.path == paths[fixture] })
            Self.expectSpecificError(error, for: fixture, at: paths[fixture]!)
        }

        // Everything registered still answers for itself.
        #expect(try Self.layout(registry, "org.fixture.simple").nodes == Self.expectedSimpleNodes())
        #expect(try Self.layout(registry, "org.fixture.many").nodes.count == 200)
        #expect(registry.info(id: "org.fixture.simple")?.origin == .file(paths[.goodSimple]!))
        for (fixture, id, code) in Self.layoutFailures {
            let error = Self.error { () throws(RegistryError) in try registry.layout(
                style: .renderer(id), snapshot: ComplicationsSnapshot(Self.complications()), environment: Self.environment) }
            #expect(error?.code.rawValue == code)
            #expect(error?.path == paths[fixture])
        }
    }

    @Test func duplicateIDKeepsTheFirstRendererAndNamesBothFiles() throws {
        let goodPath = try FixturePlugins.path(of: .goodSimple)
        let impostorPath = try FixturePlugins.path(of: .duplicateID)
        let registry = RendererRegistry()
        try registry.load(path: goodPath)

        let loaded = try registry.load(path: impostorPath)
        #expect(loaded.isEmpty)
        #expect(registry.failures == [.duplicateID(id: "org.fixture.simple", keptOrigin: goodPath, rejectedOrigin: impostorPath)])
        let error = try #require(registry.failures.first)
        #expect(error.code.rawValue == "duplicate-id")
        #expect(error.rendererID == "org.fixture.simple")
        #expect(error.description.contains(goodPath) && error.description.contains(impostorPath))

        #expect(registry.renderers.map(\.id) == Self.simpleIDs)
        #expect(registry.info(id: "org.fixture.simple")?.origin == .file(goodPath))
        // good_simple's layout, not the impostor's empty one.
        #expect(try Self.layout(registry, "org.fixture.simple").nodes == Self.expectedSimpleNodes())
    }

    @Test func loadingTheSameFileTwiceOrThroughASymlinkRegistersItOnce() throws {
        let path = try FixturePlugins.path(of: .goodSimple)
        let directory = try FixturePlugins.makeScratchDirectory("symlink")
        let link = directory + "/alias.so"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)

        let registry = RendererRegistry()
        let first = try registry.load(path: path)
        let second = try registry.load(path: path)
        let viaLink = try registry.load(path: link)
        #expect(first.map(\.id) == Self.simpleIDs)
        #expect(second == first)
        #expect(viaLink == first)
        #expect(viaLink.allSatisfy { $0.origin == .file(path) })
        #expect(registry.renderers == first)
        #expect(registry.failures.isEmpty)
    }

    @Test func discoveringOneFileUnderTwoNamesRegistersAndReportsItOnce() throws {
        // One directory holding the file and a symlink to it, searched twice
        // (as when HUD_RENDERER_PATH repeats a standard directory).
        let directory = try FixturePlugins.makeScratchDirectory("two-names")
        try FileManager.default.copyItem(atPath: FixturePlugins.path(of: .goodSimple), toPath: directory + "/a.so")
        try FileManager.default.createSymbolicLink(atPath: directory + "/b.so", withDestinationPath: directory + "/a.so")

        let registry = RendererRegistry()
        let report = registry.discoverWithoutSandbox(SearchPaths(directories: [directory, directory]))
        #expect(registry.renderers.map(\.id) == Self.simpleIDs)
        #expect(registry.renderers.allSatisfy { $0.origin == .file(directory + "/a.so") })
        #expect(registry.failures.isEmpty)
        #expect(report.failures.isEmpty)
        // The report lists what this discovery registered: each renderer once.
        #expect(report.loaded.map(\.id) == Self.simpleIDs)
    }

    @Test func directoryNamedSoAndGarbageFileGiveNotAFileAndOpenFailed() throws {
        let directory = try FixturePlugins.makeScratchDirectory("not-plugins")
        let folder = directory + "/x.so"
        let garbage = directory + "/garbage.so"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        var text = ""
        for _ in 0..<64 { text += String(UUID().uuidString.shuffled()) + "\n" }
        try text.write(toFile: garbage, atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: FixturePlugins.path(of: .goodSimple), toPath: directory + "/simple.so")

        let registry = RendererRegistry()
        let report = registry.discoverWithoutSandbox(SearchPaths(directories: [directory]))
        #expect(report.loaded.map(\.id) == Self.simpleIDs)
        #expect(report.failures.map(\.code.rawValue).sorted() == ["not-a-file", "open-failed"])

        if case .notAFile(let path, let reason)? = report.failures.first(where: { $0.code.rawValue == "not-a-file" }) {
            #expect(path == folder)
            #expect(reason.contains("directory"))
        } else {
            Issue.record("no notAFile error for \(folder): \(report.failures)")
        }
        if case .openFailed(let path, let dlerror)? = report.failures.first(where: { $0.code.rawValue == "open-failed" }) {
            #expect(path == garbage)
            #expect(!dlerror.isEmpty)
        } else {
            Issue.record("no openFailed error for \(garbage): \(report.failures)")
        }
        for error in report.failures { #expect(error.description.contains(error.path ?? "?")) }

        // The same through load(path:), plus a path that does not exist.
        #expect(Self.error { () throws(RegistryError) in try registry.load(path: folder) }?.code.rawValue == "not-a-file")
        #expect(Self.error { () throws(RegistryError) in try registry.load(path: garbage) }?.code.rawValue == "open-failed")
        let missing = directory + "/missing.so"
        let error = Self.error { () throws(RegistryError) in try registry.load(path: missing) }
        #expect(error?.code.rawValue == "not-a-file")
        #expect(error?.path == missing)
    }

    // MARK: - The built-ins through dlopen

    @Test func builtinsLoadedFromTheirSharedObjectMatchTheLinkedBuiltins() throws {
        let path = FixturePlugins.binDirectory + "/libBuiltinRenderers.so"
        try #require(FileManager.default.fileExists(atPath: path), "run `swift build` first: \(path) is missing")
        let linked = RendererRegistry.withBuiltins()
        let registry = RendererRegistry()
        let loaded = try registry.load(path: path)

        #expect(registry.failures.isEmpty)
        let ids = [HudPhoneComplicationsStyle.trayID, HudPhoneComplicationsStyle.scatteredID, HudPhoneComplicationsStyle.minimalID]
        #expect(loaded.map(\.id) == ids)
        #expect(linked.renderers.map(\.id) == ids)
        #expect(loaded.allSatisfy { $0.origin == .file(FixturePlugins.canonical(path)) })
        #expect(linked.renderers.allSatisfy { $0.origin == .builtin })
        let asBuiltins = loaded.map { info in
            var info = info
            info.origin = .builtin
            return info
        }
        #expect(asBuiltins == linked.renderers)

        // And they draw the same thing.
        for style in [HudPhoneComplicationsStyle.tray, .scattered, .minimal] {
            let snapshot = try ComplicationsSnapshot(Self.fullComplications())
            let fromFile = try registry.layout(style: style, snapshot: snapshot, environment: Self.environment)
            let fromLink = try linked.layout(style: style, snapshot: snapshot, environment: Self.environment)
            #expect(fromFile == fromLink, "style \(style)")
            #expect(!fromFile.nodes.isEmpty, "style \(style)")
        }
    }

    // MARK: - Search paths

    /// Tests that change the process environment; serialized, and each
    /// restores what it changed.
    @Suite(.serialized) struct SearchPathEnvironmentTests {
        @Test func standardSearchPathRefusesRelativeEntries() throws {
            let directory = try FixturePlugins.makeScratchDirectory("search-path")
            try FileManager.default.copyItem(atPath: FixturePlugins.path(of: .goodSimple), toPath: directory + "/simple.so")

            let saved = getenv("HUD_RENDERER_PATH").map { String(cString: $0) }
            setenv("HUD_RENDERER_PATH", "relative/plugins:\(directory)::./here", 1)
            let paths = SearchPaths.standard()
            if let saved { setenv("HUD_RENDERER_PATH", saved, 1) } else { unsetenv("HUD_RENDERER_PATH") }

            #expect(paths.directories.first == directory)
            #expect(!paths.directories.contains { !$0.hasPrefix("/") })
            #expect(paths.refused.map(\.entry) == ["relative/plugins", "./here"])
            #expect(paths.refused.allSatisfy { !$0.reason.isEmpty })
            #expect(paths.directories.suffix(2) == ["/usr/local/lib/hud/renderers", "/usr/lib/hud/renderers"])

            let registry = RendererRegistry()
            let report = registry.discoverWithoutSandbox(paths)
            #expect(report.refusedPaths.count == 2)
            #expect(report.refusedPaths.first?.hasPrefix("relative/plugins") == true)
            #expect(Set(report.loaded.map(\.id)).isSuperset(of: PluginLoadingTests.simpleIDs))
        }
    }
}
