// SPDX-License-Identifier: MIT
//! @NAME@ (@ID@), a Hudson HUD renderer plugin in Rust.
//!
//! Made by `hudhost new` from the Starter template. It has no dependencies
//! beyond the SDK's generated ABI bindings in `hud_renderer.rs` (the
//! descriptor, its metadata record and the entry come from their
//! `hud_declare_renderer!` and `hud_define_entry!`), keeps no state, and passes
//! `hudhost validate --profile strict` as generated; change the metrics and
//! the placement code below and re-run the validator after every change.
//!
//! The Starter layout, in points, in a left-to-right working frame. For RTL
//! the safe area's left and right insets are swapped first and every
//! rectangle is mirrored at the end (x' = W - x - w), so "left" below means
//! leading.
//!
//! - Corner slots: 48 x 48 rounded squares, 16 inside the safe area's sides;
//!   the top ones 8 below the navigation bar (or the safe top), the bottom
//!   ones 16 above the bottom safe edge.
//! - The center slot: a 56 pt circle at the middle of the safe area,
//!   bottom-aligned with the bottom corners.
//! - A secondary chip: a 24 pt circle on its slot's inner side, toward the
//!   screen's centre (trailing of a leading slot, leading of a trailing slot,
//!   trailing of the center), vertically centered, 12 from the slot, so its
//!   44 x 44 hit region stays clear of the slot's. The slot stays in its
//!   corner.
//! - The revealed slot's long-press modes: items 8 apart in a card (8
//!   padding), each its icon over its label (10 pt at the Large text size,
//!   scaled with it up to 20), all as wide as the widest label needs and at
//!   least 44 x 44, in rows as wide as the safe area allows (16 margins), 12
//!   above a bottom or center slot or 12 below a top one, centered on the
//!   slot and kept inside the safe area. Painted above everything else.
//! - Interactive nodes get a hit region of at least 44 x 44 centered on their
//!   frame; the others an all-zero one. Every node floats: content insets
//!   are zero.
//!
//! Nothing here may panic: a panic aborts the renderer host (Cargo.toml sets
//! `panic = "abort"`, as unwinding into C is undefined), which the host
//! reports as a crash.

/// The SDK's generated bindings (`bindings/rust/hud_renderer.rs`, copied
/// here by `hudhost new`): the C header's names, `#[repr(C)]`, and the
/// helpers used below.
mod hud_renderer;

use core::ffi::{c_char, c_void};
use core::ptr;

use hud_renderer::*;

// What the host reads about this renderer (id, name, version, vendor,
// description) is the `hud_declare_renderer!` at the end of this file.

/// The positions this renderer draws: the descriptor's `supported_positions`.
/// A slot published anywhere else is reported in `hidden_positions` instead.
const POSITIONS: u32 = HUD_POSITION_ALL_BITS;

// ---------------------------------------------------------------------------
// Metrics (pt)
// ---------------------------------------------------------------------------

const CORNER_SIZE: f64 = 48.0; // a corner slot
const CORNER_RADIUS: f64 = 14.0; // its corner radius
const CENTER_SIZE: f64 = 56.0; // the center slot's diameter
const CHIP_SIZE: f64 = 24.0; // a secondary chip's diameter
const CHIP_GAP: f64 = 12.0; // slot edge to chip edge
const SIDE_MARGIN: f64 = 16.0; // slots and the picker from the safe sides
const TOP_MARGIN: f64 = 8.0; // top slots below the navigation bar
const BOTTOM_MARGIN: f64 = 16.0; // bottom slots above the bottom safe edge
const MODE_SIZE: f64 = 44.0; // a mode item, at least, both ways
const MODE_ICON: f64 = 14.0; // its icon, above its label
const MODE_FONT: f64 = 10.0; // its label at text scale 1
const MODE_FONT_MAX: f64 = 20.0; // ... and at the largest text sizes
const MODE_INSET: f64 = 6.0; // around the icon and label, and between them: 2
const MODE_RADIUS: f64 = 10.0; // its corner radius
const MODE_GAP: f64 = 8.0; // between two mode items
const PICKER_PADDING: f64 = 8.0; // the card around its items
const PICKER_RADIUS: f64 = 16.0; // the card's corner radius
const PICKER_OFFSET: f64 = 12.0; // slot edge to card edge
const MIN_HIT: f64 = 44.0; // the smallest touch target, both ways
const MAX_LENGTH: f64 = 1e6; // larger screens are refused as unsupported

