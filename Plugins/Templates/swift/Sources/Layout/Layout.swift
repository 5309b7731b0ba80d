// SPDX-License-Identifier: MIT
// @NAME@ (@ID@): the layout, in Swift.
//
// Made by `hudhost new` from the Starter template; passes `hudhost validate
// --profile strict` as generated. Change Metrics.swift and the placement
// below, and re-run the validator after every change.
//
// The Starter layout, in points, in a left-to-right working frame. For RTL
// the safe area's left and right insets are swapped first and every
// rectangle is mirrored at the end (x' = W - x - w), so "left" below means
// leading.
//
//   - Corner slots: 48 x 48 rounded squares, 16 inside the safe area's
//     sides; the top ones 8 below the navigation bar (or the safe top), the
//     bottom ones 16 above the bottom safe edge.
//   - The center slot: a 56 pt circle at the middle of the safe area,
//     bottom-aligned with the bottom corners.
//   - A secondary chip: a 24 pt circle on its slot's inner side, toward the
//     screen's centre (trailing of a leading slot, leading of a trailing
//     slot, trailing of the center), vertically centered, 12 from the slot,
//     so its 44 x 44 hit region stays clear of the slot's. The slot stays
//     in its corner.
//   - The revealed slot's long-press modes: items 8 apart in a card (8
//     padding), each its icon over its label (10 pt at the Large text size,
//     scaled with it up to 20), all as wide as the widest label needs and
//     at least 44 x 44, in rows as wide as the safe area allows (16 margins), 12
//     above a bottom or center slot or 12 below a top one, centered on the
//     slot and kept inside the safe area. Painted above everything else.
//   - Interactive nodes get a hit region of at least 44 x 44 centered on
//     their frame; the others an all-zero one. Every node floats: content
//     insets are zero.
//
// This code runs inside the host's renderer process for every frame: it
// must not trap (a trap is a crash the host reports), block, or keep
// anything between calls.
import HudRendererAPI

/// The host's layout() call (the descriptor in Sources/Entry/entry.c
/// points here). Returns HUD_STATUS_OK, HUD_STATUS_BUFFER_TOO_SMALL with
/// the count of nodes needed, or the status of the input it refuses.
@_cdecl("@IDENT@_layout")
func layout(
    _ descriptor: UnsafePointer<hud_renderer_descriptor_t>?,
    _ complications: UnsafePointer<hud_complications_t>?,
    _ environment: UnsafePointer<hud_environment_t>?,
    _ interaction: UnsafePointer<hud_interaction_t>?,
    _ output: UnsafeMutablePointer<hud_layout_t>?
) -> hud_status_t {
    guard let descriptor else { return Status.invalidArgument }
    let inputs: Inputs
    do {
        inputs = try Inputs(complications, environment, interaction, output)
    } catch {
        return error.status
    }
    let positions = descriptor.pointee.supported_positions
    let c = inputs.complications
    let f = WorkingFrame(environment: inputs.environment, palette: inputs.palette, interaction: inputs.interaction,
                         output: inputs.output)

    inputs.output.pointee.count = 0
    inputs.output.pointee.hidden_positions = 0
    for position in Position.all {
        guard let slot = c.slot(at: position)?.pointee else { continue }
        guard positions & Position.bit(position) != 0 else {
            inputs.output.pointee.hidden_positions |= Position.bit(position)
            continue
        }
        // The chip on the inner side: right of a leading slot and of the
        // center, left of a trailing slot.
        f.group(position, slot, frame: slotFrame(position, slot, in: f),
                chipOnLeft: position != Position.center && !Position.isLeading(position))
    }

    // The host reveals only a slot with modes; draw the picker only for a
    // slot this layout shows.
    let revealed = inputs.interaction.revealed_position
    if positions & Position.bit(revealed) != 0, let slot = c.slot(at: revealed)?.pointee, slot.mode_count > 0,
       let modes = slot.modes {
        f.picker(revealed, modes: modes, count: slot.mode_count, slotFrame: slotFrame(revealed, slot, in: f))
    }

    inputs.output.pointee.content_insets = hud_insets_t(top: 0, left: 0, bottom: 0, right: 0) // everything floats
    return hud_layout_finish(inputs.output)
}

/// Where a shown slot goes, in the LTR working frame.
func slotFrame(_ position: hud_position_t, _ slot: hud_slot_t, in f: WorkingFrame) -> hud_rect_t {
    let safe = f.safe
    let bottom = safe.y + safe.height - Metrics.bottomMargin // bottom slots end here
    if position == Position.center {
        let size = Metrics.centerSize
        return hud_rect_t(x: safe.x + safe.width / 2 - size / 2, y: bottom - size, width: size, height: size)
    }
    let size = Metrics.cornerSize
    let x = Position.isLeading(position) ? safe.x + Metrics.sideMargin
                                         : safe.x + safe.width - Metrics.sideMargin - size
    let onTop = position == Position.topLeft || position == Position.topRight
    let y = onTop ? f.top + Metrics.topMargin : bottom - size
    return hud_rect_t(x: x, y: y, width: size, height: size)
}

// MARK: - Inputs

