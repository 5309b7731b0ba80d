// SPDX-License-Identifier: MIT
import HudRendererAPI

/// One layout() call's working frame: the screen as if left to right (the
/// safe area's left and right insets swapped in RTL), the host's palette and
/// interaction, and the output every node goes to, mirrored back for RTL.
struct WorkingFrame {
    /// The screen's width.
    let width: Double
    /// The safe area, left and right insets swapped in RTL.
    let safe: hud_rect_t
    /// Nothing interactive above this: the navigation bar's bottom.
    let top: Double
    let isRightToLeft: Bool
    /// The Dynamic Type factor, kept within 0.5...2.
    let textScale: Double
    let palette: hud_palette_t
    let interaction: hud_interaction_t
    /// The host's layout: valid, and ours to write, during this call only.
    let output: UnsafeMutablePointer<hud_layout_t>

    init(environment: hud_environment_t, palette: hud_palette_t, interaction: hud_interaction_t,
         output: UnsafeMutablePointer<hud_layout_t>) {
        var inset = environment.safe_area
        isRightToLeft = environment.layout_direction == hud_layout_direction_t(HUD_LAYOUT_DIRECTION_RTL)
        if isRightToLeft { swap(&inset.left, &inset.right) } // lay out as LTR
        // Insets larger than the screen leave an empty safe area, never a
        // negative one.
        let x = min(inset.left, environment.screen_width)
        let y = min(inset.top, environment.screen_height)
        safe = hud_rect_t(x: x, y: y, width: max(0, environment.screen_width - inset.right - x),
                          height: max(0, environment.screen_height - inset.bottom - y))
        let bar = environment.navigation_bar
        let barBottom = bar.height > 0 ? bar.y + bar.height : safe.y
        top = clamp(barBottom, safe.y, safe.y + safe.height)
        width = environment.screen_width
        // A NaN fails both comparisons and becomes 0.5.
        let scale = environment.text_scale
        textScale = !(scale >= 0.5) ? 0.5 : !(scale <= 2) ? 2 : scale
        self.palette = palette
        self.interaction = interaction
        self.output = output
    }

    func isPressed(_ position: hud_position_t, _ part: hud_part_t, modeIndex: Int32) -> Bool {
        interaction.pressed_position == position && interaction.pressed_part == part
            && (part != Part.mode || interaction.pressed_mode_index == modeIndex)
    }

    /// A solid node with every field but colors and strings set; interactive
    /// ones get their hit region and pressed state.
    func node(_ kind: hud_node_kind_t, _ position: hud_position_t, _ part: hud_part_t, modeIndex: Int32 = -1,
              frame: hud_rect_t, shape: Int, cornerRadius: Double, z: Int32, interactive: Bool) -> hud_node_t {
        var node = hud_node_t() // all zero, as C's `hud_node_t node = {0}`
        node.kind = kind
        node.position = position
        node.part = part
        node.mode_index = modeIndex
        node.frame = frame
        node.shape = hud_shape_t(shape)
        node.material = hud_material_t(HUD_MATERIAL_SOLID)
        node.corner_radius = cornerRadius
        node.placement = hud_placement_t(HUD_PLACEMENT_OVERLAY)
        node.z = z
        if interactive {
            node.hit = hitRegion(frame)
            node.flags = UInt32(HUD_NODE_FLAG_INTERACTIVE)
            if isPressed(position, part, modeIndex: modeIndex) { node.flags |= UInt32(HUD_NODE_FLAG_PRESSED) }
        }
        return node
    }

    /// Mirrors a node for RTL and appends it (counted even when the buffer
    /// is full: the two-call idiom).
    func push(_ node: hud_node_t) {
        var node = node
        if isRightToLeft {
            node.frame.x = width - node.frame.x - node.frame.width
            if node.flags & UInt32(HUD_NODE_FLAG_INTERACTIVE) != 0 { node.hit.x = width - node.hit.x - node.hit.width }
        }
        hud_layout_push_node(output, &node)
    }