// Paint order: slots under their chips, the picker above both.
const Z_SLOT: i32 = 10;
const Z_CHIP: i32 = 11;
const Z_PICKER: i32 = 20;
const Z_MODE: i32 = 21;

// ---------------------------------------------------------------------------
// Small geometry
// ---------------------------------------------------------------------------

/// `value` clamped into [lower, upper]; `lower` wins when they cross.
fn clamp(value: f64, lower: f64, upper: f64) -> f64 {
    value.min(upper).max(lower)
}

fn rect(x: f64, y: f64, width: f64, height: f64) -> hud_rect_t {
    hud_rect_t { x, y, width, height }
}

/// `frame` grown to at least MIN_HIT both ways, around its center.
fn hit_region(frame: hud_rect_t) -> hud_rect_t {
    let width = frame.width.max(MIN_HIT);
    let height = frame.height.max(MIN_HIT);
    rect(frame.x - (width - frame.width) / 2.0, frame.y - (height - frame.height) / 2.0, width, height)
}

// ---------------------------------------------------------------------------
// One layout() call's working frame
// ---------------------------------------------------------------------------

struct Frame<'a> {
    /// The screen's width.
    width: f64,
    /// The safe area, left and right insets swapped in RTL.
    safe: hud_rect_t,
    /// Nothing interactive above this: the navigation bar's bottom.
    top: f64,
    rtl: bool,
    /// The Dynamic Type factor, kept within 0.5...2.
    text_scale: f64,
    palette: &'a hud_palette_t,
    interaction: &'a hud_interaction_t,
}

impl<'a> Frame<'a> {
    fn new(env: &hud_environment_t, palette: &'a hud_palette_t, interaction: &'a hud_interaction_t) -> Self {
        let rtl = env.layout_direction == HUD_LAYOUT_DIRECTION_RTL;
        let mut inset = env.safe_area;
        if rtl {
            // Lay out as LTR with the physical insets swapped.
            core::mem::swap(&mut inset.left, &mut inset.right);
        }
        // Insets larger than the screen leave an empty safe area, never a
        // negative one.
        let x = inset.left.min(env.screen_width);
        let y = inset.top.min(env.screen_height);
        let safe = rect(
            x,
            y,
            (env.screen_width - inset.right - x).max(0.0),
            (env.screen_height - inset.bottom - y).max(0.0),
        );
        let bar = env.navigation_bar;
        let bar_bottom = if bar.height > 0.0 { bar.y + bar.height } else { safe.y };
        Frame {
            width: env.screen_width,
            safe,
            top: clamp(bar_bottom, safe.y, safe.y + safe.height),
            rtl,
            // A NaN fails both comparisons and becomes 0.5.
            text_scale: if !(env.text_scale >= 0.5) {
                0.5
            } else if !(env.text_scale <= 2.0) {
                2.0
            } else {
                env.text_scale
            },
            palette,
            interaction,
        }
    }

    fn is_pressed(&self, position: hud_position_t, part: hud_part_t, mode_index: i32) -> bool {
        let i = self.interaction;
        i.pressed_position == position
            && i.pressed_part == part
            && (part != HUD_PART_MODE || i.pressed_mode_index == mode_index)
    }
}

// ---------------------------------------------------------------------------
// Nodes
// ---------------------------------------------------------------------------

/// `text` if it is non-empty, else `fallback`.
///
/// # Safety
/// `text` is NULL or a NUL-terminated string.
unsafe fn text_or(text: *const c_char, fallback: *const c_char) -> *const c_char {
    // SAFETY: a non-NULL `text` has at least its NUL to read.
    if !text.is_null() && unsafe { *text } != 0 {
        text
    } else {
        fallback
    }
}

