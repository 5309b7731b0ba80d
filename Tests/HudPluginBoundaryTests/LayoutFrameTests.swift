// SPDX-License-Identifier: MIT
@testable import HudPluginBoundary
import Testing
@testable import HudRegistry
@testable import HudScenes
@testable import HudPresentation
import HudTestSupport

/// The per-frame path: `RendererRegistry.withLayout` validates in place and
/// must agree exactly with the decoded `HudLayout` path, and the in-place
/// UTF-8 check must agree with the standard library's.
struct LayoutFrameTests {
    static let styles: [HudPhoneComplicationsStyle] = [.tray, .scattered, .minimal]

    static func complications() -> HudPhoneComplications {
        HudPhoneComplications(
            topLeft: .init(icon: "chevron.left", label: "Back", action: {}),
            topRight: .init(icon: "gear", secondary: .init(icon: "bell", label: "3"), action: {}),
            bottomLeft: .init(icon: "square.and.arrow.up", label: "Partager — ça marche", action: {}),
            bottomRight: .init(icon: "trash", role: .destructive, label: "Delete",
                               secondary: .init(icon: "arrow.uturn.backward", action: {}), action: {}),
            center: .init(icon: "record.circle", role: .accent, label: "Record 🎥",
                          longPressModes: [.init(id: "photo", icon: "camera", label: "Photo", action: {}),
                                           .init(id: "video", icon: "video", label: "Vidéo", action: {})],
                          action: {})
        )
    }

    static let interactions: [HudInteraction] = [
        .idle,
        HudInteraction(pressed: .slot(.center)),
        HudInteraction(pressed: .mode(.center, index: 1), revealedPosition: .center),
    ]

    /// The renderer keeps the environment's marshaled view while the
    /// environment is unchanged: after each change (direction, title, text
    /// size, palette, back again) one registry lays out exactly what a fresh
    /// registry lays out, ExampleRing included.
    @Test(arguments: styles + [.renderer("org.hudson.example.ring")])
    func aChangedEnvironmentIsMarshaledAgain(style: HudPhoneComplicationsStyle) throws {
        let registry = RendererRegistry.withBuiltins()
        if case .renderer = style { try registry.load(path: ExampleRingBuild.Kind.standalone.path()) }
        let snapshot = try ComplicationsSnapshot(Self.complications())
        var environment = HudEnvironment(device: .iphone16Pro, navigationTitle: "Home")
        let steps: [(inout HudEnvironment) -> Void] = [
            { _ in }, { $0.layoutDirection = .rightToLeft }, { $0.navigationTitle = "Ailleurs" }, { $0.textScale = 1.4 },
            { $0.paletteOverride = HudPalette.resolved(appearance: .system, scheme: .light).palette },
            { $0 = HudEnvironment(device: .iphone16Pro, navigationTitle: "Home") },
        ]
        for step in steps {
            step(&environment)
            let reused = try registry.withLayout(style: style, snapshot: snapshot, environment: environment) { $0.decoded() }
            let again = try registry.withLayout(style: style, snapshot: snapshot, environment: environment) { $0.decoded() }
            let fresh = RendererRegistry.withBuiltins()
            if case .renderer = style { try fresh.load(path: ExampleRingBuild.Kind.standalone.path()) }
            let expected = try fresh.withLayout(style: style, snapshot: snapshot, environment: environment) { $0.decoded() }
            #expect(reused == expected)
            #expect(again == expected)
        }
    }

    @Test(arguments: styles)
    func frameDecodesToTheSameLayoutAsTheDecodedPath(style: HudPhoneComplicationsStyle) throws {
        let registry = RendererRegistry.withBuiltins()
        let snapshot = try ComplicationsSnapshot(Self.complications())
        for direction in [HudLayoutDirection.leftToRight, .rightToLeft] {
            let environment = HudEnvironment(device: .iphone16Pro, layoutDirection: direction, navigationTitle: "Home")
            for interaction in Self.interactions {
                let decoded = try registry.layout(style: style, snapshot: snapshot, environment: environment, interaction: interaction)
                let viaFrame = try registry.withLayout(style: style, snapshot: snapshot, environment: environment,
                                                       interaction: interaction) { $0.decoded() }
                #expect(viaFrame == decoded)
                try registry.withLayout(style: style, snapshot: snapshot, environment: environment, interaction: interaction) { frame in
                    #expect(frame.count == decoded.nodes.count)
                    for (view, node) in zip(frame, decoded.nodes) {
                        #expect(view.decoded() == node)
                        #expect(view.target == HudInteraction.Target(node))
                    }
                    for position in Position.allCases {
                        #expect(frame.isHidden(position) == decoded.hiddenPositions.contains(position))
                    }
                }
            }
        }
    }

    @Test(arguments: styles)
    func frameHitTestingAgreesWithTheDecodedLayout(style: HudPhoneComplicationsStyle) throws {
        let registry = RendererRegistry.withBuiltins()
        let snapshot = try ComplicationsSnapshot(Self.complications())
        let environment = HudEnvironment(device: .iphone16Pro)
        let interaction = HudInteraction(revealedPosition: .center)
        let decoded = try registry.layout(style: style, snapshot: snapshot, environment: environment, interaction: interaction)
        try registry.withLayout(style: style, snapshot: snapshot, environment: environment, interaction: interaction) { frame in
            for x in stride(from: 0.0, through: environment.screenSize.width, by: 7) {
                for y in stride(from: 0.0, through: environment.screenSize.height, by: 7) {
                    let expected = decoded.hitTest(x: x, y: y).flatMap(HudInteraction.Target.init)
                    #expect(frame.hitTest(x: x, y: y) == expected, "at (\(x), \(y))")
                }
            }
        }
    }

    @Test func repeatedLayoutsThroughTheReusedBufferStayIdentical() throws {
        // Alternating a large and a small layout exercises the incremental
        // zeroing: the small one must not see the large one's leftovers.
        let registry = RendererRegistry.withBuiltins()
        let snapshot = try ComplicationsSnapshot(Self.complications())
        let environment = HudEnvironment(device: .iphone16Pro)
        let open = HudInteraction(revealedPosition: .center)
        let first = try registry.layout(style: .tray, snapshot: snapshot, environment: environment, interaction: .idle)
        let firstOpen = try registry.layout(style: .tray, snapshot: snapshot, environment: environment, interaction: open)
        for _ in 0..<3 {
            #expect(try registry.layout(style: .tray, snapshot: snapshot, environment: environment, interaction: open) == firstOpen)
            #expect(try registry.layout(style: .tray, snapshot: snapshot, environment: environment, interaction: .idle) == first)
        }
    }

    @Test func unknownStyleIsATypedError() throws {
        let registry = RendererRegistry.withBuiltins()
        let snapshot = try ComplicationsSnapshot(Self.complications())
        #expect(throws: RegistryError.self) {
            try registry.withLayout(style: .renderer("org.example.missing"), snapshot: snapshot,
                                    environment: HudEnvironment(device: .iphone16Pro)) { $0.count }
        }
    }
}
