// SPDX-License-Identifier: MIT
import BuiltinRenderers
/// The control deck's own geometry and nodes, drawn by the shell, never by
/// a renderer (the reference sheet, "The control deck"):
///
/// - resting: one 56 pt accent pivot, bottom centre of the safe area, 8 pt
///   above its bottom edge, in a 64 pt bottom lane (56 + 8);
/// - expanded: a top lane of 60 pt (48 + 2 × 6) under the navigation bar
///   holding the top-left slot · the 40 pt close button (centred) · the
///   top-right slot, at the standard 48 pt slot size, 12 pt in from the
///   safe edges (leading/trailing: mirrored in right-to-left), each with its
///   22 pt chip on the inner side 4 pt away; and a full-screen clear
///   backdrop under everything else.
///
/// Every interactive node's hit region is at least 44 × 44 pt: slots keep
/// their 48 pt frame, the close button grows to 44 pt around its centre, a
/// control chip's region extends away from its slot (it starts at the
/// chip's inner edge), so the lane's regions never overlap on any preset.
enum DeckChrome {
    static let pivotSize = 56.0
    /// The pivot's gap above the bottom safe-area edge.
    static let pivotGap = 8.0
    /// The resting deck's bottom lane (`pivotSize + pivotGap`).
    static let bottomLane = pivotSize + pivotGap
    static let slotSize = 48.0
    /// The top lane's vertical padding around its slots.
    static let lanePadding = 6.0
    /// The expanded deck's top lane (`slotSize + 2 × lanePadding`).
    static let topLane = slotSize + 2 * lanePadding
    static let closeSize = 40.0
    /// The top lane's slots' distance from the leading/trailing safe edges.
    static let sideInset = 12.0
    static let chipSize = 22.0
    static let chipGap = 4.0
    static let minimumHit = 44.0
    static let pivotGlyph = 22.0
    static let slotGlyph = 16.0
    static let closeGlyph = 16.0
    static let chipGlyph = 11.0

    /// The top of the top lane: the navigation bar's bottom edge (the safe
    /// area's top without a bar).
    static func topLaneMinY(_ environment: HudEnvironment) -> Double {
        let bar = environment.navigationBar
        return bar.isEmpty ? environment.safeRect.minY : max(environment.safeRect.minY, bar.maxY)
    }

    /// The resting deck's only node.
    static func pivot(_ environment: HudEnvironment, pressed: Bool, z: Int) -> HudNode {
        let palette = environment.complicationPalette
        let safe = environment.safeRect
        let frame = HudRect(x: safe.midX - pivotSize / 2, y: safe.maxY - pivotGap - pivotSize, width: pivotSize, height: pivotSize)
        return control(.pivot, frame: frame, hit: frame, fill: palette.accent, stroke: palette.accent.tintStrong, icon: palette.bg,
                       glyph: pivotGlyph, placement: .bottomInset, pressed: pressed, z: z)
    }

    /// The expanded deck's close button, centred in the top lane.
    static func close(_ environment: HudEnvironment, pressed: Bool, z: Int) -> HudNode {
        let palette = environment.complicationPalette
        let midY = topLaneMinY(environment) + topLane / 2
        let midX = environment.safeRect.midX
        let frame = HudRect(x: midX - closeSize / 2, y: midY - closeSize / 2, width: closeSize, height: closeSize)
        let hit = HudRect(x: midX - minimumHit / 2, y: midY - minimumHit / 2, width: minimumHit, height: minimumHit)
        return control(.close, frame: frame, hit: hit, fill: palette.surface, stroke: palette.hairlineStandard, icon: palette.ink,
                       glyph: closeGlyph, placement: .overlay, pressed: pressed, z: z)
    }

    /// The full-screen clear layer under the lanes and the style's nodes.
    static func backdrop(_ environment: HudEnvironment, pressed: Bool, z: Int) -> HudNode {
        let clear = HudColor(rgba: 0)
        return HudNode(kind: .container, position: nil, part: .container, modeIndex: nil, frame: environment.screen, hit: environment.screen,
                       shape: .rectangle, material: .none, cornerRadius: 0, strokeWidth: 0, fontSize: 0, fill: clear, stroke: clear,
                       iconColor: clear, textColor: clear, placement: .overlay, z: z, isPressed: pressed, isInteractive: true,
                       icon: nil, label: nil, accessibilityLabel: HudDeckControl.backdrop.accessibilityLabel, deckControl: .backdrop)
    }