/// The characters (UTF-8 code points) of `text`; 0 for NULL.
///
/// # Safety
/// `text` is NULL or a NUL-terminated string.
unsafe fn characters(text: *const c_char) -> f64 {
    if text.is_null() {
        return 0.0;
    }
    // SAFETY: a non-NULL `text` is NUL-terminated.
    let bytes = unsafe { core::ffi::CStr::from_ptr(text) }.to_bytes();
    bytes.iter().filter(|&&byte| byte & 0xC0 != 0x80).count() as f64
}

/// An icon's name when it reads as a word ("star"), else `fallback`: a
/// dotted symbol name ("list.bullet") is never an accessibility label.
///
/// # Safety
/// `icon` is NULL or a NUL-terminated string.
unsafe fn icon_word(icon: *const c_char, fallback: *const c_char) -> *const c_char {
    if icon.is_null() {
        return fallback;
    }
    // SAFETY: a non-NULL `icon` is NUL-terminated.
    let name = unsafe { core::ffi::CStr::from_ptr(icon) }.to_bytes();
    if name.is_empty() || name.contains(&b'.') {
        fallback
    } else {
        icon
    }
}

/// Hudson's tintStrong: the color at 60% opacity.
fn tint_strong(color: hud_rgba_t) -> hud_rgba_t {
    (color & 0xFFFF_FF00) | 0x99
}

/// A solid node with every field but colors and strings set; interactive
/// ones get their hit region and pressed state.
#[allow(clippy::too_many_arguments)]
fn node(
    f: &Frame,
    kind: hud_node_kind_t,
    position: hud_position_t,
    part: hud_part_t,
    mode_index: i32,
    frame: hud_rect_t,
    shape: hud_shape_t,
    corner_radius: f64,
    z: i32,
    interactive: bool,
) -> hud_node_t {
    let mut node = hud_node_t {
        kind,
        position,
        part,
        mode_index,
        frame,
        shape,
        material: HUD_MATERIAL_SOLID,
        corner_radius,
        placement: HUD_PLACEMENT_OVERLAY,
        z,
        // The rest all zero, as the C `hud_node_t node = {0}`: no hit
        // region, colors, strings or flags yet.
        ..hud_node_t::default()
    };
    if interactive {
        node.hit = hit_region(frame);
        node.flags = HUD_NODE_FLAG_INTERACTIVE;
        if f.is_pressed(position, part, mode_index) {
            node.flags |= HUD_NODE_FLAG_PRESSED;
        }
    }
    node
}

/// Mirrors a node for RTL and appends it with `hud_layout_push_node`, which
/// copies only the bytes both sides know (the host's node_stride may differ
/// from our size_of) and counts the node even when the buffer is full: the
/// two-call idiom.
fn push(out: &mut hud_layout_t, f: &Frame, mut node: hud_node_t) {
    if f.rtl {
        node.frame.x = f.width - node.frame.x - node.frame.width;
        if node.flags & HUD_NODE_FLAG_INTERACTIVE != 0 {
            node.hit.x = f.width - node.hit.x - node.hit.width;
        }
    }
    // SAFETY: `out` is the host's layout, and check() made sure `nodes`
    // holds `capacity` nodes of `node_stride` bytes.
    unsafe { hud_layout_push_node(out, &node) };
}

/// A slot button in its role's colors.
fn emit_slot(out: &mut hud_layout_t, f: &Frame, position: hud_position_t, slot: &hud_slot_t, frame: hud_rect_t) {
    let pal = f.palette;
    let center = position == HUD_POSITION_CENTER;
    let (shape, radius) = if center {
        (HUD_SHAPE_CIRCLE, frame.width / 2.0)
    } else {
        (HUD_SHAPE_ROUNDED_RECTANGLE, CORNER_RADIUS)
    };
    let mut n = node(f, HUD_NODE_KIND_SLOT, position, HUD_PART_SLOT, -1, frame, shape, radius, Z_SLOT, true);
    (n.fill, n.icon_color, n.stroke) = match slot.role {
        HUD_ROLE_ACCENT => (pal.accent, pal.bg, tint_strong(pal.accent)),
        HUD_ROLE_DESTRUCTIVE => (pal.status_error, pal.ink, tint_strong(pal.status_error)),
        // HUD_ROLE_STANDARD, and roles from a newer host.
        _ => (pal.surface, pal.ink, pal.hairline_standard),
    };
    n.stroke_width = 1.0;
    // ABI 1.1: the glyph's size in pt (0 = the host's default); push()
    // copies only what the host's node_stride covers, so a 1.0 host never
    // sees it.
    n.glyph_size = if center { 22.0 } else { 16.0 };
    n.icon = slot.icon;
    // SAFETY: the host's strings are NULL or NUL-terminated.
    n.accessibility_label = unsafe { text_or(slot.label, icon_word(slot.icon, c"Complication".as_ptr())) };
    push(out, f, n);
}

