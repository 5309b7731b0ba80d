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
    /// The visual gap between a slot and its chip, badge or control alike
    /// (secondaryOffset). Hit regions do not widen it: a control chip's
    /// region grows away from its slot instead (`LayoutBuilder`).
    static let chipGap = 4.0
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

    /// The liquid bar's minimum height; with the 64 pt center it is
    /// 6 + 64 + 6 = 76 (trayHeight).
    static let trayMinimumHeight = 56.0
    /// The bar's padding around its slots: horizontal (xxl) and vertical (sm).
    static let trayHorizontalPadding = 14.0
    static let trayVerticalPadding = 6.0
    /// The bar never grows wider than this; it is centred in the safe area.
    static let trayMaximumWidth = 560.0
    /// The tray's distance from the safe area's left and right edges.
    static let traySideInset = 10.0
    /// The tray's distance above the bottom safe-area edge.
    static let trayBottomGap = 8.0
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

    /// From the slot's centre to the card's centre (modePickerLift).
    static let modePickerLift = 76.0
    /// Between mode items, both ways (modePickerSpacing, sm).
    static let modePickerSpacing = 6.0
    /// Inside the card, around the items (sm).
    static let modePickerPadding = 6.0
    /// The card keeps this far from the safe area's left and right edges.
    static let modePickerSideMargin = 16.0
    /// The card's corner radius (radius.card).
    static let modePickerCornerRadius = 8.0
    static let modeItemCornerRadius = 6.0
    /// The narrowest item: two neighbours' 44 pt hit regions, centred on
    /// items `modePickerSpacing` apart, meet without overlapping when both
    /// are at least 44 − 6 = 38 wide.
    static let modeItemMinimumWidth = minimumHitSize - modePickerSpacing
    /// The shortest item when the screen leaves no room for the natural one.
    static let modeItemMinimumHeight = 44.0
    /// Label font at text scale 1 (medium weight).
    static let modeLabelFontSize = 10.0
    /// Vertical stack inside an item: padding, icon, gap, label, padding.
    static let modeItemVerticalPadding = 6.0
    static let modeIconSize = 14.0
    static let modeIconLabelGap = 2.0
    /// Label line height = ceil(font size × this).
    static let modeLabelLineHeightFactor = 1.2
    /// Estimated glyph advance = font size × this (an average for UI text).
    static let modeLabelAdvanceFactor = 0.55
    /// Padding on each side of the label (the item's horizontal padding).
    static let modeItemHorizontalPadding = 8.0

    // MARK: Shared helpers

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
