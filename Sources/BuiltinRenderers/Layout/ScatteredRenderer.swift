// SPDX-License-Identifier: MIT
import HudRendererAPI

/// `.scattered`: all five slots float as overlays; no tray, no inset.
///
/// Formulas in the LTR working frame (W × H screen, safe insets T, L, B, R,
/// navigation bar bottom edge N):
/// - corner slots 48 pt, 12 pt in from the corners of the content area,
///   which lies below the navigation bar (the design tokens: "12 pt below
///   the navigation bar's bottom edge, not 12 pt below the status bar"):
///   left slots x = L + 12, right slots right edge = W − R − 12; top slots
///   y = max(T, N) + 12; bottom slots y = H − B − 12 − 48. A chip (22) sits
///   on the slot's inner side, 4 pt away, vertically centred; the slot
///   does not move for it.
/// - center slot 64 pt at x = W / 2 − 32, y = H − B − 28 − 64 (never a
///   chip).
/// - placement OVERLAY everywhere; content insets all 0.
enum ScatteredRenderer {
    static let supportedPositions: UInt32 = UInt32(HUD_POSITION_ALL_BITS)

    static func layout(into builder: inout LayoutBuilder) {
        let request = builder.request
        let safe = request.safeArea
        let inset = Geometry.scatteredCornerInset
        let placement = hud_placement_t(HUD_PLACEMENT_OVERLAY)
        // The content area's top edge: the navigation bar's bottom, never above the safe area.
        let contentTop = min(max(safe.top, request.navigationBarY + request.navigationBarHeight), request.height)
        let corners: [(position: Int, isTop: Bool)] = [
            (HUD_POSITION_TOP_LEFT, true),
            (HUD_POSITION_TOP_RIGHT, true),
            (HUD_POSITION_BOTTOM_LEFT, false),
            (HUD_POSITION_BOTTOM_RIGHT, false),
        ]
        for corner in corners {
            let position = hud_position_t(corner.position)
            guard let slot = request.slots[Int(position)] else { continue }
            let group = SlotGroup(position: position, slot: slot, slotSize: Geometry.cornerSlotSize)
            let slotX = group.chipIsOnRight
                ? safe.left + inset
                : request.width - safe.right - inset - Geometry.cornerSlotSize
            let slotY = corner.isTop
                ? contentTop + inset
                : request.height - safe.bottom - inset - Geometry.cornerSlotSize
            group.append(slotX: slotX, slotY: slotY, placement: placement, to: &builder)
        }

        if let center = request.slots[Int(HUD_POSITION_CENTER)] {
            let group = SlotGroup(
                position: hud_position_t(HUD_POSITION_CENTER), slot: center, slotSize: Geometry.centerSlotSize
            )
            group.append(
                slotX: request.width / 2 - Geometry.centerSlotSize / 2,
                slotY: request.height - safe.bottom - Geometry.scatteredCenterLift - Geometry.centerSlotSize,
                placement: placement, to: &builder
            )
        }
    }
}
