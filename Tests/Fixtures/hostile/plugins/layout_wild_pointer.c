/* SPDX-License-Identifier: MIT */
/*
 * layout_wild_pointer.c — a renderer whose layout() returns a node whose label points at unmapped memory.
 * Its init() is fine, so discovery lists it and the trial load passes;
 * only layout() misbehaves. The renderer runs in a sandboxed renderer
 * host: `render --style org.hostile.layout-wild-pointer` exits 1 with an error naming the renderer and
 * the reason, and every other renderer keeps working.
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture_common.h"

FIXTURE_LAYOUT_FUNCTION(hostile_layout) {
    FIXTURE_UNUSED_INPUTS;
    if (layout->capacity < 1) {
        layout->count = 1;
        return HUD_STATUS_BUFFER_TOO_SMALL;
    }
    hud_node_t *node = (hud_node_t *)layout->nodes;
    node->kind = HUD_NODE_KIND_CONTAINER;
    node->position = HUD_POSITION_NONE;
    node->part = HUD_PART_NONE;
    node->mode_index = -1;
    node->label = (const char *)(uintptr_t)0x10;
    layout->count = 1;
    return HUD_STATUS_OK;
}

static const hud_renderer_descriptor_t hostile_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.hostile.layout-wild-pointer", "Wild pointer in layout", hostile_layout),
};

FIXTURE_ENTRY(hostile_descriptors)
