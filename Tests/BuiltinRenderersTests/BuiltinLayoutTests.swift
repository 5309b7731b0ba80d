// SPDX-License-Identifier: MIT
import Testing
@testable import HudRegistry
@testable import HudScenes
@testable import HudPresentation
import HudTestSupport

/// The three built-in renderers against the reference geometry, for each
/// style × device × direction × text size, through the registry (the same
/// C ABI path a plugin takes).
struct BuiltinLayoutTests {
    struct Case: Sendable, CustomStringConvertible {
        var style: HudPhoneComplicationsStyle
        var device: DevicePreset
        var direction: HudLayoutDirection
        var textSize: TextSizeCategory
        var description: String { "\(style) \(device.id) \(direction.rawValue) \(textSize.rawValue)" }

        var environment: HudEnvironment {
            HudEnvironment(device: device, layoutDirection: direction, textSize: textSize, navigationTitle: "Home")
        }
    }

    static let devices: [DevicePreset] = [.iphoneSE, .iphone16Pro, .iphone16ProMax]
    static let cases: [Case] = [HudPhoneComplicationsStyle.tray, .scattered, .minimal].flatMap { style in
        devices.flatMap { device in
            HudLayoutDirection.allCases.flatMap { direction in
                [TextSizeCategory.large, .accessibility5].map { Case(style: style, device: device, direction: direction, textSize: $0) }
            }
        }
    }

    static func demo(_ registry: RendererRegistry) throws -> ComplicationsSnapshot {
        try ComplicationsSnapshot(DemoComplications.make(renderers: registry.renderers) { _ in })
    }

    static func layout(_ c: Case, reveal: Position? = nil, direction: HudLayoutDirection? = nil) throws -> HudLayout {
        let registry = RendererRegistry.withBuiltins()
        var environment = c.environment
        if let direction { environment.layoutDirection = direction }
        return try registry.layout(style: c.style, snapshot: demo(registry), environment: environment,
                                   interaction: HudInteraction(revealedPosition: reveal))
    }

    /// In LTR terms: the x a leading-edge frame has in this direction.
    static func leading(_ x: Double, width: Double, in c: Case) -> Double {
        c.direction == .leftToRight ? x : c.device.portraitSize.width - x - width
    }

    // MARK: - Rules every built-in follows

    @Test(arguments: cases)
    func everyInteractiveNodeHasAFullSizeTargetInsideTheSafeArea(_ c: Case) throws {
        for reveal in [nil, Position.center] {
            LayoutRules.expectTouchTargets(try Self.layout(c, reveal: reveal), in: c.environment, context: "\(c) reveal \(String(describing: reveal))")
        }
    }

    @Test(arguments: cases.filter { $0.direction == .rightToLeft })
    func rightToLeftIsTheMirrorOfLeftToRight(_ c: Case) throws {
        for reveal in [nil, Position.center] {
            let rtl = try Self.layout(c, reveal: reveal)
            let ltr = try Self.layout(c, reveal: reveal, direction: .leftToRight)
            let width = c.device.portraitSize.width
            #expect(rtl.nodes.count == ltr.nodes.count)
            for (r, l) in zip(rtl.nodes, ltr.nodes) {
                var mirrored = l
                mirrored.frame = l.frame.mirrored(screenWidth: width)
                mirrored.hit = l.hit.isEmpty ? l.hit : l.hit.mirrored(screenWidth: width)
                #expect(r == mirrored)
            }
            #expect(rtl.contentInsets == ltr.contentInsets)
        }
    }

    @Test(arguments: cases)
    func identicalInputsGiveIdenticalLayouts(_ c: Case) throws {
        #expect(try Self.layout(c, reveal: .center) == Self.layout(c, reveal: .center))
    }

