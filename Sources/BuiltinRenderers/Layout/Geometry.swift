// SPDX-License-Identifier: MIT
import HudRendererAPI

/// The built-in styles' metrics, in points, and the rect arithmetic they
/// share. Values are Hudson's (`HudPhoneComplicationsLayout`, `HudSpacing`);
/// see /work/shared/reference/hudson-tokens.md.
enum Geometry {
    // MARK: Slots and chips

    /// A corner slot's diameter (primarySize).
    static let cornerSlotSize = 48.0
    /// The center slot's diameter (centerSize).
    static let centerSlotSize = 64.0
    /// A secondary chip's diameter (secondarySize).
    static let chipSize = 22.0
    /// The gap between a slot and a decoration chip (secondaryOffset).
    static let decorationChipGap = 4.0
    /// A top slot hosted in the navigation bar (toolbarPrimarySize).
    static let toolbarSlotSize = 32.0
    /// Its chip (toolbarSecondarySize).
    static let toolbarChipSize = 18.0
    /// Apple's minimum touch target, both ways.
    static let minimumHitSize = 44.0
    static let slotStrokeWidth = 1.0
    static let chipStrokeWidth = 0.5
    /// The hairline around containers (tray, mode picker card).
    static let containerStrokeWidth = 0.5

    // MARK: Tray

    /// max(liquid bar min height 56, 6 + centerSize 64 + 6).
    static let trayHeight = 76.0
    static let trayCornerRadius = 22.0
    /// The tray's distance from the safe area's left and right edges.
    static let traySideInset = 10.0
    /// The tray's distance above the bottom safe-area edge.
    static let trayBottomGap = 8.0
    /// Slot groups at the tray's ends sit this far in from its sides.
    static let trayContentPadding = 14.0
    /// Toolbar items' side margin in compact width (16) and regular width (20).
    static let compactSideMargin = 16.0
    static let regularSideMargin = 20.0
    /// Screen widths from this one up use the regular side margin.
    static let regularWidthThreshold = 600.0
    /// Used when the host passes an empty navigation bar rect.
    static let defaultNavigationBarHeight = 44.0

    // MARK: Scattered and minimal

    /// Scattered corners' distance in from the safe area's corners (xl).
    static let scatteredCornerInset = 12.0
    /// Scattered center's bottom edge above the bottom safe area (huge).
    static let scatteredCenterLift = 28.0
    /// Minimal's space above and below the center slot (lg).
    static let minimalPadding = 10.0

    // MARK: Mode picker

    /// The card's distance from the slot's vertical middle (modePickerLift).
    static let modePickerLift = 76.0
    /// Between mode items, both ways (modePickerSpacing, sm).
    static let modePickerSpacing = 6.0
    /// Inside the card, around the items (md).
    static let modePickerPadding = 8.0
    /// The card keeps this far from the safe area's left and right edges.
    static let modePickerSideMargin = 16.0
    static let modePickerCornerRadius = 8.0
    static let modeItemCornerRadius = 6.0
    static let modeItemMinimumWidth = 56.0
    static let modeItemMinimumHeight = 44.0
    /// Label font at text scale 1.
    static let modeLabelFontSize = 13.0
    /// Vertical stack inside an item: padding, icon, gap, label, padding.
    static let modeItemVerticalPadding = 6.0
    static let modeIconSize = 20.0
    static let modeIconLabelGap = 4.0
    /// Label line height = ceil(font size × this).
    static let modeLabelLineHeightFactor = 1.2
    /// Estimated glyph advance = font size × this (an average for UI text).
    static let modeLabelAdvanceFactor = 0.55
    /// Horizontal padding added to the label's estimated width.
    static let modeItemHorizontalPadding = 16.0

    // MARK: Shared helpers

    /// The gap between a slot and its chip.
    ///
    /// A decoration chip (no action) sits `decorationChipGap` (4 pt) away.
    /// A control chip has its own 44×44 hit region centered on it, and the
    /// slot has a max(44, slot)-square one centered on the slot; the gap grows
    /// until the two regions are disjoint (they may touch):
    ///
    ///     gap = max(4, max(44, slot)/2 + 44/2 − slot/2 − chip/2)
    ///
    /// 48 slot + 22 chip → 11; 64 + 22 → 11; toolbar 32 + 18 → 19.
    static func chipGap(slotSize: Double, chipSize: Double, chipIsControl: Bool) -> Double {
        guard chipIsControl else { return decorationChipGap }
        let slotHalfHit = max(minimumHitSize, slotSize) / 2
        let chipHalfHit = max(minimumHitSize, chipSize) / 2
        return max(decorationChipGap, slotHalfHit + chipHalfHit - slotSize / 2 - chipSize / 2)
    }

    /// `value` clamped into `lower...upper`; `lower` wins when they cross.
    static func clamp(_ value: Double, _ lower: Double, _ upper: Double) -> Double {
        max(lower, min(value, upper))
    }
}

extension hud_rect_t {
    static let zero = hud_rect_t(x: 0, y: 0, width: 0, height: 0)

    var maxX: Double { x + width }
    var maxY: Double { y + height }
    var midX: Double { x + width / 2 }
    var midY: Double { y + height / 2 }

    var isFinite: Bool { x.isFinite && y.isFinite && width.isFinite && height.isFinite }

    /// A rect of the given size sharing this rect's center.
    func centeredRect(width newWidth: Double, height newHeight: Double) -> hud_rect_t {
        hud_rect_t(x: midX - newWidth / 2, y: midY - newHeight / 2, width: newWidth, height: newHeight)
    }

    /// The rect mirrored about the vertical axis of a screen `screenWidth` wide.
    func mirrored(inWidth screenWidth: Double) -> hud_rect_t {
        hud_rect_t(x: screenWidth - x - width, y: y, width: width, height: height)
    }

    /// This rect moved (and, only if it is larger, shrunk) to lie inside
    /// `bounds`, one axis at a time.
    func clamped(into bounds: hud_rect_t) -> hud_rect_t {
        let newWidth = Geometry.clamp(width, 0, bounds.width)
        let newHeight = Geometry.clamp(height, 0, bounds.height)
        return hud_rect_t(
            x: Geometry.clamp(x, bounds.x, bounds.maxX - newWidth),
            y: Geometry.clamp(y, bounds.y, bounds.maxY - newHeight),
            width: newWidth,
            height: newHeight
        )
    }
}
