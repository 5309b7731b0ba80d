// SPDX-License-Identifier: MIT
import HudRendererAPI

/// `.tray`, the default: the top two slots become navigation-bar items; the
/// bottom three share one glass bar inset at the bottom of the screen.
///
/// All formulas in the LTR working frame (W × H screen, safe insets T, L, B,
/// R with L the leading side):
/// - top slots: 32 pt (chip 18), y = bar.y + (bar.height − 32) / 2 where bar
///   is the navigation bar; the group (slot + chip) starts `margin` from the
///   safe side: top-left group x = L + margin, top-right group right edge =
///   W − R − margin; margin = 16, or 20 when W ≥ 600. Placement
///   NAVIGATION_BAR.
/// - the bar (only when bottom-left, center or bottom-right is published):
///   x = L + 10, width = max(0, W − L − R − 20), height 76,
///   y = H − B − 8 − 76; container node, position NONE, GLASS (SOLID under
///   reduce transparency / increase contrast), radius 22, placement
///   BOTTOM_INSET; content_insets.bottom = 84.
/// - bottom-left group x = bar.x + 14, bottom-right group right edge =
///   bar.maxX − 14, both 48 pt slots at y = bar.y + 14; center slot 64 pt at
///   x = bar.midX − 32, y = bar.y + 6. An absent end slot keeps its space.
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
            let groupX = group.chipIsOnLeft ? safe.left + margin : width - safe.right - margin - group.width
            group.append(
                slotX: group.slotX(groupX: groupX), slotY: toolbarSlotY,
                placement: hud_placement_t(HUD_PLACEMENT_NAVIGATION_BAR), to: &builder
            )
        }

        // The bottom bar.
        let bottomLeft = request.slots[Int(HUD_POSITION_BOTTOM_LEFT)]
        let center = request.slots[Int(HUD_POSITION_CENTER)]
        let bottomRight = request.slots[Int(HUD_POSITION_BOTTOM_RIGHT)]
        guard bottomLeft != nil || center != nil || bottomRight != nil else { return }

        let bar = hud_rect_t(
            x: safe.left + Geometry.traySideInset,
            y: request.height - safe.bottom - Geometry.trayBottomGap - Geometry.trayHeight,
            width: max(0, width - safe.left - safe.right - 2 * Geometry.traySideInset),
            height: Geometry.trayHeight
        )
        let colors = request.colors
        let style = colors.tray
        var container = hud_node_t()
        container.kind = hud_node_kind_t(HUD_NODE_KIND_CONTAINER)
        container.position = hud_position_t(HUD_POSITION_NONE)
        container.part = hud_part_t(HUD_PART_CONTAINER)
        container.mode_index = -1
        container.frame = bar
        container.shape = hud_shape_t(HUD_SHAPE_ROUNDED_RECTANGLE)
        container.material = colors.trayMaterial
        container.corner_radius = Geometry.trayCornerRadius
        container.stroke_width = Geometry.containerStrokeWidth
        container.fill = style.fill
        container.stroke = style.stroke
        container.placement = hud_placement_t(HUD_PLACEMENT_BOTTOM_INSET)
        container.z = LayoutBuilder.Layer.container
        container.accessibility_label = LayoutRequest.cString("Complications tray")
        builder.append(container)
        builder.contentInsets.bottom = Geometry.trayHeight + Geometry.trayBottomGap

        let placement = hud_placement_t(HUD_PLACEMENT_BOTTOM_INSET)
        let cornerY = bar.y + (Geometry.trayHeight - Geometry.cornerSlotSize) / 2
        if let bottomLeft {
            let group = SlotGroup(
                position: hud_position_t(HUD_POSITION_BOTTOM_LEFT), slot: bottomLeft, slotSize: Geometry.cornerSlotSize
            )
            let groupX = bar.x + Geometry.trayContentPadding
            group.append(slotX: group.slotX(groupX: groupX), slotY: cornerY, placement: placement, to: &builder)
        }
        if let bottomRight {
            let group = SlotGroup(
                position: hud_position_t(HUD_POSITION_BOTTOM_RIGHT), slot: bottomRight, slotSize: Geometry.cornerSlotSize
            )
            let groupX = bar.maxX - Geometry.trayContentPadding - group.width
            group.append(slotX: group.slotX(groupX: groupX), slotY: cornerY, placement: placement, to: &builder)
        }
        if let center {
            let group = SlotGroup(
                position: hud_position_t(HUD_POSITION_CENTER), slot: center, slotSize: Geometry.centerSlotSize
            )
            group.append(
                slotX: bar.midX - Geometry.centerSlotSize / 2,
                slotY: bar.y + (Geometry.trayHeight - Geometry.centerSlotSize) / 2,
                placement: placement, to: &builder
            )
        }
    }
}