    @Test(arguments: cases)
    func revealedModesFormOnePickerWithOneItemPerMode(_ c: Case) throws {
        let layout = try Self.layout(c, reveal: .center)
        let pickers = layout.nodes.filter { $0.kind == .container && $0.position == .center }
        try #require(pickers.count == 1)
        let picker = pickers[0]
        let items = layout.nodes.filter { $0.kind == .modeItem }
        #expect(items.map(\.modeIndex) == [0, 1, 2])
        #expect(items.map(\.label) == ["Tray", "Scattered", "Minimal"])
        let center = try #require(layout.slot(at: .center))
        for item in items {
            #expect(picker.frame.contains(item.frame))
            #expect(item.isInteractive && item.position == .center && item.part == .mode)
            #expect(abs(item.fontSize - 10 * c.textSize.scale) < 1e-9)
            #expect(item.z > center.z)
        }
        // Its centre 76 pt above the slot's (modePickerLift, centre to
        // centre), or higher when several rows would reach the slot.
        #expect(picker.frame.midY <= center.frame.midY - 76 + 1e-9)
        #expect(picker.frame.maxY <= center.frame.minY)
        if picker.frame.height <= 2 * (76 - 32) { #expect(abs(picker.frame.midY - (center.frame.midY - 76)) < 1e-9) }
        // Nothing is revealed unless asked.
        #expect(try Self.layout(c).nodes.allSatisfy { $0.kind != .modeItem })
    }

    // MARK: - Style geometry

    @Test(arguments: cases.filter { $0.style == .tray })
    func trayPutsTheTopPairInTheNavigationBarAndTheRestInABottomBar(_ c: Case) throws {
        let layout = try Self.layout(c)
        let environment = c.environment
        let width = c.device.portraitSize.width, height = c.device.portraitSize.height
        let safe = c.device.portraitSafeArea
        let bar = environment.navigationBar
        let topLeft = try #require(layout.slot(at: .topLeft))
        let topRight = try #require(layout.slot(at: .topRight))
        for slot in [topLeft, topRight] {
            #expect(slot.placement == .navigationBar)
            #expect(slot.frame.width == 32 && slot.frame.height == 32)
            #expect(slot.frame.midY == bar.midY)
        }
        #expect(topLeft.frame.minX == Self.leading(16, width: 32, in: c))
        #expect(topRight.frame.minX == Self.leading(width - 16 - 32, width: 32, in: c))

        let tray = try #require(layout.nodes.first { $0.kind == .container && $0.position == nil })
        // A capsule at most 560 pt wide, centred (the original's newest tray; was a 22 pt rounded rectangle).
        #expect(tray.material == .regular && tray.placement == .bottomInset && tray.shape == .capsule && tray.cornerRadius == 38)
        let trayWidth = min(560, width - 20)
        #expect(tray.frame == HudRect(x: (width - trayWidth) / 2, y: height - safe.bottom - 8 - 76, width: trayWidth, height: 76))
        #expect(layout.contentInsets == HudInsets(bottom: 84))
        let bottomLeft = try #require(layout.slot(at: .bottomLeft))
        let bottomRight = try #require(layout.slot(at: .bottomRight))
        let center = try #require(layout.slot(at: .center))
        #expect(bottomLeft.frame.minX == Self.leading(tray.frame.minX + 14, width: 48, in: c))
        #expect(bottomRight.frame.minX == Self.leading(tray.frame.maxX - 14 - 48, width: 48, in: c))
        #expect(center.frame.midX == width / 2 && center.frame.width == 64)
        for slot in [bottomLeft, bottomRight, center] {
            #expect(slot.placement == .bottomInset && slot.frame.midY == tray.frame.midY && tray.frame.contains(slot.frame))
        }
        #expect(layout.hiddenPositions.isEmpty)
    }

    @Test(arguments: cases.filter { $0.style == .scattered })
    func scatteredFloatsTheCornersTwelvePointsInsideTheContentAreaAndLiftsTheCenter(_ c: Case) throws {
        let layout = try Self.layout(c)
        let width = c.device.portraitSize.width, height = c.device.portraitSize.height
        let safe = c.device.portraitSafeArea
        // The content area lies below the navigation bar: the top corners
        // sit 12 pt below its bottom edge, not 12 pt below the status bar.
        let top = c.environment.navigationBar.maxY + 12
        #expect(c.environment.navigationBar.maxY == safe.top + 44)
        let expected: [(Position, Double, Double)] = [
            (.topLeft, 12, top), (.topRight, width - 12 - 48, top),
            (.bottomLeft, 12, height - safe.bottom - 12 - 48), (.bottomRight, width - 12 - 48, height - safe.bottom - 12 - 48),
        ]
        for (position, x, y) in expected {
            let slot = try #require(layout.slot(at: position))
            #expect(slot.frame == HudRect(x: Self.leading(x, width: 48, in: c), y: y, width: 48, height: 48), "\(position)")
            #expect(slot.placement == .overlay)
        }
        let center = try #require(layout.slot(at: .center))
        #expect(center.frame == HudRect(x: width / 2 - 32, y: height - safe.bottom - 28 - 64, width: 64, height: 64))
        #expect(layout.contentInsets == .zero)
        #expect(!layout.nodes.contains { $0.kind == .container })
    }

    @Test(arguments: cases.filter { $0.style == .minimal })
    func minimalShowsOnlyTheCenterAndReportsTheRestHidden(_ c: Case) throws {
        let layout = try Self.layout(c)
        let height = c.device.portraitSize.height
        let slots = layout.nodes.filter { $0.kind == .slot }
        #expect(slots.map(\.position) == [.center])
        let center = try #require(slots.first)
        #expect(center.frame.maxY == height - c.device.portraitSafeArea.bottom - 10)
        #expect(center.frame.midX == c.device.portraitSize.width / 2)
        #expect(center.placement == .bottomInset)
        #expect(layout.contentInsets == HudInsets(bottom: 84))
        #expect(layout.hiddenPositions == [.topLeft, .topRight, .bottomLeft, .bottomRight])
    }

    // MARK: - Colors, chips, appearance

    @Test func rolesResolveToThePalettesColors() throws {
        let registry = RendererRegistry.withBuiltins()
        let complications = HudPhoneComplications(
            topLeft: .init(icon: "a") {}, bottomLeft: .init(icon: "b", role: .destructive) {}, center: .init(icon: "c", role: .accent) {})
        let snapshot = try ComplicationsSnapshot(complications)
        for (appearance, scheme, palette) in [(HudPhoneAppShellAppearance.hudson, HudColorScheme.light, HudPalette.stable),
                                              (.system, .light, .stable), (.system, .dark, .stable)] {
            let environment = HudEnvironment(device: .iphone16Pro, colorScheme: scheme, appearance: appearance)
            let layout = try registry.layout(style: .scattered, snapshot: snapshot, environment: environment)
            let standard = try #require(layout.slot(at: .topLeft))
            #expect(standard.fill == palette.surface && standard.iconColor == palette.ink && standard.stroke == palette.hairlineStandard)
            let accent = try #require(layout.slot(at: .center))
            #expect(accent.fill == palette.accent && accent.iconColor == palette.bg && accent.stroke == palette.accent.tintStrong)
            let destructive = try #require(layout.slot(at: .bottomLeft))
            #expect(destructive.fill == palette.statusError && destructive.iconColor == palette.ink && destructive.stroke == palette.statusError.tintStrong)
        }
    }

    @Test(arguments: [HudPhoneComplicationsStyle.tray, .scattered], HudLayoutDirection.allCases)
    func secondaryChipsSitOnTheInnerSide(style: HudPhoneComplicationsStyle, direction: HudLayoutDirection) throws {
        // The corrected sheet (was: the outer side, pushing the slot inward).
        let registry = RendererRegistry.withBuiltins()
        let complications = HudPhoneComplications(
            topLeft: .init(icon: "bell", secondary: .init(icon: "1.circle")) {},
            topRight: .init(icon: "person", secondary: .init(icon: "plus") {}) {},
            bottomLeft: .init(icon: "gear", secondary: .init(icon: "dot")) {},
            bottomRight: .init(icon: "tray", secondary: .init(icon: "plus", label: "Add") {}) {},
            center: .init(icon: "star", secondary: .init(icon: "plus", label: "Add") {}) {})
        let environment = HudEnvironment(device: .iphone16Pro, layoutDirection: direction)
        let layout = try registry.layout(style: style, snapshot: ComplicationsSnapshot(complications), environment: environment)
        #expect(!layout.nodes.contains { $0.kind == .secondary && $0.position == .center }, "the center slot never shows a chip")
        for position in [Position.topLeft, .topRight, .bottomLeft, .bottomRight] {
            let slot = try #require(layout.slot(at: position))
            let chip = layout.nodes.first { $0.kind == .secondary && $0.position == position }
            if style == .tray, position == .bottomLeft || position == .bottomRight {
                #expect(chip == nil, "the tray's bottom slots are drawn without chips")
                continue
            }
            let drawn = try #require(chip)
            let leadingCorner = position == .topLeft || position == .bottomLeft
            let onRight = leadingCorner == (direction == .leftToRight)
            if onRight { #expect(drawn.frame.minX == slot.frame.maxX + 4, "\(position) chip not 4 pt right of its slot") }
            else { #expect(drawn.frame.maxX == slot.frame.minX - 4, "\(position) chip not 4 pt left of its slot") }
            #expect(abs(drawn.frame.midY - slot.frame.midY) < 1e-9)
            #expect(drawn.shape == .circle && drawn.fill == HudPalette.stable.surface && drawn.iconColor == HudPalette.stable.muted)
            // A chip without an action is a badge; with one it is a control.
            let hasAction = position == .topRight || position == .bottomRight
            #expect(drawn.isInteractive == hasAction)
            if hasAction { #expect(!drawn.hit.intersects(slot.hit) && drawn.hit.width == 44 && drawn.hit.contains(drawn.frame)) }
        }
    }

    @Test func pressedStateIsReflectedOnTheNodeOnly() throws {
        let registry = RendererRegistry.withBuiltins()
        let snapshot = try Self.demo(registry)
        let environment = HudEnvironment(device: .iphone16Pro)
        let idle = try registry.layout(style: .tray, snapshot: snapshot, environment: environment)
        let pressed = try registry.layout(style: .tray, snapshot: snapshot, environment: environment,
                                          interaction: HudInteraction(pressed: .slot(.bottomLeft)))
        #expect(pressed.nodes.filter(\.isPressed).map(\.position) == [.bottomLeft])
        #expect(idle.nodes.map(\.frame) == pressed.nodes.map(\.frame))
    }

    @Test func reduceTransparencyMakesTheTraySolid() throws {
        let registry = RendererRegistry.withBuiltins()
        let environment = HudEnvironment(device: .iphone16Pro, accessibility: [.reduceTransparency])
        let layout = try registry.layout(style: .tray, snapshot: Self.demo(registry), environment: environment)
        let tray = try #require(layout.nodes.first { $0.kind == .container })
        #expect(tray.material == .solid && tray.fill.alpha == 255)
    }

    @Test(arguments: DevicePreset.all)
    func everyPresetInLandscapeKeepsTargetsInTheSafeArea(device: DevicePreset) throws {
        let registry = RendererRegistry.withBuiltins()
        let snapshot = try Self.demo(registry)
        let environment = HudEnvironment(device: device, orientation: .landscape)
        for style in [HudPhoneComplicationsStyle.tray, .scattered, .minimal] {
            let layout = try registry.layout(style: style, snapshot: snapshot, environment: environment, interaction: HudInteraction(revealedPosition: .center))
            for node in layout.nodes where node.isInteractive {
                #expect(environment.safeRect.contains(node.hit), "\(style) \(node.kind) \(String(describing: node.position)) hit \(node.hit)")
            }
        }
    }
}