/// A secondary chip: a control when it has an action, else a badge.
fn emit_chip(out: &mut hud_layout_t, f: &Frame, position: hud_position_t, chip: &hud_secondary_t, frame: hud_rect_t) {
    let pal = f.palette;
    let interactive = chip.action.is_some();
    let mut n = node(f, HUD_NODE_KIND_SECONDARY, position, HUD_PART_SECONDARY, -1, frame, HUD_SHAPE_CIRCLE,
                     frame.width / 2.0, Z_CHIP, interactive);
    n.fill = pal.surface;
    n.icon_color = pal.muted;
    n.stroke = pal.hairline_subtle;
    n.stroke_width = 0.5;
    n.icon = chip.icon;
    // SAFETY: the host's strings are NULL or NUL-terminated.
    n.accessibility_label = unsafe { text_or(chip.label, icon_word(chip.icon, c"Secondary".as_ptr())) };
    push(out, f, n);
}

/// A slot and its chip; returns the slot's frame. (x, y) is the slot's
/// top-left corner; the chip goes on the slot's left when `chip_on_left`.
#[allow(clippy::too_many_arguments)]
fn emit_group(
    out: &mut hud_layout_t,
    f: &Frame,
    position: hud_position_t,
    slot: &hud_slot_t,
    x: f64,
    y: f64,
    size: f64,
    chip_on_left: bool,
) -> hud_rect_t {
    let frame = rect(x, y, size, size);
    emit_slot(out, f, position, slot, frame);
    // SAFETY: check() made sure a non-NULL secondary covers the 1.0 fields.
    if let Some(chip) = unsafe { slot.secondary.as_ref() } {
        let chip_x = if chip_on_left { x - CHIP_GAP - CHIP_SIZE } else { x + size + CHIP_GAP };
        let chip_y = y + (size - CHIP_SIZE) / 2.0;
        emit_chip(out, f, position, chip, rect(chip_x, chip_y, CHIP_SIZE, CHIP_SIZE));
    }
    frame
}