    /// A slot button in its role's colors.
    func slot(_ position: hud_position_t, _ slot: hud_slot_t, frame: hud_rect_t) {
        let isCenter = position == Position.center
        var node = node(Kind.slot, position, Part.slot, frame: frame,
                        shape: isCenter ? HUD_SHAPE_CIRCLE : HUD_SHAPE_ROUNDED_RECTANGLE,
                        cornerRadius: isCenter ? frame.width / 2 : Metrics.cornerRadius, z: Layer.slot, interactive: true)
        switch slot.role {
        case hud_role_t(HUD_ROLE_ACCENT):
            (node.fill, node.icon_color, node.stroke) = (palette.accent, palette.bg, tintStrong(palette.accent))
        case hud_role_t(HUD_ROLE_DESTRUCTIVE):
            (node.fill, node.icon_color, node.stroke) = (palette.status_error, palette.ink, tintStrong(palette.status_error))
        default: // HUD_ROLE_STANDARD, and roles from a newer host
            (node.fill, node.icon_color, node.stroke) = (palette.surface, palette.ink, palette.hairline_standard)
        }
        node.stroke_width = 1
        // ABI 1.1: the glyph's size in pt (0 = the host's default); push
        // copies only what the host's node_stride covers, so a 1.0 host
        // never sees it.
        node.glyph_size = isCenter ? 22 : 16
        node.icon = slot.icon
        node.accessibility_label = nonEmpty(slot.label, else: iconWord(slot.icon, else: staticCString("Complication")))
        push(node)
    }

    /// A secondary chip: a control when it has an action, else a badge.
    func chip(_ position: hud_position_t, _ chip: hud_secondary_t, frame: hud_rect_t) {
        var node = node(Kind.secondary, position, Part.secondary, frame: frame, shape: HUD_SHAPE_CIRCLE,
                        cornerRadius: frame.width / 2, z: Layer.chip, interactive: chip.action != nil)
        node.fill = palette.surface
        node.icon_color = palette.muted
        node.stroke = palette.hairline_subtle
        node.stroke_width = 0.5
        node.icon = chip.icon
        node.accessibility_label = nonEmpty(chip.label, else: iconWord(chip.icon, else: staticCString("Secondary")))
        push(node)
    }

    /// A slot and its chip. The chip goes on the slot's left when
    /// `chipOnLeft`, else on its right, vertically centered.
    func group(_ position: hud_position_t, _ slot: hud_slot_t, frame: hud_rect_t, chipOnLeft: Bool) {
        self.slot(position, slot, frame: frame)
        guard let secondary = slot.secondary else { return }
        let x = chipOnLeft ? frame.x - Metrics.chipGap - Metrics.chipSize : frame.x + frame.width + Metrics.chipGap
        let y = frame.y + (frame.height - Metrics.chipSize) / 2
        chip(position, secondary.pointee, frame: hud_rect_t(x: x, y: y, width: Metrics.chipSize, height: Metrics.chipSize))
    }

