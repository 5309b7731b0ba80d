// SPDX-License-Identifier: MIT
//! ExampleRust: a Hudson HUD renderer in Rust, written against the SDK's
//! generated bindings (Sources/HudRendererAPI/bindings/rust/hud_renderer.rs)
//! and nothing else: no C, no crates, no cargo. The Rust section of
//! Docs/PLUGIN_GUIDE.md walks through it. Build it on its own with
//!
//!     rustc --edition 2021 --crate-type cdylib -O -C panic=abort example_rust.rs -o libexample_rust.so
//!
//! The layout, in points, in a left-to-right working frame (mirrored for
//! RTL at the end, x' = W - x - w):
//!
//!   - a 48 pt circular slot per published position: the corners 16 in from
//!     the safe area, the center centered on the bottom row;
//!   - a secondary chip (a 28 pt circle in a 44 pt hit region) 4 pt beside
//!     its slot on the inner side, toward the screen's centre (the trailing
//!     side for the center): a control when it has an action, a badge
//!     otherwise; the slot stays in its corner;
//!   - a revealed slot's long-press modes: a card 8 pt above a bottom slot
//!     (below a top slot) with one 44 pt item per mode, in rows that fit.
//!
//! Glyphs (ABI 1.1 `glyph_size`): 16 pt in a slot, 22 in the center, 11 in a
//! chip, 14 in a mode item; `hud_layout_push_node` drops the field for a
//! 1.0 host, whose node stride ends before it.
//!
//! Colors come from the host's palette by role. layout() reads only its
//! arguments and allocates nothing, so it declares HUD_CAPABILITY_THREAD_SAFE.
//! A panic must never unwind into the host: build with -C panic=abort (a
//! panic then ends the renderer host's process, which the host reports as a
//! crash of this renderer), and this file does nothing that can panic.

#[path = "../../Sources/HudRendererAPI/bindings/rust/hud_renderer.rs"]
mod hud;

use core::ffi::{c_char, c_void};
use hud::*;

const MARGIN: f64 = 16.0; // from the safe area's edges
const SLOT: f64 = 48.0; // a slot's diameter
const CHIP: f64 = 28.0; // a chip's diameter
const HIT: f64 = 44.0; // the smallest touch target, both ways
const GAP: f64 = 4.0; // slot to chip hit region
const ITEM: f64 = 44.0; // a mode item
const MAX_LENGTH: f64 = 1e6; // larger screens are refused as unsupported

const fn rect(x: f64, y: f64, width: f64, height: f64) -> hud_rect_t {
    hud_rect_t { x, y, width, height }
}

/// True when `text` (a host string, NULL or NUL-terminated) is non-empty.
fn has_text(text: *const c_char) -> bool {
    // SAFETY: host strings are NUL-terminated and valid during layout().
    !text.is_null() && unsafe { *text } != 0
}

/// `icon` when it reads as a word ("star"), else `fallback`: a dotted
/// symbol name ("list.bullet") is never an accessibility label.
fn icon_word(icon: *const c_char, fallback: *const c_char) -> *const c_char {
    if !has_text(icon) {
        return fallback;
    }
    // SAFETY: host strings are NUL-terminated and valid during layout().
    let name = unsafe { core::ffi::CStr::from_ptr(icon) }.to_bytes();
    if name.contains(&b'.') { fallback } else { icon }
}

/// What one layout() call reads, checked.
struct Frame<'a> {
    width: f64,
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
    rtl: bool,
    palette: &'a hud_palette_t,
    interaction: &'a hud_interaction_t,
}

impl Frame<'_> {
    /// Mirrors a working-frame rectangle for RTL.
    fn place(&self, mut r: hud_rect_t) -> hud_rect_t {
        if self.rtl {
            r.x = self.width - r.x - r.width;
        }
        r
    }

    fn pressed(&self, position: hud_position_t, part: hud_part_t, mode: i32) -> bool {
        let ui = self.interaction;
        ui.pressed_position == position && ui.pressed_part == part && (part != HUD_PART_MODE || ui.pressed_mode_index == mode)
    }

    fn push(&self, layout: &mut hud_layout_t, mut node: hud_node_t) {
        node.frame = self.place(node.frame);
        if node.flags & HUD_NODE_FLAG_INTERACTIVE != 0 {
            node.hit = self.place(node.hit);
        }
        // SAFETY: `layout` is the host's, checked in `check`.
        unsafe { hud_layout_push_node(layout, &node) };
    }
}

/// A node standing for (`position`, `part`) with every other field at its
/// "nothing" value.
fn node(kind: hud_node_kind_t, position: hud_position_t, part: hud_part_t) -> hud_node_t {
    hud_node_t { kind, position, part, mode_index: -1, placement: HUD_PLACEMENT_OVERLAY, ..Default::default() }
}