/// The revealed slot's modes: a non-interactive CONTAINER card, then one
/// MODE_ITEM per mode, leading to trailing and top to bottom.
fn emit_picker(out: &mut hud_layout_t, f: &Frame, position: hud_position_t, slot: &hud_slot_t, slot_frame: hud_rect_t) {
    let count = slot.mode_count; // 1...HUD_MAX_MODES here
    let room = f.safe.width - 2.0 * SIDE_MARGIN - 2.0 * PICKER_PADDING;
    // SAFETY: check() made sure `modes` holds mode_count non-NULL modes
    // covering the 1.0 fields.
    let mode_at = |i: u32| -> &hud_mode_t { unsafe { &**slot.modes.add(i as usize) } };
    // Every item as wide as the widest label needs (an average glyph is 0.55
    // of the font size; the host truncates what does not fit) and as tall
    // as inset, icon, 2, a line of label and inset.
    let font = (MODE_FONT * f.text_scale).min(MODE_FONT_MAX);
    // SAFETY: the host's strings are NULL or NUL-terminated.
    let widest = (0..count).map(|i| unsafe { characters(mode_at(i).label) }).fold(0.0, f64::max);
    let item_width = (widest * font * 0.55 + 2.0 * MODE_INSET).min(room).max(MODE_SIZE);
    let item_height = (2.0 * MODE_INSET + MODE_ICON + 2.0 + (font * 1.2).ceil()).max(MODE_SIZE);
    let fit = (room + MODE_GAP) / (item_width + MODE_GAP); // items per row; may be < 1
    let columns = if fit >= count as f64 {
        count
    } else if fit >= 1.0 {
        fit as u32
    } else {
        1
    };
    let rows = count.div_ceil(columns);
    let width = columns as f64 * (item_width + MODE_GAP) - MODE_GAP + 2.0 * PICKER_PADDING;
    let height = rows as f64 * (item_height + MODE_GAP) - MODE_GAP + 2.0 * PICKER_PADDING;

    let opens_below = position == HUD_POSITION_TOP_LEFT || position == HUD_POSITION_TOP_RIGHT;
    let y = if opens_below {
        slot_frame.y + slot_frame.height + PICKER_OFFSET
    } else {
        slot_frame.y - PICKER_OFFSET - height
    };
    let x = slot_frame.x + slot_frame.width / 2.0 - width / 2.0;
    let card = rect(
        clamp(x, f.safe.x + SIDE_MARGIN, f.safe.x + f.safe.width - SIDE_MARGIN - width),
        clamp(y, f.top, f.safe.y + f.safe.height - height),
        width,
        height,
    );

    let mut n = node(f, HUD_NODE_KIND_CONTAINER, position, HUD_PART_CONTAINER, -1, card,
                     HUD_SHAPE_ROUNDED_RECTANGLE, PICKER_RADIUS, Z_PICKER, false);
    n.fill = f.palette.chrome;
    n.stroke = f.palette.border;
    n.stroke_width = 1.0;
    n.accessibility_label = c"Modes".as_ptr();
    push(out, f, n);

    for i in 0..count {
        let mode = mode_at(i);
        let frame = rect(
            card.x + PICKER_PADDING + (i % columns) as f64 * (item_width + MODE_GAP),
            card.y + PICKER_PADDING + (i / columns) as f64 * (item_height + MODE_GAP),
            item_width,
            item_height,
        );
        let mut item = node(f, HUD_NODE_KIND_MODE_ITEM, position, HUD_PART_MODE, i as i32, frame,
                            HUD_SHAPE_ROUNDED_RECTANGLE, MODE_RADIUS, Z_MODE, true);
        item.fill = f.palette.surface;
        item.icon_color = f.palette.ink;
        item.stroke = f.palette.hairline_standard;
        item.stroke_width = 1.0;
        item.text_color = f.palette.ink;
        item.icon = mode.icon;
        item.glyph_size = MODE_ICON; // ABI 1.1; see emit_slot
        // The label, shown under the icon; a mode without one shows only its icon.
        item.label = mode.label;
        // SAFETY: the host's strings are NULL or NUL-terminated.
        item.font_size = if unsafe { characters(mode.label) } > 0.0 { font } else { 0.0 };
        // SAFETY: as above.
        item.accessibility_label = unsafe { text_or(mode.label, icon_word(mode.icon, c"Mode".as_ptr())) };
        // ABI 1.2: the host flags the slot's current mode (the style in use
        // in a style picker); its item is marked selected. An older host's
        // modes have no flags field.
        if hud_struct_has!(mode, hud_mode_t, flags) && mode.flags & HUD_MODE_FLAG_CURRENT != 0 {
            item.flags |= HUD_NODE_FLAG_SELECTED;
        }
        push(out, f, item);
    }
}

// ---------------------------------------------------------------------------
// layout()
// ---------------------------------------------------------------------------

struct Inputs<'a> {
    complications: &'a hud_complications_t,
    environment: &'a hud_environment_t,
    palette: &'a hud_palette_t,
    interaction: &'a hud_interaction_t,
    out: &'a mut hud_layout_t,
}

