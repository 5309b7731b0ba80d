// SPDX-License-Identifier: MIT
import HudRendererAPI

/// Collects one layout's nodes in the LTR working frame, then writes them to
/// the host's buffer: clamped on screen, hit regions derived, mirrored for
/// RTL, through the header's two-call idiom.
///
/// Every layout() call builds its own; nothing is shared between calls.
@safe struct LayoutBuilder {
    let request: LayoutRequest
    /// Positions the style can show (HUD_POSITION_BIT mask).
    let supportedPositions: UInt32
    private(set) var nodes: [hud_node_t] = unsafe []
    /// The slot frame of every position that was shown (working frame).
    private(set) var slotFrames: [hud_rect_t?] = Array(repeating: nil, count: Int(HUD_POSITION_COUNT))
    /// By physical edge in the working frame; swapped with the mirror.
    var contentInsets = hud_insets_t(top: 0, left: 0, bottom: 0, right: 0)
    /// Published positions the style chose not to show, on top of those
    /// outside `supportedPositions` (always hidden).
    var hiddenPositions: UInt32 = 0

    init(request: LayoutRequest, supportedPositions: UInt32) {
        self.request = request
        self.supportedPositions = supportedPositions
        unsafe nodes.reserveCapacity(16)
    }

    /// z-order of each node family.
    enum Layer {
        static let container: Int32 = 0
        static let slot: Int32 = 10
        static let chip: Int32 = 11
        static let modePicker: Int32 = 20
        static let modeItem: Int32 = 21
    }

    /// Appends a node; its `hit` is ignored and derived when written.
    mutating func append(_ node: hud_node_t) {
        unsafe nodes.append(node)
    }

    mutating func recordSlotFrame(_ frame: hud_rect_t, at position: hud_position_t) {
        slotFrames[Int(position)] = frame
    }

    /// Whether the interaction presses this node.
    func isPressed(position: hud_position_t, part: hud_part_t, modeIndex: Int32 = -1) -> Bool {
        request.pressedPosition == position && request.pressedPart == part
            && (part != hud_part_t(HUD_PART_MODE) || request.pressedModeIndex == modeIndex)
    }

    /// Writes the layout: count, nodes (at most `capacity`), content insets
    /// and hidden positions. Returns the header's status for the two-call
    /// idiom, or INTERNAL_ERROR (writing nothing) if a value is not finite.
    func write(to layout: UnsafeMutablePointer<hud_layout_t>) -> hud_status_t {
        var placed = unsafe nodes.map(sanitized)
        unsafe separateChipHits(&placed)
        var finished: [hud_node_t] = unsafe []
        unsafe finished.reserveCapacity(placed.count)
        for unsafe var node in unsafe placed {
            unsafe stateGlyphAndActions(&node)
            if request.isRightToLeft {
                unsafe node.frame = unsafe node.frame.mirrored(inWidth: request.width)
                if unsafe node.flags & UInt32(HUD_NODE_FLAG_INTERACTIVE) != 0 {
                    unsafe node.hit = unsafe node.hit.mirrored(inWidth: request.width)
                }
            }
            guard unsafe node.frame.isFinite, unsafe node.hit.isFinite else {
                return hud_status_t(HUD_STATUS_INTERNAL_ERROR)
            }
            unsafe finished.append(node)
        }

        var insets = contentInsets
        if request.isRightToLeft {
            swap(&insets.left, &insets.right)
        }
        var hidden = hiddenPositions
        for (index, slot) in request.slots.enumerated() where slot != nil {
            if supportedPositions & (1 << UInt32(index)) == 0 { hidden |= 1 << UInt32(index) }
        }

        unsafe layout.pointee.count = 0
        for unsafe var node in unsafe finished {
            _ = unsafe hud_layout_push_node(layout, &node)
        }
        unsafe layout.pointee.content_insets = insets
        unsafe layout.pointee.hidden_positions = hidden
        return unsafe hud_layout_finish(layout)
    }

    /// The ABI 1.1 node fields, in one place for every style: the original
    /// renderers' icon sizes (medium weight) by what the node is and where
    /// it is hosted, and, on a slot, every one of its modes as a named
    /// accessibility action. `hud_layout_push_node` drops both for a host
    /// whose node stride predates them (a 1.0 host).
    private func stateGlyphAndActions(_ node: inout hud_node_t) {
        switch unsafe node.kind {
        case hud_node_kind_t(HUD_NODE_KIND_SLOT):
            if unsafe node.position == hud_position_t(HUD_POSITION_CENTER) {
                unsafe node.glyph_size = GlyphSize.center
            } else if unsafe node.placement == hud_placement_t(HUD_PLACEMENT_BOTTOM_INSET) {
                unsafe node.glyph_size = GlyphSize.trayCorner
            } else {
                unsafe node.glyph_size = GlyphSize.corner  // scattered corners and toolbar slots alike
            }
            if unsafe node.position >= 0, unsafe Int(node.position) < request.slots.count, let slot = unsafe request.slots[Int(node.position)] {
                let count = min(slot.modes.count, Int(HUD_MAX_MODES))
                unsafe node.accessibility_actions = count >= 64 ? ~0 : (UInt64(1) << UInt64(count)) &- 1
            }
        case hud_node_kind_t(HUD_NODE_KIND_SECONDARY):
            unsafe node.glyph_size = GlyphSize.chip
        case hud_node_kind_t(HUD_NODE_KIND_MODE_ITEM):
            unsafe node.glyph_size = GlyphSize.modeItem
        default:
            unsafe node.glyph_size = 0  // containers draw no glyph
        }
    }