/// A published slot, checked, or Err(status).
fn slot_at<'a>(c: &'a hud_complications_t, position: usize) -> Result<Option<&'a hud_slot_t>, hud_status_t> {
    // SAFETY: a non-NULL slot pointer is valid during layout().
    let Some(slot) = (unsafe { c.slots[position].as_ref() }) else { return Ok(None) };
    if slot.struct_size < HUD_SLOT_SIZE_1_0 || slot.icon.is_null() || slot.mode_count > HUD_MAX_MODES as u32
        || (slot.mode_count > 0 && slot.modes.is_null())
    {
        return Err(HUD_STATUS_INVALID_ARGUMENT);
    }
    // SAFETY: as above, for the chip.
    if let Some(chip) = unsafe { slot.secondary.as_ref() } {
        if chip.struct_size < HUD_SECONDARY_SIZE_1_0 || chip.icon.is_null() {
            return Err(HUD_STATUS_INVALID_ARGUMENT);
        }
    }
    for index in 0..slot.mode_count as usize {
        // SAFETY: `modes` holds `mode_count` pointers.
        match unsafe { (*slot.modes.add(index)).as_ref() } {
            Some(mode) if mode.struct_size >= HUD_MODE_SIZE_1_0 && !mode.icon.is_null() && !mode.label.is_null() => {}
            _ => return Err(HUD_STATUS_INVALID_ARGUMENT),
        }
    }
    Ok(Some(slot))
}

/// Every input checked against the header's rules: sizes against the frozen
/// 1.0 sizes (forward compatible), numbers finite.
fn check<'a>(c: &hud_complications_t, env: &'a hud_environment_t, ui: &'a hud_interaction_t, layout: &hud_layout_t)
    -> Result<Frame<'a>, hud_status_t> {
    if c.struct_size < HUD_COMPLICATIONS_SIZE_1_0 || env.struct_size < HUD_ENVIRONMENT_SIZE_1_0
        || ui.struct_size < HUD_INTERACTION_SIZE_1_0 || layout.struct_size < HUD_LAYOUT_SIZE_1_0
        || layout.node_stride < HUD_NODE_SIZE_1_0 || (layout.capacity > 0 && layout.nodes.is_null())
    {
        return Err(HUD_STATUS_INVALID_ARGUMENT);
    }
    // SAFETY: the palette is valid during layout() when non-NULL.
    let Some(palette) = (unsafe { env.palette.as_ref() }) else { return Err(HUD_STATUS_INVALID_ARGUMENT) };
    if palette.struct_size < HUD_PALETTE_SIZE_1_0 {
        return Err(HUD_STATUS_INVALID_ARGUMENT);
    }
    let inset = env.safe_area;
    let lengths = [env.screen_width, env.screen_height, inset.top, inset.left, inset.bottom, inset.right];
    if lengths.iter().any(|value| !value.is_finite() || *value < 0.0) || env.screen_width <= 0.0 || env.screen_height <= 0.0 {
        return Err(HUD_STATUS_INVALID_ARGUMENT);
    }
    if lengths.iter().any(|value| *value > MAX_LENGTH) {
        return Err(HUD_STATUS_UNSUPPORTED);
    }
    let rtl = env.layout_direction == HUD_LAYOUT_DIRECTION_RTL;
    // Lay out as LTR with the physical left and right insets swapped.
    let (leading, trailing) = if rtl { (inset.right, inset.left) } else { (inset.left, inset.right) };
    Ok(Frame {
        width: env.screen_width,
        left: leading,
        right: env.screen_width - trailing,
        top: inset.top,
        bottom: env.screen_height - inset.bottom,
        rtl,
        palette,
        interaction: ui,
    })
}