    /// The revealed slot's modes: a non-interactive CONTAINER card, then one
    /// MODE_ITEM per mode, leading to trailing and top to bottom. `modes`
    /// holds 1...HUD_MAX_MODES valid modes.
    func picker(_ position: hud_position_t, modes: UnsafePointer<UnsafePointer<hud_mode_t>?>, count: UInt32,
                slotFrame: hud_rect_t) {
        let room = safe.width - 2 * Metrics.sideMargin - 2 * Metrics.pickerPadding
        // Every item as wide as the widest label needs (an average glyph is
        // 0.55 of the font size; the host truncates what does not fit) and
        // as tall as inset, icon, 2, a line of label and inset.
        let font = min(Metrics.modeFont * textScale, Metrics.modeFontMaximum)
        var widest = 0.0
        for index in 0..<Int(count) { widest = max(widest, characters(modes[index]?.pointee.label)) }
        let itemWidth = max(Metrics.modeSize, min(widest * font * 0.55 + 2 * Metrics.modeInset, room))
        let itemHeight = max(Metrics.modeSize, 2 * Metrics.modeInset + Metrics.modeIcon + 2 + (font * 1.2).rounded(.up))
        let pitchX = itemWidth + Metrics.modeGap, pitchY = itemHeight + Metrics.modeGap
        let fit = (room + Metrics.modeGap) / pitchX // items per row; may be < 1
        let columns: UInt32 = fit >= Double(count) ? count : fit >= 1 ? UInt32(fit) : 1
        let rows = (count + columns - 1) / columns
        let width = Double(columns) * pitchX - Metrics.modeGap + 2 * Metrics.pickerPadding
        let height = Double(rows) * pitchY - Metrics.modeGap + 2 * Metrics.pickerPadding

        let opensBelow = position == Position.topLeft || position == Position.topRight
        let y = opensBelow ? slotFrame.y + slotFrame.height + Metrics.pickerOffset : slotFrame.y - Metrics.pickerOffset - height
        let x = slotFrame.x + slotFrame.width / 2 - width / 2
        let card = hud_rect_t(x: clamp(x, safe.x + Metrics.sideMargin, safe.x + safe.width - Metrics.sideMargin - width),
                              y: clamp(y, top, safe.y + safe.height - height), width: width, height: height)

        var container = node(Kind.container, position, Part.container, frame: card, shape: HUD_SHAPE_ROUNDED_RECTANGLE,
                             cornerRadius: Metrics.pickerRadius, z: Layer.picker, interactive: false)
        container.fill = palette.chrome
        container.stroke = palette.border
        container.stroke_width = 1
        container.accessibility_label = staticCString("Modes")
        push(container)

        for index in 0..<count {
            // Field by field: an older host's mode is smaller than this SDK's.
            guard let mode = modes[Int(index)] else { continue } // checked non-NULL
            let frame = hud_rect_t(x: card.x + Metrics.pickerPadding + Double(index % columns) * pitchX,
                                   y: card.y + Metrics.pickerPadding + Double(index / columns) * pitchY,
                                   width: itemWidth, height: itemHeight)
            var item = node(Kind.modeItem, position, Part.mode, modeIndex: Int32(index), frame: frame,
                            shape: HUD_SHAPE_ROUNDED_RECTANGLE, cornerRadius: Metrics.modeRadius, z: Layer.mode,
                            interactive: true)
            item.fill = palette.surface
            item.icon_color = palette.ink
            item.stroke = palette.hairline_standard
            item.stroke_width = 1
            item.text_color = palette.ink
            item.icon = mode.pointee.icon
            item.glyph_size = Metrics.modeIcon // ABI 1.1; see slot(_:_:frame:)
            // The label, shown under the icon; a mode without one shows only its icon.
            item.label = mode.pointee.label
            item.font_size = characters(mode.pointee.label) > 0 ? font : 0
            item.accessibility_label = nonEmpty(mode.pointee.label, else: iconWord(mode.pointee.icon, else: staticCString("Mode")))
            // ABI 1.2: the host flags the slot's current mode (the style in
            // use in a style picker); its item is marked selected. An older
            // host's modes have no flags field.
            if mode.pointee.struct_size >= HUD_MODE_SIZE_1_2, mode.pointee.flags & HUD_MODE_FLAG_CURRENT != 0 {
                item.flags |= HUD_NODE_FLAG_SELECTED
            }
            push(item)
        }
    }
}

// MARK: - Small helpers

/// `value` clamped into [lower, upper]; `lower` wins when they cross.
func clamp(_ value: Double, _ lower: Double, _ upper: Double) -> Double {
    max(lower, min(value, upper))
}

/// `frame` grown to at least 44 × 44, around its center.
func hitRegion(_ frame: hud_rect_t) -> hud_rect_t {
    let width = max(Metrics.minimumHit, frame.width), height = max(Metrics.minimumHit, frame.height)
    return hud_rect_t(x: frame.x - (width - frame.width) / 2, y: frame.y - (height - frame.height) / 2,
                      width: width, height: height)
}

/// Hudson's tintStrong: the color at 60% opacity.
func tintStrong(_ color: hud_rgba_t) -> hud_rgba_t {
    (color & 0xFFFF_FF00) | 0x99
}

/// `text` if it is non-empty, else `fallback`.
func nonEmpty(_ text: UnsafePointer<CChar>?, else fallback: UnsafePointer<CChar>) -> UnsafePointer<CChar> {
    if let text, text.pointee != 0 { return text }
    return fallback
}

/// The characters (UTF-8 code points) of `text`; 0 for nil.
func characters(_ text: UnsafePointer<CChar>?) -> Double {
    guard let text else { return 0 }
    var count = 0.0, index = 0
    while text[index] != 0 {
        if UInt8(bitPattern: text[index]) & 0xC0 != 0x80 { count += 1 }
        index += 1
    }
    return count
}

/// An icon's name when it reads as a word ("star"), else `fallback`: a
/// dotted symbol name ("list.bullet") is never an accessibility label.
func iconWord(_ icon: UnsafePointer<CChar>?, else fallback: UnsafePointer<CChar>) -> UnsafePointer<CChar> {
    guard let icon, icon.pointee != 0 else { return fallback }
    var index = 0
    while icon[index] != 0 {
        if icon[index] == 0x2E { return fallback }
        index += 1
    }
    return icon
}

/// A string literal as a C string with static storage (a StaticString
/// literal is NUL-terminated UTF-8 in the binary), as node strings must be.
func staticCString(_ text: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
}
