// SPDX-License-Identifier: MIT
//! The Hudson HUD renderer ABI 1.0 (`hud_renderer.h`) as `#[repr(C)]`
//! Rust: the subset this renderer uses, with the C header's names so that
//! the SDK's generated bindings (`bindings/rust/hud_renderer.rs`, next to
//! `hudhost sdk --include-dir`) can replace this file as they are.
//!
//! Every type, field and constant mirrors the header exactly, and is
//! spelled as the generated file spells it; the header (units, owners,
//! thread tags) is the documentation. Integer typedefs are type aliases, C
//! enums are constants of those types, plain integer macros are `i32`
//! (unsigned ones `u32`), nullable function pointers are
//! `Option<unsafe extern "C" fn ...>`, `const char *` is `*const c_char`.

use core::ffi::{c_char, c_void};

// Versions

pub const HUD_ABI_VERSION_MAJOR: i32 = 1;
pub const HUD_ABI_VERSION_MINOR: i32 = 0;
/// `HUD_ABI_MAKE_VERSION(HUD_ABI_VERSION_MAJOR, HUD_ABI_VERSION_MINOR)`.
pub const HUD_ABI_VERSION: u32 = ((HUD_ABI_VERSION_MAJOR as u32) << 16) | (HUD_ABI_VERSION_MINOR as u32 & 0xFFFF);

// Status codes

pub type hud_status_t = i32;
pub const HUD_STATUS_OK: hud_status_t = 0;
pub const HUD_STATUS_BUFFER_TOO_SMALL: hud_status_t = 1;
pub const HUD_STATUS_INVALID_ARGUMENT: hud_status_t = -1;
pub const HUD_STATUS_UNSUPPORTED: hud_status_t = -2;

// Limits

pub const HUD_MAX_MODES: i32 = 64;

// Small value types