/// A slot and its chip; returns the slot's frame (working frame).
fn emit_slot(layout: &mut hud_layout_t, f: &Frame, position: hud_position_t, slot: &hud_slot_t) -> hud_rect_t {
    let chip = unsafe { slot.secondary.as_ref() }; // SAFETY: checked in slot_at.
    let leading = position == HUD_POSITION_TOP_LEFT || position == HUD_POSITION_BOTTOM_LEFT;
    let top_row = position == HUD_POSITION_TOP_LEFT || position == HUD_POSITION_TOP_RIGHT;
    let y = if top_row { f.top + MARGIN } else { f.bottom - MARGIN - SLOT };
    let (slot_x, chip_hit_x) = if position == HUD_POSITION_CENTER {
        let x = f.left + (f.right - f.left - SLOT) / 2.0;
        (x, x + SLOT + GAP)
    } else if leading {
        // The chip goes on the inner (trailing) side, after the slot.
        let x = f.left + MARGIN;
        (x, x + SLOT + GAP)
    } else {
        // The chip goes on the inner (leading) side, before the slot.
        let x = f.right - MARGIN - SLOT;
        (x, x - GAP - HIT)
    };
    let p = f.palette;
    let mut button = node(HUD_NODE_KIND_SLOT, position, HUD_PART_SLOT);
    button.frame = rect(slot_x, y, SLOT, SLOT);
    button.hit = button.frame;
    button.shape = HUD_SHAPE_CIRCLE;
    button.material = HUD_MATERIAL_SOLID;
    button.corner_radius = SLOT / 2.0;
    button.stroke_width = 1.0;
    button.fill = match slot.role {
        HUD_ROLE_ACCENT => p.accent,
        HUD_ROLE_DESTRUCTIVE => p.status_error,
        _ => p.surface, // HUD_ROLE_STANDARD, and roles from a newer host
    };
    button.stroke = p.hairline_standard;
    button.icon_color = if slot.role == HUD_ROLE_ACCENT { p.bg } else { p.ink };
    button.text_color = p.ink;
    button.z = 10;
    button.flags = HUD_NODE_FLAG_INTERACTIVE;
    if f.pressed(position, HUD_PART_SLOT, -1) {
        button.flags |= HUD_NODE_FLAG_PRESSED;
    }
    button.glyph_size = if position == HUD_POSITION_CENTER { 22.0 } else { 16.0 };
    button.icon = slot.icon;
    button.accessibility_label = if has_text(slot.label) { slot.label } else { icon_word(slot.icon, c"Complication".as_ptr()) };
    let frame = button.frame;
    f.push(layout, button);

    if let Some(chip) = chip {
        let mut badge = node(HUD_NODE_KIND_SECONDARY, position, HUD_PART_SECONDARY);
        let inset = (HIT - CHIP) / 2.0;
        badge.frame = rect(chip_hit_x + inset, y + (SLOT - CHIP) / 2.0, CHIP, CHIP);
        badge.shape = HUD_SHAPE_CIRCLE;
        badge.material = HUD_MATERIAL_SOLID;
        badge.corner_radius = CHIP / 2.0;
        badge.stroke_width = 0.5;
        badge.fill = p.surface;
        badge.stroke = p.hairline_subtle;
        badge.icon_color = p.muted;
        badge.z = 11;
        if chip.action.is_some() {
            badge.flags = HUD_NODE_FLAG_INTERACTIVE;
            badge.hit = rect(chip_hit_x, y + (SLOT - HIT) / 2.0, HIT, HIT);
            if f.pressed(position, HUD_PART_SECONDARY, -1) {
                badge.flags |= HUD_NODE_FLAG_PRESSED;
            }
        }
        badge.glyph_size = 11.0;
        badge.icon = chip.icon;
        badge.accessibility_label = if has_text(chip.label) { chip.label } else { icon_word(chip.icon, c"Secondary action".as_ptr()) };
        f.push(layout, badge);
    }
    frame
}

