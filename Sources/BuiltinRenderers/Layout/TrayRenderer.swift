// SPDX-License-Identifier: MIT
import HudRendererAPI

/// `.tray`, the default: the top two slots become navigation-bar items; the
/// bottom three share one capsule bar inset at the bottom of the screen.
///
/// All formulas in the LTR working frame (W × H screen, safe insets T, L, B,
/// R with L the leading side):
/// - top slots: 32 pt (chip 18 on the inner side, 4 pt away), y = bar.y +
///   (bar.height − 32) / 2 where bar is the navigation bar; top-left x = L +
///   margin, top-right right edge = W − R − margin; margin = 16, or 20 when
///   W ≥ 600. Placement NAVIGATION_BAR.
/// - the bar (only when bottom-left, center or bottom-right is published): a
///   capsule (shape CAPSULE, corner_radius = height / 2), width = min(560,
///   max(0, W − L − R − 20)), centred in the safe area (x = L + (W − L − R −
///   width) / 2, so 10 pt from the safe sides until it reaches 560), height
///   = max(56, 6 + tallest slot + 6): 76 with the 64 pt center, else 60;
///   y = H − B − 8 − height; container node, position NONE, REGULAR material
///   (SOLID under reduce transparency / increase contrast), placement
///   BOTTOM_INSET; content_insets.bottom = height + 8.
/// - bottom-left x = bar.x + 14, bottom-right right edge = bar.maxX − 14,
///   both 48 pt; center 64 pt at x = bar.midX − 32; all vertically centred
///   in the bar. An absent end slot keeps its (empty) square. The bottom
///   slots are drawn without their secondary chips, as in the original.
enum TrayRenderer {
    static let supportedPositions: UInt32 = UInt32(HUD_POSITION_ALL_BITS)

    static func layout(into builder: inout LayoutBuilder) {
        let request = builder.request
        let width = request.width
        let safe = request.safeArea

        // The navigation-bar items.
        let margin = width >= Geometry.regularWidthThreshold ? Geometry.regularSideMargin : Geometry.compactSideMargin
        let toolbarSlotY = request.navigationBarY + (request.navigationBarHeight - Geometry.toolbarSlotSize) / 2
        for position in [hud_position_t(HUD_POSITION_TOP_LEFT), hud_position_t(HUD_POSITION_TOP_RIGHT)] {
            guard let slot = request.slots[Int(position)] else { continue }
            let group = SlotGroup(
                position: position, slot: slot,
                slotSize: Geometry.toolbarSlotSize, chipSize: Geometry.toolbarChipSize
            )
            let slotX = group.chipIsOnRight
                ? safe.left + margin
                : width - safe.right - margin - Geometry.toolbarSlotSize
            group.append(
                slotX: slotX, slotY: toolbarSlotY,
                placement: hud_placement_t(HUD_PLACEMENT_NAVIGATION_BAR), to: &builder
            )
        }

        // The bottom bar.
        let bottomLeft = request.slots[Int(HUD_POSITION_BOTTOM_LEFT)]
        let center = request.slots[Int(HUD_POSITION_CENTER)]
        let bottomRight = request.slots[Int(HUD_POSITION_BOTTOM_RIGHT)]
        guard bottomLeft != nil || center != nil || bottomRight != nil else { return }

        let tallest = center != nil ? Geometry.centerSlotSize : Geometry.cornerSlotSize
        let barHeight = max(Geometry.trayMinimumHeight, tallest + 2 * Geometry.trayVerticalPadding)
        let safeWidth = max(0, width - safe.left - safe.right)
        let barWidth = min(Geometry.trayMaximumWidth, max(0, safeWidth - 2 * Geometry.traySideInset))
        let bar = hud_rect_t(
            x: safe.left + (safeWidth - barWidth) / 2,
            y: request.height - safe.bottom - Geometry.trayBottomGap - barHeight,
            width: barWidth,
            height: barHeight
        )
        let colors = request.colors
        let style = colors.tray
        var container = unsafe hud_node_t()
        unsafe container.kind = hud_node_kind_t(HUD_NODE_KIND_CONTAINER)
        unsafe container.position = hud_position_t(HUD_POSITION_NONE)
        unsafe container.part = hud_part_t(HUD_PART_CONTAINER)
        unsafe container.mode_index = -1
        unsafe container.frame = bar
        unsafe container.shape = hud_shape_t(HUD_SHAPE_CAPSULE)
        unsafe container.material = colors.trayMaterial
        // A capsule's ends are fully rounded; the radius is stated for
        // readers that only know rounded rectangles.
        unsafe container.corner_radius = barHeight / 2
        unsafe container.stroke_width = Geometry.containerStrokeWidth
        unsafe container.fill = style.fill
        unsafe container.stroke = style.stroke
        unsafe container.placement = hud_placement_t(HUD_PLACEMENT_BOTTOM_INSET)
        unsafe container.z = LayoutBuilder.Layer.container
        unsafe container.accessibility_label = unsafe LayoutRequest.cString("Complications tray")
        unsafe builder.append(container)
        builder.contentInsets.bottom = barHeight + Geometry.trayBottomGap

        let placement = hud_placement_t(HUD_PLACEMENT_BOTTOM_INSET)
        let cornerY = bar.midY - Geometry.cornerSlotSize / 2
        if let bottomLeft {
            let group = SlotGroup(
                position: hud_position_t(HUD_POSITION_BOTTOM_LEFT), slot: bottomLeft,
                slotSize: Geometry.cornerSlotSize, showsChip: false
            )
            group.append(slotX: bar.x + Geometry.trayHorizontalPadding, slotY: cornerY, placement: placement, to: &builder)
        }
        if let bottomRight {
            let group = SlotGroup(
                position: hud_position_t(HUD_POSITION_BOTTOM_RIGHT), slot: bottomRight,
                slotSize: Geometry.cornerSlotSize, showsChip: false
            )
            group.append(
                slotX: bar.maxX - Geometry.trayHorizontalPadding - Geometry.cornerSlotSize, slotY: cornerY,
                placement: placement, to: &builder
            )
        }
        if let center {
            let group = SlotGroup(
                position: hud_position_t(HUD_POSITION_CENTER), slot: center, slotSize: Geometry.centerSlotSize
            )
            group.append(
                slotX: bar.midX - Geometry.centerSlotSize / 2,
                slotY: bar.midY - Geometry.centerSlotSize / 2,
                placement: placement, to: &builder
            )
        }
    }
}
