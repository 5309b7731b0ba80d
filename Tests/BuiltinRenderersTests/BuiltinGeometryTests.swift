// SPDX-License-Identifier: MIT
import Testing
@testable import HudRegistry
import HudTestSupport

/// The built-in renderers' geometry against the corrected reference sheet
/// (hudson-tokens.md), through the registry
/// (the C ABI path a plugin takes): every style × every device preset ×
/// both orientations × both layout directions × every text size, with and
/// without chips, idle and with each slot's picker revealed.
///
/// Expectations are computed here from the sheet's numbers, not read back
/// from the renderers' own constants.
struct BuiltinGeometryTests {
    static let styles: [HudPhoneComplicationsStyle] = [.tray, .scattered, .minimal]

    struct Case: Sendable, CustomStringConvertible {
        var style: HudPhoneComplicationsStyle
        var device: DevicePreset
        var description: String { "\(style) \(device.id)" }
    }

    static let cases: [Case] = styles.flatMap { style in DevicePreset.all.map { Case(style: style, device: $0) } }

    /// One environment of the matrix.
    struct Variant: CustomStringConvertible {
        var orientation: DevicePreset.Orientation
        var direction: HudLayoutDirection
        var textSize: TextSizeCategory
        var chips: Bool
        var description: String { "\(orientation) \(direction.rawValue) \(textSize.rawValue) chips \(chips)" }
    }

    static let variants: [Variant] = [DevicePreset.Orientation.portrait, .landscape].flatMap { orientation in
        HudLayoutDirection.allCases.flatMap { direction in
            TextSizeCategory.allCases.flatMap { textSize in
                [false, true].map { Variant(orientation: orientation, direction: direction, textSize: textSize, chips: $0) }
            }
        }
    }

    static func modes(_ count: Int) -> [HudPhoneComplications.Mode] {
        ["Tray", "Scattered", "Minimal", "Focus"].prefix(count).map { label in
            .init(id: label.lowercased(), icon: "circle", label: label) {}
        }
    }

    /// All five positions with modes; with chips, every one has a
    /// secondary: controls (with an action) and badges (without) on both
    /// sides, and one on the center, which must not be drawn.
    static func complications(chips: Bool) -> HudPhoneComplications {
        func chip(_ icon: String, control: Bool) -> HudPhoneComplications.Secondary? {
            guard chips else { return nil }
            return control ? .init(icon: icon, label: "Add") {} : .init(icon: icon, label: "3")
        }
        return HudPhoneComplications(
            topLeft: .init(icon: "list.bullet", label: "Logs", secondary: chip("1.circle", control: false), longPressModes: modes(2)) {},
            topRight: .init(icon: "person", label: "Me", secondary: chip("plus", control: true), longPressModes: modes(3)) {},
            bottomLeft: .init(icon: "gearshape", label: "Settings", secondary: chip("minus", control: true), longPressModes: modes(3)) {},
            bottomRight: .init(icon: "tray", label: "Inbox", secondary: chip("dot", control: false), longPressModes: modes(1)) {},
            center: .init(icon: "circle.grid.2x2", role: .accent, label: "Center", secondary: chip("star", control: true),
                          longPressModes: modes(3)) {}
        )
    }

    static func environment(_ device: DevicePreset, _ v: Variant, accessibility: HudEnvironment.AccessibilityOptions = []) -> HudEnvironment {
        HudEnvironment(device: device, orientation: v.orientation, layoutDirection: v.direction, textSize: v.textSize,
                       navigationTitle: "Home", accessibility: accessibility)
    }

    static let corners: [Position] = [.topLeft, .topRight, .bottomLeft, .bottomRight]

    static func isLeading(_ position: Position) -> Bool { position == .topLeft || position == .bottomLeft }

    /// A frame's distance from the physical left edge, read in the LTR
    /// working frame: its own x in LTR, the mirror's in RTL.
    static func working(_ rect: HudRect, _ environment: HudEnvironment) -> HudRect {
        environment.layoutDirection == .leftToRight ? rect : rect.mirrored(screenWidth: environment.screenSize.width)
    }