/// layout()'s inputs, checked against the header's rules before anything
/// else is read: INVALID_ARGUMENT for what breaks them, UNSUPPORTED for
/// screens too large to lay out.
///
/// Sizes are compared with the SDK's frozen 1.0 sizes (HUD_*_SIZE_1_0),
/// never with MemoryLayout.size: every field read here is in ABI 1.0, so a
/// 1.0 host's structures are accepted even after a rebuild against a newer
/// 1.x header, whose structures have grown. A field added after 1.0 is read
/// only when the host's struct_size covers it (the header's HUD_STRUCT_HAS
/// rule: offset + size <= struct_size), else taken as zero.
struct Inputs {
    let complications: hud_complications_t
    let environment: hud_environment_t
    let palette: hud_palette_t
    let interaction: hud_interaction_t
    let output: UnsafeMutablePointer<hud_layout_t>

    /// Why an input was refused.
    struct Refusal: Error {
        let status: hud_status_t
        static let invalid = Refusal(status: Status.invalidArgument)
        static let unsupported = Refusal(status: Status.unsupported)
    }

    init(_ complications: UnsafePointer<hud_complications_t>?, _ environment: UnsafePointer<hud_environment_t>?,
         _ interaction: UnsafePointer<hud_interaction_t>?, _ output: UnsafeMutablePointer<hud_layout_t>?) throws(Refusal) {
        guard let complications, let environment, let interaction, let output else { throw .invalid }
        guard complications.pointee.struct_size >= HUD_COMPLICATIONS_SIZE_1_0,
              environment.pointee.struct_size >= HUD_ENVIRONMENT_SIZE_1_0,
              interaction.pointee.struct_size >= HUD_INTERACTION_SIZE_1_0,
              output.pointee.struct_size >= HUD_LAYOUT_SIZE_1_0,
              output.pointee.node_stride >= HUD_NODE_SIZE_1_0, // push_node copies what both know
              output.pointee.capacity == 0 || output.pointee.nodes != nil
        else { throw .invalid }
        let env = environment.pointee
        guard let palette = env.palette, palette.pointee.struct_size >= HUD_PALETTE_SIZE_1_0 else { throw .invalid }
        let inset = env.safe_area
        for length in [env.screen_width, env.screen_height, inset.top, inset.left, inset.bottom, inset.right,
                       env.navigation_bar.y, env.navigation_bar.height] {
            // NaN, infinite or negative: invalid; merely huge: unsupported.
            guard length >= 0, length.isFinite else { throw .invalid }
            guard length <= Metrics.maximumLength else { throw .unsupported }
        }
        guard env.screen_width > 0, env.screen_height > 0 else { throw .invalid }

        let c = complications.pointee
        for position in Position.all {
            guard let slot = c.slot(at: position)?.pointee else { continue }
            guard slot.struct_size >= HUD_SLOT_SIZE_1_0, slot.mode_count <= UInt32(HUD_MAX_MODES),
                  slot.mode_count == 0 || slot.modes != nil
            else { throw .invalid }
            if let chip = slot.secondary, chip.pointee.struct_size < HUD_SECONDARY_SIZE_1_0 { throw .invalid }
            for index in 0..<Int(slot.mode_count) {
                guard let mode = slot.modes?[index], mode.pointee.struct_size >= HUD_MODE_SIZE_1_0 else { throw .invalid }
            }
        }
        self.complications = c
        self.environment = env
        self.palette = palette.pointee
        self.interaction = interaction.pointee
        self.output = output
    }
}

// MARK: - The header's constants, typed

enum Status {
    static let invalidArgument = hud_status_t(HUD_STATUS_INVALID_ARGUMENT)
    static let unsupported = hud_status_t(HUD_STATUS_UNSUPPORTED)
}

enum Position {
    static let topLeft = hud_position_t(HUD_POSITION_TOP_LEFT)
    static let topRight = hud_position_t(HUD_POSITION_TOP_RIGHT)
    static let bottomLeft = hud_position_t(HUD_POSITION_BOTTOM_LEFT)
    static let bottomRight = hud_position_t(HUD_POSITION_BOTTOM_RIGHT)
    static let center = hud_position_t(HUD_POSITION_CENTER)
    static let all = [topLeft, topRight, bottomLeft, bottomRight, center]

    /// HUD_POSITION_BIT(position); 0 outside the five positions.
    static func bit(_ position: hud_position_t) -> UInt32 {
        (0..<hud_position_t(HUD_POSITION_COUNT)).contains(position) ? UInt32(1) << UInt32(position) : 0
    }

    /// The leading corners ("left" in the header's names).
    static func isLeading(_ position: hud_position_t) -> Bool {
        position == topLeft || position == bottomLeft
    }
}

enum Part {
    static let slot = hud_part_t(HUD_PART_SLOT)
    static let secondary = hud_part_t(HUD_PART_SECONDARY)
    static let mode = hud_part_t(HUD_PART_MODE)
    static let container = hud_part_t(HUD_PART_CONTAINER)
}

enum Kind {
    static let container = hud_node_kind_t(HUD_NODE_KIND_CONTAINER)
    static let slot = hud_node_kind_t(HUD_NODE_KIND_SLOT)
    static let secondary = hud_node_kind_t(HUD_NODE_KIND_SECONDARY)
    static let modeItem = hud_node_kind_t(HUD_NODE_KIND_MODE_ITEM)
}

extension hud_complications_t {
    /// The slot published at `position`, if any.
    func slot(at position: hud_position_t) -> UnsafePointer<hud_slot_t>? {
        switch position {
        case Position.topLeft: slots.0
        case Position.topRight: slots.1
        case Position.bottomLeft: slots.2
        case Position.bottomRight: slots.3
        case Position.center: slots.4
        default: nil
        }
    }
}