pub type hud_rgba_t = u32;

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct hud_rect_t {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct hud_insets_t {
    pub top: f64,
    pub left: f64,
    pub bottom: f64,
    pub right: f64,
}

pub type hud_position_t = i32;
pub const HUD_POSITION_NONE: hud_position_t = -1;
pub const HUD_POSITION_TOP_LEFT: hud_position_t = 0;
pub const HUD_POSITION_TOP_RIGHT: hud_position_t = 1;
pub const HUD_POSITION_BOTTOM_LEFT: hud_position_t = 2;
pub const HUD_POSITION_BOTTOM_RIGHT: hud_position_t = 3;
pub const HUD_POSITION_CENTER: hud_position_t = 4;
pub const HUD_POSITION_COUNT: hud_position_t = 5;
pub const HUD_POSITION_ALL_BITS: u32 = 0x1F;

pub type hud_role_t = i32;
pub const HUD_ROLE_STANDARD: hud_role_t = 0;
pub const HUD_ROLE_ACCENT: hud_role_t = 1;
pub const HUD_ROLE_DESTRUCTIVE: hud_role_t = 2;

pub type hud_layout_direction_t = i32;
pub const HUD_LAYOUT_DIRECTION_LTR: hud_layout_direction_t = 0;
pub const HUD_LAYOUT_DIRECTION_RTL: hud_layout_direction_t = 1;

pub type hud_color_scheme_t = i32;
pub type hud_appearance_t = i32;

pub type hud_action_fn = Option<unsafe extern "C" fn()>;

// Inputs: the complications

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hud_mode_t {
    pub struct_size: u32,
    pub reserved: u32,
    pub id: *const c_char,
    pub icon: *const c_char,
    pub label: *const c_char,
    pub action: hud_action_fn,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hud_secondary_t {
    pub struct_size: u32,
    pub reserved: u32,
    pub icon: *const c_char,
    pub label: *const c_char,
    pub action: hud_action_fn,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hud_slot_t {
    pub struct_size: u32,
    pub role: hud_role_t,
    pub icon: *const c_char,
    pub label: *const c_char,
    pub secondary: *const hud_secondary_t,
    pub modes: *const *const hud_mode_t,
    pub mode_count: u32,
    pub reserved: u32,
    pub action: hud_action_fn,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hud_complications_t {
    pub struct_size: u32,
    pub reserved: u32,
    pub slots: [*const hud_slot_t; 5],
}

// Inputs: the environment

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hud_palette_t {
    pub struct_size: u32,
    pub reserved: u32,
    pub bg: hud_rgba_t,
    pub surface: hud_rgba_t,
    pub chrome: hud_rgba_t,
    pub ink: hud_rgba_t,
    pub muted: hud_rgba_t,
    pub dim: hud_rgba_t,
    pub border: hud_rgba_t,
    pub accent: hud_rgba_t,
    pub status_ok: hud_rgba_t,
    pub status_warn: hud_rgba_t,
    pub status_error: hud_rgba_t,
    pub status_info: hud_rgba_t,
    pub hairline_subtle: hud_rgba_t,
    pub hairline_standard: hud_rgba_t,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hud_environment_t {
    pub struct_size: u32,
    pub layout_direction: hud_layout_direction_t,
    pub screen_width: f64,
    pub screen_height: f64,
    pub safe_area: hud_insets_t,
    pub scale: f64,
    pub text_scale: f64,
    pub color_scheme: hud_color_scheme_t,
    pub appearance: hud_appearance_t,
    pub palette: *const hud_palette_t,
    pub navigation_bar: hud_rect_t,
    pub navigation_title: *const c_char,
    pub accessibility: u32,
    pub reserved: u32,
}

// Inputs: the interaction state

pub type hud_part_t = i32;
pub const HUD_PART_NONE: hud_part_t = -1;
pub const HUD_PART_SLOT: hud_part_t = 0;
pub const HUD_PART_SECONDARY: hud_part_t = 1;
pub const HUD_PART_MODE: hud_part_t = 2;
pub const HUD_PART_CONTAINER: hud_part_t = 3;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hud_interaction_t {
    pub struct_size: u32,
    pub pressed_position: hud_position_t,
    pub pressed_part: hud_part_t,
    pub pressed_mode_index: i32,
    pub revealed_position: hud_position_t,
    pub reserved: u32,
}

// Output: layout nodes

pub type hud_node_kind_t = i32;
pub const HUD_NODE_KIND_CONTAINER: hud_node_kind_t = 0;
pub const HUD_NODE_KIND_SLOT: hud_node_kind_t = 1;
pub const HUD_NODE_KIND_SECONDARY: hud_node_kind_t = 2;
pub const HUD_NODE_KIND_MODE_ITEM: hud_node_kind_t = 3;

pub type hud_shape_t = i32;
pub const HUD_SHAPE_RECTANGLE: hud_shape_t = 0;
pub const HUD_SHAPE_ROUNDED_RECTANGLE: hud_shape_t = 1;
pub const HUD_SHAPE_CIRCLE: hud_shape_t = 2;
pub const HUD_SHAPE_CAPSULE: hud_shape_t = 3;

pub type hud_material_t = i32;
pub const HUD_MATERIAL_NONE: hud_material_t = 0;
pub const HUD_MATERIAL_SOLID: hud_material_t = 1;
pub const HUD_MATERIAL_GLASS: hud_material_t = 2;
pub const HUD_MATERIAL_REGULAR: hud_material_t = 3;

pub type hud_placement_t = i32;
pub const HUD_PLACEMENT_OVERLAY: hud_placement_t = 0;
pub const HUD_PLACEMENT_NAVIGATION_BAR: hud_placement_t = 1;
pub const HUD_PLACEMENT_BOTTOM_INSET: hud_placement_t = 2;

pub const HUD_NODE_FLAG_PRESSED: u32 = 0x1;
pub const HUD_NODE_FLAG_INTERACTIVE: u32 = 0x2;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hud_node_t {
    pub kind: hud_node_kind_t,
    pub position: hud_position_t,
    pub part: hud_part_t,
    pub mode_index: i32,
    pub frame: hud_rect_t,
    pub hit: hud_rect_t,
    pub shape: hud_shape_t,
    pub material: hud_material_t,
    pub corner_radius: f64,
    pub stroke_width: f64,
    pub font_size: f64,
    pub fill: hud_rgba_t,
    pub stroke: hud_rgba_t,
    pub icon_color: hud_rgba_t,
    pub text_color: hud_rgba_t,
    pub placement: hud_placement_t,
    pub z: i32,
    pub flags: u32,
    pub reserved: u32,
    pub icon: *const c_char,
    pub label: *const c_char,
    pub accessibility_label: *const c_char,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hud_layout_t {
    pub struct_size: u32,
    pub node_stride: u32,
    pub nodes: *mut c_void,
    pub capacity: u32,
    pub count: u32,
    pub content_insets: hud_insets_t,
    pub hidden_positions: u32,
    pub reserved: u32,
}

// The renderer descriptor

pub const HUD_CAPABILITY_THREAD_SAFE: u32 = 0x1;

pub type hud_layout_fn = Option<
    unsafe extern "C" fn(
        self_: *const hud_renderer_descriptor_t,
        complications: *const hud_complications_t,
        environment: *const hud_environment_t,
        interaction: *const hud_interaction_t,
        layout: *mut hud_layout_t,
    ) -> hud_status_t,
>;

pub type hud_get_extension_fn = Option<
    unsafe extern "C" fn(self_: *const hud_renderer_descriptor_t, extension_id: *const c_char) -> *const c_void,
>;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hud_renderer_descriptor_t {
    pub struct_size: u32,
    pub capabilities: u32,
    pub id: *const c_char,
    pub name: *const c_char,
    pub version: *const c_char,
    pub vendor: *const c_char,
    pub description: *const c_char,
    pub supported_positions: u32,
    pub reserved: u32,
    pub layout: hud_layout_fn,
    pub get_extension: hud_get_extension_fn,
}

// The entry structure

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hud_entry_t {
    pub abi_version: u32,
    pub struct_size: u32,
    pub init: Option<unsafe extern "C" fn() -> hud_status_t>,
    pub deinit: Option<unsafe extern "C" fn()>,
    pub renderer_count: Option<unsafe extern "C" fn() -> u32>,
    pub renderer_at: Option<unsafe extern "C" fn(index: u32) -> *const hud_renderer_descriptor_t>,
}

// Metadata readable without running plugin code

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hud_renderer_metadata_t {
    pub magic: [c_char; 8],
    pub record_size: u32,
    pub abi_version: u32,
    pub supported_positions: u32,
    pub capabilities: u32,
    pub id: [c_char; 72],
    pub name: [c_char; 136],
    pub version: [c_char; 40],
    pub vendor: [c_char; 136],
}