/// Every input this renderer reads, checked against the header's rules:
/// INVALID_ARGUMENT for what breaks them, UNSUPPORTED for screens too large
/// to lay out.
///
/// Sizes are compared with the frozen 1.0 sizes (`HUD_*_SIZE_1_0`), never
/// with `size_of`: every field read here is in ABI 1.0, so a 1.0 host's
/// structures are accepted even after an update to bindings of a newer 1.x
/// header, whose structures have grown. Read a field added after 1.0 only
/// when `hud_struct_has!(value, type, field)` says the host's structure has
/// it, and use zero (its 1.0 meaning) when it does not.
///
/// # Safety
/// Each pointer is NULL or points to the host's structure of that type, as
/// the header promises for layout()'s arguments.
unsafe fn check<'a>(
    c: *const hud_complications_t,
    env: *const hud_environment_t,
    interaction: *const hud_interaction_t,
    layout: *mut hud_layout_t,
) -> Result<Inputs<'a>, hud_status_t> {
    // SAFETY: non-NULL pointers point to the host's structures, at least
    // their 1.0 size (the caller's promise); each struct_size is checked
    // before any other field is used.
    unsafe {
        let (Some(c), Some(env), Some(interaction), Some(out)) =
            (c.as_ref(), env.as_ref(), interaction.as_ref(), layout.as_mut())
        else {
            return Err(HUD_STATUS_INVALID_ARGUMENT);
        };
        if c.struct_size < HUD_COMPLICATIONS_SIZE_1_0
            || env.struct_size < HUD_ENVIRONMENT_SIZE_1_0
            || interaction.struct_size < HUD_INTERACTION_SIZE_1_0
            || out.struct_size < HUD_LAYOUT_SIZE_1_0
            || out.node_stride < HUD_NODE_SIZE_1_0 // push_node copies what both know
            || (out.capacity > 0 && out.nodes.is_null())
        {
            return Err(HUD_STATUS_INVALID_ARGUMENT);
        }
        let Some(palette) = env.palette.as_ref() else { return Err(HUD_STATUS_INVALID_ARGUMENT) };
        if palette.struct_size < HUD_PALETTE_SIZE_1_0 {
            return Err(HUD_STATUS_INVALID_ARGUMENT);
        }
        let inset = env.safe_area;
        let lengths = [env.screen_width, env.screen_height, inset.top, inset.left, inset.bottom, inset.right,
                       env.navigation_bar.y, env.navigation_bar.height];
        for length in lengths {
            // NaN, infinite or negative: invalid; merely huge: unsupported.
            if !(length >= 0.0 && length.is_finite()) {
                return Err(HUD_STATUS_INVALID_ARGUMENT);
            }
            if length > MAX_LENGTH {
                return Err(HUD_STATUS_UNSUPPORTED);
            }
        }
        if env.screen_width <= 0.0 || env.screen_height <= 0.0 {
            return Err(HUD_STATUS_INVALID_ARGUMENT);
        }
        for &slot in &c.slots {
            let Some(slot) = slot.as_ref() else { continue };
            if slot.struct_size < HUD_SLOT_SIZE_1_0
                || slot.mode_count > HUD_MAX_MODES as u32
                || (slot.mode_count > 0 && slot.modes.is_null())
            {
                return Err(HUD_STATUS_INVALID_ARGUMENT);
            }
            if let Some(chip) = slot.secondary.as_ref() {
                if chip.struct_size < HUD_SECONDARY_SIZE_1_0 {
                    return Err(HUD_STATUS_INVALID_ARGUMENT);
                }
            }
            for m in 0..slot.mode_count as usize {
                match (*slot.modes.add(m)).as_ref() {
                    Some(mode) if mode.struct_size >= HUD_MODE_SIZE_1_0 => {}
                    _ => return Err(HUD_STATUS_INVALID_ARGUMENT),
                }
            }
        }
        Ok(Inputs { complications: c, environment: env, palette, interaction, out })
    }
}