    static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

    // MARK: - The whole matrix

    @Test(arguments: cases)
    func everyLayoutOfTheMatrixMatchesTheReference(_ c: Case) throws {
        let registry = RendererRegistry.withBuiltins()
        for v in Self.variants {
            let environment = Self.environment(c.device, v)
            let snapshot = try ComplicationsSnapshot(Self.complications(chips: v.chips))
            let idle = try registry.layout(style: c.style, snapshot: snapshot, environment: environment)
            let context = "\(c) \(v)"
            Self.expectHitRegions(idle, environment, context: context)
            Self.expectChips(idle, environment, style: c.style, chips: v.chips, context: context)
            if c.style == .tray { try Self.expectTray(idle, environment, context: context) }

            // The slots stay in their corners whether or not they have chips.
            let plain = try registry.layout(style: c.style, snapshot: ComplicationsSnapshot(Self.complications(chips: false)),
                                            environment: environment)
            for position in Position.allCases {
                #expect(idle.slot(at: position)?.frame == plain.slot(at: position)?.frame, "\(context): \(position) moved for its chip")
            }

            for position in Position.allCases where idle.slot(at: position) != nil {
                let revealed = try registry.layout(style: c.style, snapshot: snapshot, environment: environment,
                                                   interaction: HudInteraction(revealedPosition: position))
                let revealedContext = "\(context) revealed \(position)"
                Self.expectHitRegions(revealed, environment, context: revealedContext)
                try Self.expectPicker(revealed, environment, at: position, context: revealedContext)
                // Revealing changes nothing but adding the picker.
                #expect(Array(revealed.nodes.prefix(idle.nodes.count)) == idle.nodes, "\(revealedContext)")
            }
        }
    }

    // MARK: - Hit regions (item 5)

