/* SPDX-License-Identifier: MIT */
/*
 * entry.h — the one function the C entry (entry.c) takes from Swift: the
 * layout, implemented in Sources/Layout/Layout.swift with
 * @_cdecl("@IDENT@_layout") and linked into the same shared object.
 */
#ifndef ENTRY_H
#define ENTRY_H

#include "@HUD_HEADER@"

hud_status_t @IDENT@_layout(const hud_renderer_descriptor_t *self,
                            const hud_complications_t *complications,
                            const hud_environment_t *environment,
                            const hud_interaction_t *interaction, hud_layout_t *layout);

#endif
