/* SPDX-License-Identifier: MIT */
/*
 * hud_renderer.h — the Hudson HUD renderer ABI, version 1.1.
 *
 * The one contract between a host (hudhost, HudRegistry) and every HUD
 * renderer, built-in or third-party. A renderer turns a page's five
 * complications plus an environment (device, palette, direction, ...) into a
 * flat list of layout nodes. It draws nothing and owns no gestures: the host
 * presents the nodes and runs the actions.
 *
 * This is the umbrella header: including it gives the whole SDK, split by
 * topic into headers beside it in the SDK include directory
 * (<prefix>/include/hud/, `hudhost sdk --include-dir`):
 *
 *   hud_abi.h       the binary contract: versions, status codes, limits,
 *                   value types, complications, environment, interaction,
 *                   nodes, layout, the descriptor, the entry, the frozen
 *                   1.0 and 1.1 sizes (HUD_*_SIZE_1_0, HUD_*_SIZE_1_1) and
 *                   HUD_STRUCT_HAS; its
 *                   comment states the conventions (threads, owners,
 *                   strings, units, sizes, failures) every contract below
 *                   relies on
 *   hud_metadata.h  the .hud_renderers ELF record hosts read without
 *                   running plugin code (HUD_RENDERER_METADATA)
 *   hud_helpers.h   C conveniences built on those: hud_layout_push_node,
 *                   hud_layout_finish, HUD_LAYOUT_HAS_NODE_FIELD,
 *                   HUD_DECLARE_RENDERER, HUD_DEFINE_ENTRY
 *
 * Build a plugin with -I<that directory> and `#include "hud_renderer.h"`.
 * Other languages: bindings/rust/hud_renderer.rs next to the include
 * directory is generated from these headers (Scripts/gen-rust-bindings.py).
 *
 * C11 and C++ compatible; includes only standard headers.
 */
#ifndef HUD_RENDERER_H
#define HUD_RENDERER_H

#include "hud_abi.h"
#include "hud_metadata.h"
#include "hud_helpers.h"

#endif /* HUD_RENDERER_H */
