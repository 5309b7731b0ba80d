// SPDX-License-Identifier: MIT
import HudRendererAPI

/// A slot and its optional secondary chip.
///
/// The slot sits where its style puts it; the chip goes on the slot's inner
/// side, toward the screen's centre (right of a leading slot, left of a
/// trailing one), vertically centred on it, `Geometry.chipGap` (4 pt)
/// away. The center slot never shows a chip, and a style can leave chips
/// off (the tray's bottom slots). Sides are in the LTR working frame; the
/// RTL mirror moves them. A control chip's hit region is kept clear of
/// the slot's by `LayoutBuilder`, not by a wider gap.
struct SlotGroup {
    let position: hud_position_t
    let slot: LayoutRequest.Slot
    let slotSize: Double
    let chipSize: Double
    /// The chip goes right of the slot (a leading corner) or left of it.
    let chipIsOnRight: Bool
    /// Whether the secondary, if published, is drawn.
    let showsChip: Bool

    init(
        position: hud_position_t, slot: LayoutRequest.Slot, slotSize: Double,
        chipSize: Double = Geometry.chipSize, showsChip: Bool = true
    ) {
        self.position = position
        self.slot = slot
        self.slotSize = slotSize
        self.chipSize = chipSize
        chipIsOnRight = position == hud_position_t(HUD_POSITION_TOP_LEFT)
            || position == hud_position_t(HUD_POSITION_BOTTOM_LEFT)
        self.showsChip = showsChip && position != hud_position_t(HUD_POSITION_CENTER)
    }

    /// Appends the slot node and its chip node, the slot at (`slotX`,
    /// `slotY`), and records the slot frame as shown.
    func append(slotX: Double, slotY: Double, placement: hud_placement_t, to builder: inout LayoutBuilder) {
        let colors = builder.request.colors
        let frame = hud_rect_t(x: slotX, y: slotY, width: slotSize, height: slotSize)
        let style = colors.slot(role: slot.role)

        var node = unsafe hud_node_t()
        unsafe node.kind = hud_node_kind_t(HUD_NODE_KIND_SLOT)
        unsafe node.position = position
        unsafe node.part = hud_part_t(HUD_PART_SLOT)
        unsafe node.mode_index = -1
        unsafe node.frame = frame
        unsafe node.shape = hud_shape_t(HUD_SHAPE_CIRCLE)
        unsafe node.material = hud_material_t(HUD_MATERIAL_SOLID)
        unsafe node.corner_radius = slotSize / 2
        unsafe node.stroke_width = Geometry.slotStrokeWidth
        unsafe node.fill = style.fill
        unsafe node.stroke = style.stroke
        unsafe node.icon_color = style.icon
        unsafe node.placement = placement
        unsafe node.z = LayoutBuilder.Layer.slot
        unsafe node.flags = UInt32(HUD_NODE_FLAG_INTERACTIVE)
        if builder.isPressed(position: position, part: hud_part_t(HUD_PART_SLOT)) {
            unsafe node.flags |= UInt32(HUD_NODE_FLAG_PRESSED)
        }
        unsafe node.icon = unsafe slot.icon
        unsafe node.accessibility_label = unsafe slot.accessibilityLabel
        unsafe builder.append(node)
        builder.recordSlotFrame(frame, at: position)

        guard showsChip, let secondary = slot.secondary else { return }
        let chipStyle = colors.chip
        let chipX = chipIsOnRight ? slotX + slotSize + Geometry.chipGap : slotX - Geometry.chipGap - chipSize
        var chip = unsafe hud_node_t()
        unsafe chip.kind = hud_node_kind_t(HUD_NODE_KIND_SECONDARY)
        unsafe chip.position = position
        unsafe chip.part = hud_part_t(HUD_PART_SECONDARY)
        unsafe chip.mode_index = -1
        unsafe chip.frame = hud_rect_t(x: chipX, y: slotY + (slotSize - chipSize) / 2, width: chipSize, height: chipSize)
        unsafe chip.shape = hud_shape_t(HUD_SHAPE_CIRCLE)
        unsafe chip.material = hud_material_t(HUD_MATERIAL_SOLID)
        unsafe chip.corner_radius = chipSize / 2
        unsafe chip.stroke_width = Geometry.chipStrokeWidth
        unsafe chip.fill = chipStyle.fill
        unsafe chip.stroke = chipStyle.stroke
        unsafe chip.icon_color = chipStyle.icon
        unsafe chip.placement = placement
        unsafe chip.z = LayoutBuilder.Layer.chip
        if secondary.isControl {
            unsafe chip.flags = UInt32(HUD_NODE_FLAG_INTERACTIVE)
            if builder.isPressed(position: position, part: hud_part_t(HUD_PART_SECONDARY)) {
                unsafe chip.flags |= UInt32(HUD_NODE_FLAG_PRESSED)
            }
        }
        unsafe chip.icon = unsafe secondary.icon
        unsafe chip.accessibility_label = unsafe secondary.accessibilityLabel
        unsafe builder.append(chip)
    }
}