    /// The top lane's slot at `position` (topLeft or topRight) and its chip.
    static func laneSlot(_ slot: HudPhoneComplications.Slot, at position: Position, _ environment: HudEnvironment,
                         pressed: HudInteraction.Target?, z: Int) -> [HudNode] {
        let palette = environment.complicationPalette
        let safe = environment.safeRect
        let rtl = environment.layoutDirection == .rightToLeft
        // Leading is topLeft; in right-to-left the leading side is the right.
        let onLeft = (position == .topLeft) != rtl
        let y = topLaneMinY(environment) + lanePadding
        let x = onLeft ? safe.minX + sideInset : safe.maxX - sideInset - slotSize
        let frame = HudRect(x: x, y: y, width: slotSize, height: slotSize)
        let (fill, stroke, icon) = roleColors(slot.role, palette)
        var nodes = [HudNode(
            kind: .slot, position: position, part: .slot, modeIndex: nil, frame: frame, hit: frame, shape: .circle, material: .solid,
            cornerRadius: slotSize / 2, strokeWidth: 1, fontSize: 0, fill: fill, stroke: stroke, iconColor: icon, textColor: palette.ink,
            placement: .overlay, z: z, isPressed: pressed == .slot(position), isInteractive: true, icon: slot.icon, label: slot.label,
            accessibilityLabel: spokenLabel(slot.label, icon: slot.icon), glyphSize: slotGlyph,
            accessibilityActions: Array((slot.longPressModes ?? []).indices), isHostDrawn: true)]
        if let chip = slot.secondary {
            // On the inner side, vertically centred, 4 pt from the slot.
            let chipX = onLeft ? frame.maxX + chipGap : frame.minX - chipGap - chipSize
            let chipFrame = HudRect(x: chipX, y: frame.midY - chipSize / 2, width: chipSize, height: chipSize)
            let interactive = chip.action != nil
            // The hit region starts at the chip's inner edge and extends away from the slot.
            let hitX = onLeft ? chipFrame.minX : chipFrame.maxX - minimumHit
            let hit = interactive ? HudRect(x: hitX, y: frame.midY - minimumHit / 2, width: minimumHit, height: minimumHit) : .zero
            nodes.append(HudNode(
                kind: .secondary, position: position, part: .secondary, modeIndex: nil, frame: chipFrame, hit: hit, shape: .circle,
                material: .solid, cornerRadius: chipSize / 2, strokeWidth: 0.5, fontSize: 0, fill: palette.surface, stroke: palette.hairlineSubtle,
                iconColor: palette.muted, textColor: palette.ink, placement: .overlay, z: z, isPressed: pressed == .secondary(position),
                isInteractive: interactive, icon: chip.icon, label: chip.label, accessibilityLabel: spokenLabel(chip.label, icon: chip.icon),
                glyphSize: chipGlyph, isHostDrawn: true))
        }
        return nodes
    }

    // MARK: - The top lane's mode picker

    /// The card's centre lies this far below a top-lane slot's centre.
    static let pickerLift = 76.0
    static let pickerPadding = 6.0
    static let pickerSpacing = 6.0
    static let pickerRadius = 8.0
    static let modeGlyph = 14.0
    static let modeLabelSize = 10.0
    static let modeIconLabelGap = 2.0
    static let modeHorizontalPadding = 8.0
    static let modeVerticalPadding = 6.0
    /// Label width estimate: characters × font size × this.
    static let labelAdvance = 0.55
    /// The card keeps this far from the safe area's sides.
    static let pickerMargin = 8.0

