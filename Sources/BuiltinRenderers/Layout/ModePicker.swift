// SPDX-License-Identifier: MIT
import HudRendererAPI

/// The long-press mode picker: a card of mode items (icon over label) next
/// to the revealed slot, shared by every built-in style.
///
/// Each item is a 14 pt icon over a one-line label (10 pt × text scale,
/// 2 pt apart) with 8 pt horizontal and 6 pt vertical padding; items run
/// left to right in the working frame (right to left after the RTL
/// mirror), 6 pt apart, inside 6 pt of card padding, wrapping into rows no
/// wider than the safe area minus 2 × 16 minus the padding. The card
/// (radius 8, 0.5 pt hairline.standard stroke) is centred on the slot
/// horizontally, kept 16 pt inside the safe area's sides, and its centre
/// is 76 pt from the slot's centre: above a bottom or center slot, below a
/// top slot. A card too tall for that (several rows at accessibility text
/// sizes) is pushed away until it clears the slot's hit region, so the
/// slot stays tappable. It never rises above the top limit (max(safe top,
/// navigation bar bottom)) nor sinks below the bottom safe edge.
///
/// Labels never wrap: an item is as wide as its label's estimated width
/// at the scaled font (plus padding), and only a label wider than a whole
/// row is truncated at the tail (the presenters draw "…"); the full text
/// stays the item's accessibility label. Wrapping was rejected: a node has
/// one font size and no line breaks, so every presenter would have to
/// re-derive them (Docs/HUD-002-renderer-registry.md, decision 9).
///
/// When the card does not fit on its preferred side, items shrink in steps
/// until it does: natural size → 38 wide → 38 wide × at most 44 tall. If
/// none fits, the card keeps the last size and is clamped between the top
/// limit and the bottom safe edge (it may then cover the slot).
struct ModePicker {
    /// One candidate item sizing.
    private struct Sizing {
        var widths: [Double]
        var height: Double
    }

    /// The laid-out card: its size and every item's offset inside it.
    private struct Arrangement {
        var width: Double
        var height: Double
        var itemFrames: [hud_rect_t]
    }

    let position: hud_position_t
    let slotFrame: hud_rect_t
    let modes: [LayoutRequest.Mode]

    /// The picker for the revealed position, if it names a shown slot with
    /// modes.
    init?(revealedIn builder: LayoutBuilder) {
        let position = builder.request.revealedPosition
        guard position != hud_position_t(HUD_POSITION_NONE),
              let frame = builder.slotFrames[Int(position)],
              let slot = builder.request.slots[Int(position)],
              !slot.modes.isEmpty
        else { return nil }
        self.position = position
        slotFrame = frame
        modes = slot.modes
    }

    /// label font size = 10 × text scale.
    static func fontSize(textScale: Double) -> Double {
        Geometry.modeLabelFontSize * textScale
    }

    /// item height = 6 + 14 + 2 + ceil(font size × 1.2) + 6 (40 at text
    /// scale 1; its hit region is 44).
    static func naturalItemHeight(fontSize: Double) -> Double {
        Geometry.modeItemVerticalPadding * 2 + Geometry.modeIconSize + Geometry.modeIconLabelGap
            + (fontSize * Geometry.modeLabelLineHeightFactor).rounded(.up)
    }

    /// item width = max(38, min(available, scalars × font size × 0.55 + 2 × 8)).
    static func naturalItemWidth(labelScalars: Int, fontSize: Double, available: Double) -> Double {
        let estimate = Double(labelScalars) * fontSize * Geometry.modeLabelAdvanceFactor
        return max(Geometry.modeItemMinimumWidth, min(available, estimate + 2 * Geometry.modeItemHorizontalPadding))
    }

