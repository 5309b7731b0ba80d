// SPDX-License-Identifier: MIT
import HudRendererAPI

/// `.minimal`: the center slot only, for focus and takeover flows.
///
/// Formulas in the LTR working frame (W × H screen, safe bottom inset B):
/// center slot 64 pt at x = W / 2 − 32, y = H − B − 10 − 64, placement
/// BOTTOM_INSET, content_insets.bottom = 10 + 64 + 10 = 84 (0 when no
/// center is published). Every other published position is reported in
/// hidden_positions (it is outside `supportedPositions`).
enum MinimalRenderer {
    static let supportedPositions: UInt32 = 1 << UInt32(HUD_POSITION_CENTER)

    static func layout(into builder: inout LayoutBuilder) {
        let request = builder.request
        guard let center = request.slots[Int(HUD_POSITION_CENTER)] else { return }
        let group = SlotGroup(position: hud_position_t(HUD_POSITION_CENTER), slot: center, slotSize: Geometry.centerSlotSize)
        group.append(
            slotX: request.width / 2 - Geometry.centerSlotSize / 2,
            slotY: request.height - request.safeArea.bottom - Geometry.minimalPadding - Geometry.centerSlotSize,
            placement: hud_placement_t(HUD_PLACEMENT_BOTTOM_INSET), to: &builder
        )
        builder.contentInsets.bottom = Geometry.minimalPadding * 2 + Geometry.centerSlotSize
    }
}