    /// Icon glyph sizes, pt (hudson-tokens.md, "slot icon sizes").
    enum GlyphSize {
        static let trayCorner = 18.0
        static let corner = 16.0
        static let center = 22.0
        static let chip = 11.0
        static let modeItem = 14.0
    }

    /// Puts a node on screen and derives its hit region (before
    /// `separateChipHits` moves a control chip's and its slot's apart).
    ///
    /// Frames are clamped onto the screen; an interactive node's frame is
    /// further kept inside the safe area (on each axis where it fits). Its
    /// hit region is max(44, w) × max(44, h) centered on the frame, then
    /// shifted (not shrunk) to stay inside the safe area; since the frame is
    /// inside the safe area the shifted region still contains it. The shift
    /// only happens when a centered region would cross a safe-area edge
    /// (e.g. a 32 pt toolbar slot in a 32 pt landscape navigation bar at the
    /// top of the screen). On degenerate screens smaller than a hit region,
    /// it is clamped to the screen instead. Non-interactive nodes get a zero
    /// hit region. For every preset screen this is the identity on frames.
    private func sanitized(_ node: hud_node_t) -> hud_node_t {
        var node = unsafe node
        let screen = request.screenRect
        unsafe node.frame = unsafe node.frame.clamped(into: screen)
        guard unsafe node.flags & UInt32(HUD_NODE_FLAG_INTERACTIVE) != 0 else {
            unsafe node.hit = .zero
            return unsafe node
        }
        let safe = request.safeRect
        unsafe node.frame = unsafe node.frame.clampedPerAxis(into: safe)
        let hit = unsafe node.frame.centeredRect(
            width: max(Geometry.minimumHitSize, node.frame.width),
            height: max(Geometry.minimumHitSize, node.frame.height)
        )
        unsafe node.hit = hit.clampedPerAxis(into: safe).clamped(into: screen)
        return unsafe node
    }
}

extension LayoutBuilder {
    /// Keeps a control chip's hit region clear of its slot's without moving
    /// either visual: the chip stays `Geometry.chipGap` (4 pt) from the
    /// slot, and where their (centred) hit regions would overlap, the strip
    /// between the two frames is split at the middle of the gap. The slot's
    /// region then ends at that line and extends away from the chip; the
    /// chip's starts there and extends away from the slot (toward the
    /// screen's centre). Each keeps its size (≥ 44 × 44) and still contains
    /// its frame: a 22 pt chip needs 2 + 22 = 24 of its 44 pt, a slot at
    /// most 2 + its width. Only the horizontal extent changes (chips sit
    /// beside their slots). Runs in the working frame, before the mirror;
    /// leaves the regions alone where a split could not keep both frames
    /// covered (frames clamped onto each other on a degenerate screen).
    fileprivate func separateChipHits(_ nodes: inout [hud_node_t]) {
        let interactive = UInt32(HUD_NODE_FLAG_INTERACTIVE)
        for chipIndex in unsafe nodes.indices
        where unsafe nodes[chipIndex].kind == hud_node_kind_t(HUD_NODE_KIND_SECONDARY) && nodes[chipIndex].flags & interactive != 0 {
            let position = unsafe nodes[chipIndex].position
            guard let slotIndex = unsafe nodes.indices.first(where: {
                unsafe nodes[$0].kind == hud_node_kind_t(HUD_NODE_KIND_SLOT) && nodes[$0].position == position
            }) else { continue }
            var chip = unsafe nodes[chipIndex], slot = unsafe nodes[slotIndex]
            guard unsafe chip.hit.overlaps(slot.hit) else { continue }
            if unsafe chip.frame.midX >= slot.frame.midX {
                let line = unsafe (slot.frame.maxX + chip.frame.x) / 2
                if unsafe slot.hit.maxX > line { unsafe slot.hit.x = unsafe line - slot.hit.width }
                if unsafe chip.hit.x < line { unsafe chip.hit.x = line }
            } else {
                let line = unsafe (chip.frame.maxX + slot.frame.x) / 2
                if unsafe slot.hit.x < line { unsafe slot.hit.x = line }
                if unsafe chip.hit.maxX > line { unsafe chip.hit.x = unsafe line - chip.hit.width }
            }
            // On a degenerate screen (frames clamped onto each other) the
            // split cannot keep both frames covered: keep the centred regions.
            guard unsafe chip.hit.covers(chip.frame), unsafe slot.hit.covers(slot.frame) else { continue }
            unsafe nodes[chipIndex] = unsafe chip
            unsafe nodes[slotIndex] = unsafe slot
        }
    }
}

extension hud_rect_t {
    /// Whether `other` lies inside this rect.
    fileprivate func covers(_ other: hud_rect_t) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    /// Whether the two rects share interior points (touching edges do not).
    fileprivate func overlaps(_ other: hud_rect_t) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// Moved inside `bounds` on each axis where it fits; left alone on an
    /// axis where it does not.
    func clampedPerAxis(into bounds: hud_rect_t) -> hud_rect_t {
        var rect = self
        if width <= bounds.width { rect.x = Geometry.clamp(x, bounds.x, bounds.maxX - width) }
        if height <= bounds.height { rect.y = Geometry.clamp(y, bounds.y, bounds.maxY - height) }
        return rect
    }
}