    func append(to builder: inout LayoutBuilder) {
        let request = builder.request
        let safe = request.safeRect
        let fontSize = Self.fontSize(textScale: request.textScale)
        let margin = Geometry.modePickerSideMargin
        let padding = Geometry.modePickerPadding
        let available = max(0, safe.width - 2 * margin - 2 * padding)

        // Vertical room: between the limits, clear of the slot's hit region.
        let topLimit = min(max(safe.y, request.navigationBarY + request.navigationBarHeight), safe.maxY)
        let bottomLimit = safe.maxY
        let opensBelow = position == hud_position_t(HUD_POSITION_TOP_LEFT)
            || position == hud_position_t(HUD_POSITION_TOP_RIGHT)
        let centerY = opensBelow
            ? slotFrame.midY + Geometry.modePickerLift
            : slotFrame.midY - Geometry.modePickerLift
        // The slot's hit region as `LayoutBuilder` will derive it
        // (vertically: centred, then kept inside the safe area).
        let slotHit = slotFrame.centeredRect(
            width: max(Geometry.minimumHitSize, slotFrame.width),
            height: max(Geometry.minimumHitSize, slotFrame.height)
        ).clampedPerAxis(into: safe)
        /// The card's preferred y for a height, and whether it fits there.
        func place(height: Double) -> (y: Double, fits: Bool) {
            if opensBelow {
                let y = max(centerY - height / 2, slotHit.maxY)
                return (y, y + height <= bottomLimit)
            }
            let y = min(centerY - height / 2, slotHit.y - height)
            return (y, y >= topLimit)
        }

        let naturalHeight = Self.naturalItemHeight(fontSize: fontSize)
        let natural = modes.map {
            Self.naturalItemWidth(labelScalars: $0.labelScalarCount, fontSize: fontSize, available: available)
        }
        let narrowest = Array(repeating: Geometry.modeItemMinimumWidth, count: modes.count)
        let sizings = [
            Sizing(widths: natural, height: naturalHeight),
            Sizing(widths: narrowest, height: naturalHeight),
            Sizing(widths: narrowest, height: min(naturalHeight, Geometry.modeItemMinimumHeight)),
        ]
        var arrangement = Self.arrange(sizings[sizings.count - 1], rowWidth: available)
        for sizing in sizings.dropLast() {
            let candidate = Self.arrange(sizing, rowWidth: available)
            if place(height: candidate.height).fits {
                arrangement = candidate
                break
            }
        }

        // Place the card.
        let cardX = Geometry.clamp(
            slotFrame.midX - arrangement.width / 2,
            safe.x + margin,
            safe.maxX - margin - arrangement.width
        )
        let cardY = Geometry.clamp(place(height: arrangement.height).y, topLimit, bottomLimit - arrangement.height)
        let card = hud_rect_t(x: cardX, y: cardY, width: arrangement.width, height: arrangement.height)

        let colors = request.colors
        let cardStyle = colors.modePicker
        var cardNode = unsafe hud_node_t()
        unsafe cardNode.kind = hud_node_kind_t(HUD_NODE_KIND_CONTAINER)
        unsafe cardNode.position = position
        unsafe cardNode.part = hud_part_t(HUD_PART_CONTAINER)
        unsafe cardNode.mode_index = -1
        unsafe cardNode.frame = card
        unsafe cardNode.shape = hud_shape_t(HUD_SHAPE_ROUNDED_RECTANGLE)
        unsafe cardNode.material = colors.modePickerMaterial
        unsafe cardNode.corner_radius = Geometry.modePickerCornerRadius
        unsafe cardNode.stroke_width = Geometry.containerStrokeWidth
        unsafe cardNode.fill = cardStyle.fill
        unsafe cardNode.stroke = cardStyle.stroke
        unsafe cardNode.placement = hud_placement_t(HUD_PLACEMENT_OVERLAY)
        unsafe cardNode.z = LayoutBuilder.Layer.modePicker
        unsafe cardNode.accessibility_label = unsafe LayoutRequest.modePickerLabel(position)
        unsafe builder.append(cardNode)

        let itemStyle = colors.modeItem
        for (index, mode) in modes.enumerated() {
            let offset = arrangement.itemFrames[index]
            var item = unsafe hud_node_t()
            unsafe item.kind = hud_node_kind_t(HUD_NODE_KIND_MODE_ITEM)
            unsafe item.position = position
            unsafe item.part = hud_part_t(HUD_PART_MODE)
            unsafe item.mode_index = Int32(index)
            unsafe item.frame = hud_rect_t(x: card.x + offset.x, y: card.y + offset.y, width: offset.width, height: offset.height)
            unsafe item.shape = hud_shape_t(HUD_SHAPE_ROUNDED_RECTANGLE)
            unsafe item.material = hud_material_t(HUD_MATERIAL_NONE)
            unsafe item.corner_radius = Geometry.modeItemCornerRadius
            unsafe item.font_size = fontSize
            unsafe item.fill = itemStyle.fill
            unsafe item.stroke = itemStyle.stroke
            unsafe item.icon_color = itemStyle.icon
            unsafe item.text_color = colors.text
            unsafe item.placement = hud_placement_t(HUD_PLACEMENT_OVERLAY)
            unsafe item.z = LayoutBuilder.Layer.modeItem
            unsafe item.flags = UInt32(HUD_NODE_FLAG_INTERACTIVE)
            if builder.isPressed(position: position, part: hud_part_t(HUD_PART_MODE), modeIndex: Int32(index)) {
                unsafe item.flags |= UInt32(HUD_NODE_FLAG_PRESSED)
            }
            if mode.isCurrent { unsafe item.flags |= HUD_NODE_FLAG_SELECTED }
            unsafe item.icon = unsafe mode.icon
            unsafe item.label = unsafe mode.label
            unsafe item.accessibility_label = unsafe mode.accessibilityLabel
            unsafe builder.append(item)
        }
    }

    /// Wraps items greedily into rows at most `rowWidth` wide (a row always
    /// takes at least one item) and sizes the card around them.
    private static func arrange(_ sizing: Sizing, rowWidth: Double) -> Arrangement {
        let padding = Geometry.modePickerPadding
        let spacing = Geometry.modePickerSpacing
        var frames: [hud_rect_t] = []
        frames.reserveCapacity(sizing.widths.count)
        var rowEnd = 0.0 // the current row's width so far
        var itemsInRow = 0
        var row = 0
        var widest = 0.0
        for width in sizing.widths {
            if itemsInRow > 0, rowEnd + spacing + width > rowWidth {
                row += 1
                rowEnd = 0
                itemsInRow = 0
            }
            let itemX = itemsInRow > 0 ? rowEnd + spacing : 0
            let y = Double(row) * (sizing.height + spacing)
            frames.append(hud_rect_t(x: padding + itemX, y: padding + y, width: width, height: sizing.height))
            rowEnd = itemX + width
            itemsInRow += 1
            widest = max(widest, rowEnd)
        }
        let rows = Double(row + 1)
        return Arrangement(
            width: widest + 2 * padding,
            height: rows * sizing.height + (rows - 1) * spacing + 2 * padding,
            itemFrames: frames
        )
    }
}