/// The revealed slot's modes: a card with one item per mode.
fn emit_modes(layout: &mut hud_layout_t, f: &Frame, position: hud_position_t, slot: &hud_slot_t, anchor: hud_rect_t) {
    let count = slot.mode_count;
    let room = f.right - f.left - 2.0 * MARGIN - 8.0;
    let per_row = if room >= ITEM { (((room + 4.0) / (ITEM + 4.0)) as u32).clamp(1, count) } else { 1 };
    let rows = count.div_ceil(per_row);
    let card_width = per_row as f64 * ITEM + (per_row - 1) as f64 * 4.0 + 8.0;
    let card_height = rows as f64 * ITEM + (rows - 1) as f64 * 4.0 + 8.0;
    let below = position == HUD_POSITION_TOP_LEFT || position == HUD_POSITION_TOP_RIGHT;
    let x = (anchor.x + anchor.width / 2.0 - card_width / 2.0).min(f.right - MARGIN - card_width).max(f.left + MARGIN);
    let y = if below { anchor.y + anchor.height + 8.0 } else { anchor.y - 8.0 - card_height }.max(f.top);
    let p = f.palette;
    let mut card = node(HUD_NODE_KIND_CONTAINER, position, HUD_PART_CONTAINER);
    card.frame = rect(x, y, card_width, card_height);
    card.shape = HUD_SHAPE_ROUNDED_RECTANGLE;
    card.material = HUD_MATERIAL_SOLID;
    card.corner_radius = 12.0;
    card.fill = p.chrome;
    card.stroke = p.border;
    card.stroke_width = 0.5;
    card.z = 20;
    card.accessibility_label = c"Modes".as_ptr();
    f.push(layout, card);
    for index in 0..count {
        // SAFETY: checked in slot_at: `modes` holds `mode_count` valid pointers.
        let mode = unsafe { &**slot.modes.add(index as usize) };
        let mut item = node(HUD_NODE_KIND_MODE_ITEM, position, HUD_PART_MODE);
        item.mode_index = index as i32;
        let column = (index % per_row) as f64;
        let row = (index / per_row) as f64;
        item.frame = rect(x + 4.0 + column * (ITEM + 4.0), y + 4.0 + row * (ITEM + 4.0), ITEM, ITEM);
        item.hit = item.frame;
        item.shape = HUD_SHAPE_ROUNDED_RECTANGLE;
        item.corner_radius = 8.0;
        item.icon_color = p.ink;
        item.text_color = p.ink;
        item.z = 21;
        item.flags = HUD_NODE_FLAG_INTERACTIVE;
        if f.pressed(position, HUD_PART_MODE, index as i32) {
            item.flags |= HUD_NODE_FLAG_PRESSED;
        }
        // ABI 1.2: the host's current mode is marked (an older host's modes
        // have no flags field).
        if hud_struct_has!(mode, hud_mode_t, flags) && mode.flags & HUD_MODE_FLAG_CURRENT != 0 {
            item.flags |= HUD_NODE_FLAG_SELECTED;
        }
        item.glyph_size = 14.0;
        item.icon = mode.icon;
        item.accessibility_label = if has_text(mode.label) { mode.label } else { icon_word(mode.icon, c"Mode".as_ptr()) };
        f.push(layout, item);
    }
}

/// hud_layout_fn: pure, thread-safe, allocation-free.
extern "C" fn example_layout(this: *const hud_renderer_descriptor_t, complications: *const hud_complications_t,
                             environment: *const hud_environment_t, interaction: *const hud_interaction_t,
                             layout: *mut hud_layout_t) -> hud_status_t {
    // SAFETY: the host passes pointers valid for this call; NULLs are refused.
    let inputs = unsafe { (this.as_ref(), complications.as_ref(), environment.as_ref(), interaction.as_ref(), layout.as_mut()) };
    let (Some(_), Some(c), Some(env), Some(ui), Some(out)) = inputs else { return HUD_STATUS_INVALID_ARGUMENT };
    let f = match check(c, env, ui, out) {
        Ok(frame) => frame,
        Err(status) => return status,
    };
    let mut slots: [Option<&hud_slot_t>; HUD_POSITION_COUNT as usize] = [None; HUD_POSITION_COUNT as usize];
    for (position, entry) in slots.iter_mut().enumerate() {
        match slot_at(c, position) {
            Ok(slot) => *entry = slot,
            Err(status) => return status,
        }
    }
    out.count = 0;
    let mut frames = [rect(0.0, 0.0, 0.0, 0.0); HUD_POSITION_COUNT as usize];
    for (position, slot) in slots.iter().enumerate() {
        if let Some(slot) = slot {
            frames[position] = emit_slot(out, &f, position as hud_position_t, slot);
        }
    }
    let revealed = ui.revealed_position;
    if (0..HUD_POSITION_COUNT).contains(&revealed) {
        if let Some(slot) = slots[revealed as usize].filter(|slot| slot.mode_count > 0) {
            emit_modes(out, &f, revealed, slot, frames[revealed as usize]);
        }
    }
    out.content_insets = hud_insets_t::default(); // floats; the content keeps its size
    out.hidden_positions = 0; // every position is shown
    hud_layout_finish(out)
}

/// hud_get_extension_fn: no extensions.
extern "C" fn example_get_extension(_this: *const hud_renderer_descriptor_t, _id: *const c_char) -> *const c_void {
    core::ptr::null()
}

// The descriptor and its .hud_renderers record from one declaration, and
// the reference-counted entry with the exported hud_renderer_get_entry.
hud_declare_renderer!(EXAMPLE_RUST, EXAMPLE_RUST_METADATA {
    id: "org.hudson.example.rust",
    name: "Rust corners",
    version: "1.0.0",
    vendor: "Hudson examples",
    description: "Slots in the corners and the bottom middle, chips on their inner side; written in Rust.",
    supported_positions: HUD_POSITION_ALL_BITS,
    capabilities: HUD_CAPABILITY_THREAD_SAFE,
    layout: example_layout,
    get_extension: example_get_extension,
    picker_icon: "square.grid.3x3",
});

hud_define_entry!(EXAMPLE_RUST);