    /// Every interactive node: exactly max(44, w) × max(44, h), containing
    /// its frame, inside the safe area, labelled. Controls' regions never
    /// overlap, except that a picker's items (painted above everything) may
    /// cover another position's controls; never their own slot or chip.
    static func expectHitRegions(_ layout: HudLayout, _ environment: HudEnvironment, context: String) {
        let interactive = layout.nodes.filter(\.isInteractive)
        for node in layout.nodes {
            let name = "\(context): \(node.kind) \(String(describing: node.position))"
            guard node.isInteractive else {
                #expect(node.hit == .zero, "\(name) is not interactive but has a hit region")
                continue
            }
            #expect(close(node.hit.width, max(44, node.frame.width)) && close(node.hit.height, max(44, node.frame.height)),
                    "\(name) hit \(node.hit) for frame \(node.frame)")
            #expect(node.hit.contains(node.frame), "\(name) hit \(node.hit) does not contain its frame \(node.frame)")
            #expect(environment.safeRect.contains(node.hit), "\(name) hit \(node.hit) leaves the safe area")
            #expect(!(node.accessibilityLabel ?? "").isEmpty, "\(name) has no accessibility label")
        }
        for (i, a) in interactive.enumerated() {
            for b in interactive[(i + 1)...] where a.hit.intersects(b.hit) {
                let pickerCovers = (a.kind == .modeItem) != (b.kind == .modeItem) && a.position != b.position
                    && (a.kind == .modeItem ? a.z > b.z : b.z > a.z)
                #expect(pickerCovers, "\(context): hit regions overlap: \(a.kind) \(String(describing: a.position)) \(a.hit) and \(b.kind) \(String(describing: b.position)) \(b.hit)")
            }
        }
    }

    // MARK: - Chips (item 1)

    /// A corner chip sits on the slot's inner side, vertically centred, 4 pt
    /// away; none on the center slot, none on the tray's bottom slots, none
    /// in minimal; toolbar chips are 18 pt, the others 22.
    static func expectChips(_ layout: HudLayout, _ environment: HudEnvironment, style: HudPhoneComplicationsStyle,
                            chips: Bool, context: String) {
        #expect(!layout.nodes.contains { $0.kind == .secondary && $0.position == .center }, "\(context): a chip on the center slot")
        for position in corners {
            let chip = layout.nodes.first { $0.kind == .secondary && $0.position == position }
            let drawn = chips && style != .minimal && !(style == .tray && (position == .bottomLeft || position == .bottomRight))
            guard drawn else {
                #expect(chip == nil, "\(context): \(position) has a chip it must not draw")
                continue
            }
            guard let chip, let slot = layout.slot(at: position) else {
                Issue.record("\(context): \(position)'s chip is missing")
                continue
            }
            let size = style == .tray ? 18.0 : 22.0
            #expect(chip.frame.width == size && chip.frame.height == size && chip.shape == .circle, "\(context): \(position) chip \(chip.frame)")
            #expect(close(chip.frame.midY, slot.frame.midY), "\(context): \(position) chip not vertically centred")
            let chipW = working(chip.frame, environment), slotW = working(slot.frame, environment)
            // The inner side: right of a leading slot, left of a trailing one (in the working frame).
            let gap = isLeading(position) ? chipW.minX - slotW.maxX : slotW.minX - chipW.maxX
            #expect(close(gap, 4), "\(context): \(position) chip \(chip.frame) is \(gap) pt from its slot \(slot.frame) on the inner side")
            #expect(chip.placement == slot.placement)
            let hasAction = position == .topRight || position == .bottomLeft
            #expect(chip.isInteractive == hasAction, "\(context): \(position) chip interactivity")
            if hasAction {
                #expect(!chip.hit.intersects(slot.hit), "\(context): \(position) chip and slot hit regions overlap")
                // The chip's region extends away from the slot, toward the screen's centre.
                let hitW = working(chip.hit, environment)
                if isLeading(position) { #expect(hitW.minX >= slotW.maxX && hitW.maxX > chipW.maxX) }
                else { #expect(hitW.maxX <= slotW.minX && hitW.minX < chipW.minX) }
            }
        }
    }

    // MARK: - Tray (item 3)

    static func expectTray(_ layout: HudLayout, _ environment: HudEnvironment, context: String) throws {
        let safe = environment.safeRect
        let tray = try #require(layout.nodes.first { $0.kind == .container && $0.position == nil }, "\(context)")
        let width = min(560, safe.width - 20)
        #expect(tray.shape == .capsule && tray.cornerRadius == tray.frame.height / 2, "\(context)")
        #expect(close(tray.frame.width, width) && tray.frame.width <= 560, "\(context): tray \(tray.frame)")
        #expect(close(tray.frame.midX, safe.midX), "\(context): tray not centred")
        #expect(tray.frame.minX >= safe.minX + 10 - 1e-9 && tray.frame.maxX <= safe.maxX - 10 + 1e-9)
        #expect(tray.frame.height == 76 && close(tray.frame.maxY, safe.maxY - 8), "\(context): tray \(tray.frame)")
        #expect(layout.contentInsets == HudInsets(bottom: 84))
        #expect(tray.material == .regular && tray.strokeWidth == 0.5 && tray.placement == .bottomInset)
        let center = try #require(layout.slot(at: .center))
        #expect(close(center.frame.midX, tray.frame.midX) && close(center.frame.midY, tray.frame.midY) && center.frame.width == 64)
        for position in [Position.bottomLeft, .bottomRight] {
            let slot = try #require(layout.slot(at: position))
            let w = working(slot.frame, environment), bar = working(tray.frame, environment)
            let x = position == .bottomLeft ? bar.minX + 14 : bar.maxX - 14 - 48
            #expect(close(w.minX, x) && close(slot.frame.midY, tray.frame.midY) && slot.frame.width == 48, "\(context): \(position) \(slot.frame)")
        }
    }

    // MARK: - Mode picker (items 4 and 9)

    static func expectPicker(_ layout: HudLayout, _ environment: HudEnvironment, at position: Position, context: String) throws {
        let slot = try #require(layout.slot(at: position))
        let card = try #require(layout.nodes.first { $0.kind == .container && $0.position == position }, "\(context)")
        let items = layout.nodes.filter { $0.kind == .modeItem }
        let safe = environment.safeRect
        let scale = environment.textScale
        #expect(card.shape == .roundedRectangle && card.cornerRadius == 8 && card.strokeWidth == 0.5, "\(context)")
        #expect(card.stroke == HudPalette.stable.hairlineStandard && card.material == .regular, "\(context)")
        #expect(card.fill.red == 0x17 && card.fill.green == 0x17 && card.fill.blue == 0x17 && card.fill.alpha < 255, "\(context): card fill \(card.fill)")
        #expect(items.map(\.modeIndex) == Array(0..<items.count).map { Optional($0) })

        // Inside the card: 6 pt padding, 6 pt apart, one-line labels at 10 pt × text scale.
        let line = (10 * scale * 1.2).rounded(.up)
        let natural = 6 + 14 + 2 + line + 6
        for item in items {
            #expect(card.frame.contains(item.frame), "\(context): item \(item.frame) outside its card \(card.frame)")
            #expect(close(item.fontSize, 10 * scale))
            #expect(item.frame.width >= 38 && item.frame.width <= card.frame.width - 12 + 1e-9, "\(context): item \(item.frame)")
            #expect(close(item.frame.height, natural) || close(item.frame.height, min(natural, 44)), "\(context): item height \(item.frame.height), one line is \(natural)")
        }
        let minX = items.map(\.frame.minX).min() ?? 0, minY = items.map(\.frame.minY).min() ?? 0
        let maxX = items.map(\.frame.maxX).max() ?? 0, maxY = items.map(\.frame.maxY).max() ?? 0
        #expect(close(minX - card.frame.minX, 6) && close(card.frame.maxX - maxX, 6), "\(context): card padding")
        #expect(close(minY - card.frame.minY, 6) && close(card.frame.maxY - maxY, 6), "\(context): card padding")

        // On screen: 16 pt inside the safe sides, below the navigation bar, above the bottom safe edge.
        let topLimit = max(safe.minY, environment.navigationBar.maxY)
        #expect(card.frame.minX >= safe.minX + 16 - 1e-9 && card.frame.maxX <= safe.maxX - 16 + 1e-9, "\(context): card \(card.frame)")
        #expect(card.frame.minY >= topLimit - 1e-9 && card.frame.maxY <= safe.maxY + 1e-9, "\(context): card \(card.frame)")

        // Its centre 76 pt from the slot's: below a top slot, above the others;
        // a taller card (several rows) is pushed just clear of the slot's hit region.
        let below = position == .topLeft || position == .topRight
        let centerY = below ? slot.frame.midY + 76 : slot.frame.midY - 76
        let h = card.frame.height
        let preferred = below ? max(centerY - h / 2, slot.hit.maxY) : min(centerY - h / 2, slot.hit.minY - h)
        let fits = below ? preferred + h <= safe.maxY : preferred >= topLimit
        if fits {
            #expect(close(card.frame.minY, preferred), "\(context): card \(card.frame) should start at y \(preferred)")
            if below ? centerY - h / 2 >= slot.hit.maxY : centerY + h / 2 <= slot.hit.minY {
                #expect(close(card.frame.midY, centerY), "\(context): card centre \(card.frame.midY), slot centre \(slot.frame.midY)")
            }
            #expect(!card.frame.intersects(slot.hit), "\(context): the card covers its slot")
        }
        // Centred on the slot unless the safe sides push it.
        let clampedX = min(max(slot.frame.midX - card.frame.width / 2, safe.minX + 16), safe.maxX - 16 - card.frame.width)
        #expect(close(card.frame.minX, clampedX), "\(context): card \(card.frame) not centred on its slot \(slot.frame)")
    }

    // MARK: - Focused cases

    @Test(arguments: DevicePreset.all)
    func thePickersCentreIsSeventySixPointsFromTheSlotsAtStandardTextSizes(device: DevicePreset) throws {
        let registry = RendererRegistry.withBuiltins()
        let snapshot = try ComplicationsSnapshot(Self.complications(chips: true))
        let environment = HudEnvironment(device: device, navigationTitle: "Home")
        for style in Self.styles {
            for position in Position.allCases {
                let layout = try registry.layout(style: style, snapshot: snapshot, environment: environment,
                                                 interaction: HudInteraction(revealedPosition: position))
                guard let slot = layout.slot(at: position) else { continue }
                let card = try #require(layout.nodes.first { $0.kind == .container && $0.position == position })
                let expected = position == .topLeft || position == .topRight ? slot.frame.midY + 76 : slot.frame.midY - 76
                #expect(Self.close(card.frame.midY, expected), "\(style) \(position): card centre \(card.frame.midY), expected \(expected)")
                // One row of items 40 pt tall (6 + 14 + 2 + 12 + 6) in 6 pt of padding.
                #expect(card.frame.height == 52, "\(style) \(position): card \(card.frame)")
            }
        }
    }

    @Test func theTrayIsCappedAt560PointsAndCentredInWideLandscape() throws {
        let registry = RendererRegistry.withBuiltins()
        let snapshot = try ComplicationsSnapshot(Self.complications(chips: false))
        for device in DevicePreset.all {
            let environment = HudEnvironment(device: device, orientation: .landscape)
            let layout = try registry.layout(style: .tray, snapshot: snapshot, environment: environment)
            let tray = try #require(layout.nodes.first { $0.kind == .container })
            let safe = environment.safeRect
            #expect(safe.width - 20 > 560, "\(device.id): landscape is wide enough to cap the tray")
            #expect(tray.frame.width == 560 && Self.close(tray.frame.midX, safe.midX), "\(device.id): \(tray.frame)")
        }
    }

    @Test func anAbsentBottomCornerKeepsItsSquareAndTheTrayWithoutTheCenterIsSixtyHigh() throws {
        let registry = RendererRegistry.withBuiltins()
        let environment = HudEnvironment(device: .iphone16Pro)
        let all = try registry.layout(style: .tray, snapshot: ComplicationsSnapshot(Self.complications(chips: false)),
                                      environment: environment)
        var partial = Self.complications(chips: false)
        partial.bottomLeft = nil
        let without = try registry.layout(style: .tray, snapshot: ComplicationsSnapshot(partial), environment: environment)
        #expect(without.slot(at: .bottomLeft) == nil)
        #expect(without.slot(at: .center)?.frame == all.slot(at: .center)?.frame)
        #expect(without.slot(at: .bottomRight)?.frame == all.slot(at: .bottomRight)?.frame)

        // Corners only: 6 + 48 + 6 = 60 (above the 56 pt minimum), and the inset follows.
        var corners = Self.complications(chips: false)
        corners.center = nil
        let low = try registry.layout(style: .tray, snapshot: ComplicationsSnapshot(corners), environment: environment)
        let tray = try #require(low.nodes.first { $0.kind == .container })
        #expect(tray.frame.height == 60 && tray.cornerRadius == 30 && low.contentInsets == HudInsets(bottom: 68))
        #expect(low.slot(at: .bottomLeft).map { Self.close($0.frame.midY, tray.frame.midY) } == true)
    }

    @Test(arguments: [HudEnvironment.AccessibilityOptions.reduceTransparency, .increaseContrast])
    func solidContainersUnderReduceTransparency(_ option: HudEnvironment.AccessibilityOptions) throws {
        let registry = RendererRegistry.withBuiltins()
        let snapshot = try ComplicationsSnapshot(Self.complications(chips: false))
        let environment = HudEnvironment(device: .iphone16Pro, accessibility: option)
        let layout = try registry.layout(style: .tray, snapshot: snapshot, environment: environment,
                                         interaction: HudInteraction(revealedPosition: .center))
        let palette = HudPalette.stable
        let tray = try #require(layout.nodes.first { $0.kind == .container && $0.position == nil })
        #expect(tray.material == .solid && tray.fill == HudColor(hex: 0x171717) && tray.stroke == palette.hairlineStandard)
        let card = try #require(layout.nodes.first { $0.kind == .container && $0.position == .center })
        #expect(card.material == .solid && card.fill == palette.surface && card.stroke == palette.hairlineStandard)

        // Without the option: regular material, the tray edged by a white highlight.
        let glassy = try registry.layout(style: .tray, snapshot: snapshot, environment: HudEnvironment(device: .iphone16Pro))
        let regular = try #require(glassy.nodes.first { $0.kind == .container })
        #expect(regular.material == .regular && regular.stroke.red == 255 && regular.stroke.green == 255 && regular.stroke.blue == 255)
        #expect(regular.stroke.alpha > 0 && regular.stroke.alpha < 64 && regular.fill.alpha < 255)
    }

    @Test func toolbarChipsHaveFullTargetsFourPointsFromTheirSlots() throws {
        // 32 pt slot, 18 pt chip 4 pt away: the centred regions would
        // overlap by 20 pt, so the strip is split at the gap's middle.
        let registry = RendererRegistry.withBuiltins()
        let environment = HudEnvironment(device: .iphone16Pro)
        let layout = try registry.layout(style: .tray, snapshot: ComplicationsSnapshot(Self.complications(chips: true)),
                                         environment: environment)
        let slot = try #require(layout.slot(at: .topRight))
        let chip = try #require(layout.nodes.first { $0.kind == .secondary && $0.position == .topRight })
        #expect(slot.frame == HudRect(x: 402 - 16 - 32, y: slot.frame.minY, width: 32, height: 32))
        #expect(chip.frame.maxX == slot.frame.minX - 4)
        #expect(slot.hit.minX == slot.frame.minX - 2 && slot.hit.width == 44)
        #expect(chip.hit.maxX == slot.frame.minX - 2 && chip.hit.width == 44)
    }

    @Test(arguments: TextSizeCategory.allCases)
    func pickerLabelsStayOnOneLineAndTruncateOnlyPastARow(_ textSize: TextSizeCategory) throws {
        // Item 9: one line at every size; an item is as wide as its label's
        // estimate (scalars × size × 0.55 + 16) until it reaches the card's
        // row width, where the label truncates.
        let registry = RendererRegistry.withBuiltins()
        let long = String(repeating: "Long label ", count: 6)
        let complications = HudPhoneComplications(
            center: .init(icon: "star", longPressModes: [.init(id: "a", icon: "circle", label: "Go") {},
                                                         .init(id: "b", icon: "circle", label: long) {}]) {})
        let environment = HudEnvironment(device: .iphoneSE, textSize: textSize)
        let layout = try registry.layout(style: .minimal, snapshot: ComplicationsSnapshot(complications), environment: environment,
                                         interaction: HudInteraction(revealedPosition: .center))
        let items = layout.nodes.filter { $0.kind == .modeItem }
        try #require(items.count == 2)
        let size = 10 * textSize.scale
        let row = environment.safeRect.width - 2 * 16 - 2 * 6
        let line = (size * 1.2).rounded(.up)
        #expect(items.allSatisfy { Self.close($0.frame.height, 6 + 14 + 2 + line + 6) }, "one line of text")
        #expect(Self.close(items[0].frame.width, max(38, 2 * size * 0.55 + 16)))
        #expect(Self.close(items[1].frame.width, min(row, Double(long.count) * size * 0.55 + 16)))
        #expect(items[1].label == long && items[1].accessibilityLabel == long)
    }
}