    /// The revealed top-lane slot's picker (the reference sheet's
    /// long-press modes, drawn by the shell because the style never sees
    /// the top positions while the deck is expanded): a card whose centre is
    /// 76 pt below the slot's centre, one item per mode (icon over label),
    /// each at least 44 × 44 pt, side by side, kept inside the safe area.
    /// Labels share the width when the row does not fit (cut by presenters).
    static func lanePicker(_ slot: HudPhoneComplications.Slot, at position: Position, slotFrame: HudRect, _ environment: HudEnvironment,
                           pressed: HudInteraction.Target?, z: Int) -> [HudNode] {
        guard let modes = slot.longPressModes, !modes.isEmpty else { return [] }
        let palette = environment.complicationPalette
        let safe = environment.safeRect
        let fontSize = modeLabelSize * environment.textScale
        let itemHeight = max(minimumHit, 2 * modeVerticalPadding + modeGlyph + modeIconLabelGap + (fontSize * 1.2).rounded(.up))
        let room = max(0, safe.width - 2 * pickerMargin - 2 * pickerPadding - pickerSpacing * Double(modes.count - 1))
        var widths = modes.map { max(minimumHit, Double($0.label.count) * fontSize * labelAdvance + 2 * modeHorizontalPadding) }
        let natural = widths.reduce(0, +)
        if natural > room {
            // Too wide: equal shares, never below the 44 pt target.
            widths = Array(repeating: max(minimumHit, room / Double(modes.count)), count: modes.count)
        }
        let cardWidth = widths.reduce(0, +) + pickerSpacing * Double(modes.count - 1) + 2 * pickerPadding
        let cardHeight = itemHeight + 2 * pickerPadding
        let low = safe.minX + pickerMargin, high = safe.maxX - pickerMargin - cardWidth
        let cardX = high >= low ? min(max(slotFrame.midX - cardWidth / 2, low), high) : safe.minX
        let card = HudRect(x: cardX, y: slotFrame.midY + pickerLift - cardHeight / 2, width: cardWidth, height: cardHeight)
        let solid = environment.accessibility.contains(.reduceTransparency)
        let clear = HudColor(rgba: 0)
        var nodes = [HudNode(
            kind: .container, position: position, part: .container, modeIndex: nil, frame: card, hit: .zero, shape: .roundedRectangle,
            material: solid ? .solid : .regular, cornerRadius: pickerRadius, strokeWidth: 0.5,
            fontSize: 0, fill: solid ? palette.surface : palette.surface.opacity(0.88), stroke: palette.hairlineStandard,
            iconColor: clear, textColor: clear, placement: .overlay, z: z, isPressed: false, isInteractive: false,
            icon: nil, label: nil, accessibilityLabel: nil, isHostDrawn: true)]
        // Leading to trailing: mode 0 first in reading order (mirrored in RTL).
        let rtl = environment.layoutDirection == .rightToLeft
        var x = rtl ? card.maxX - pickerPadding : card.minX + pickerPadding
        for (index, mode) in modes.enumerated() {
            let width = widths[index]
            let frame = HudRect(x: rtl ? x - width : x, y: card.minY + pickerPadding, width: width, height: itemHeight)
            x += rtl ? -(width + pickerSpacing) : width + pickerSpacing
            nodes.append(HudNode(
                kind: .modeItem, position: position, part: .mode, modeIndex: index, frame: frame, hit: frame, shape: .roundedRectangle,
                material: .none, cornerRadius: pickerRadius - pickerPadding / 2, strokeWidth: 0, fontSize: fontSize, fill: clear, stroke: clear,
                iconColor: palette.ink, textColor: palette.ink, placement: .overlay, z: z, isPressed: pressed == .mode(position, index: index),
                isInteractive: true, icon: mode.icon, label: mode.label, accessibilityLabel: spokenLabel(mode.label, icon: mode.icon),
                glyphSize: modeGlyph, isHostDrawn: true, isSelected: mode.isCurrent))
        }
        return nodes
    }

    private static func roleColors(_ role: HudPhoneComplications.Role, _ palette: HudPalette) -> (HudColor, HudColor, HudColor) {
        switch role {
        case .standard: (palette.surface, palette.hairlineStandard, palette.ink)
        case .accent: (palette.accent, palette.accent.tintStrong, palette.bg)
        case .destructive: (palette.statusError, palette.statusError.tintStrong, palette.ink)
        }
    }

    private static func control(_ control: HudDeckControl, frame: HudRect, hit: HudRect, fill: HudColor, stroke: HudColor, icon: HudColor,
                                glyph: Double, placement: HudNode.Placement, pressed: Bool, z: Int) -> HudNode {
        HudNode(kind: .slot, position: nil, part: .slot, modeIndex: nil, frame: frame, hit: hit, shape: .circle, material: .solid,
                cornerRadius: frame.width / 2, strokeWidth: 1, fontSize: 0, fill: fill, stroke: stroke, iconColor: icon, textColor: icon,
                placement: placement, z: z, isPressed: pressed, isInteractive: true, icon: control.icon, label: nil,
                accessibilityLabel: control.accessibilityLabel, glyphSize: glyph, deckControl: control)
    }

    /// What a screen reader says for a control the shell draws: its label
    /// when it has a non-empty one, else the icon's spoken name ("List" for
    /// `list.bullet`), the same words the built-in renderers use.
    static func spokenLabel(_ label: String?, icon: String) -> String {
        if let label, !label.isEmpty { return label }
        return SpokenSymbolName.words(for: icon) ?? icon
    }
}