unsafe extern "C" fn starter_layout(
    self_: *const hud_renderer_descriptor_t,
    complications: *const hud_complications_t,
    environment: *const hud_environment_t,
    interaction: *const hud_interaction_t,
    layout: *mut hud_layout_t,
) -> hud_status_t {
    if self_.is_null() {
        return HUD_STATUS_INVALID_ARGUMENT;
    }
    // SAFETY: layout()'s arguments are NULL or the host's structures.
    let inputs = match unsafe { check(complications, environment, interaction, layout) } {
        Ok(inputs) => inputs,
        Err(status) => return status,
    };
    let Inputs { complications: c, environment: env, palette, interaction, out } = inputs;
    let f = Frame::new(env, palette, interaction);
    let safe = f.safe;
    let top = f.top + TOP_MARGIN;
    let bottom = safe.y + safe.height - BOTTOM_MARGIN; // bottom slots end here

    out.count = 0;
    out.hidden_positions = 0;
    let mut frames = [hud_rect_t::default(); 5]; // each shown slot's frame, LTR
    for p in 0..HUD_POSITION_COUNT {
        // SAFETY: check() validated every non-NULL slot.
        let Some(slot) = (unsafe { c.slots[p as usize].as_ref() }) else { continue };
        if POSITIONS & hud_position_bit(p) == 0 {
            out.hidden_positions |= hud_position_bit(p);
            continue;
        }
        frames[p as usize] = if p == HUD_POSITION_CENTER {
            // The chip on the trailing side.
            emit_group(out, &f, p, slot, safe.x + safe.width / 2.0 - CENTER_SIZE / 2.0, bottom - CENTER_SIZE,
                       CENTER_SIZE, false)
        } else {
            let leading = p == HUD_POSITION_TOP_LEFT || p == HUD_POSITION_BOTTOM_LEFT;
            let on_top = p == HUD_POSITION_TOP_LEFT || p == HUD_POSITION_TOP_RIGHT;
            let x = if leading {
                safe.x + SIDE_MARGIN
            } else {
                safe.x + safe.width - SIDE_MARGIN - CORNER_SIZE
            };
            let y = if on_top { top } else { bottom - CORNER_SIZE };
            // The chip on the inner side: right of a leading slot.
            emit_group(out, &f, p, slot, x, y, CORNER_SIZE, !leading)
        };
    }

    // The host reveals only a slot with modes; draw the picker only for a
    // slot this layout shows.
    let revealed = interaction.revealed_position;
    if (0..HUD_POSITION_COUNT).contains(&revealed) && POSITIONS & hud_position_bit(revealed) != 0 {
        // SAFETY: check() validated every non-NULL slot.
        if let Some(slot) = unsafe { c.slots[revealed as usize].as_ref() } {
            if slot.mode_count > 0 {
                emit_picker(out, &f, revealed, slot, frames[revealed as usize]);
            }
        }
    }

    out.content_insets = hud_insets_t::default(); // everything floats
    hud_layout_finish(out)
}

// ---------------------------------------------------------------------------
// The descriptor, its metadata record and the entry
// ---------------------------------------------------------------------------

unsafe extern "C" fn starter_get_extension(
    _self: *const hud_renderer_descriptor_t,
    _extension_id: *const c_char,
) -> *const c_void {
    ptr::null() // no extensions
}

// The descriptor `STARTER` and its metadata record `STARTER_METADATA` in
// the .hud_renderers ELF section (which lets `hudhost list` show this
// plugin without running any of its code), from this one declaration: the
// host refuses a renderer whose record and descriptor disagree, and here
// they cannot. The strings are literals, each checked at compile time
// against its limit; the version is this renderer's, independent of the
// crate version in Cargo.toml.
hud_declare_renderer!(STARTER, STARTER_METADATA {
    id: "@ID@",
    name: "@NAME@",
    version: "0.1.0",
    vendor: "Example vendor", // your name or organization
    description: "Corner slots in the safe area's corners, the center slot at the bottom middle, chips on the \
                  inner side, long-press modes in a card beside the slot.",
    supported_positions: POSITIONS,
    // layout() reads only its arguments and keeps nothing.
    capabilities: HUD_CAPABILITY_THREAD_SAFE,
    layout: starter_layout,
    get_extension: starter_get_extension,
    // What a style picker shows for this renderer (ABI 1.2).
    picker_icon: "paintpalette",
});

// The entry: init()/deinit() reference counted, renderer_count() 0 until
// init(), renderer_at() NULL past the end, and the exported
// hud_renderer_get_entry(), the one symbol the host looks up.
hud_define_entry!(STARTER);
