/* SPDX-License-Identifier: MIT */
/*
 * layout_overrun.c — a renderer whose layout() writes past the end of its node buffer, a byte per page, until the first unmapped page (SIGSEGV).
 * Its init() is fine, so discovery lists it and the trial load passes;
 * only layout() misbehaves. The renderer runs in a sandboxed renderer
 * host: `render --style org.hostile.layout-overrun` exits 1 with an error naming the renderer and
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
    /* Plain stores (no memset a sanitizer could intercept and report),
     * one per page, until one lands on an unmapped page. */
    volatile char *end = (volatile char *)layout->nodes + (size_t)layout->capacity * sizeof(hud_node_t);
    for (size_t offset = 0; offset < ((size_t)1 << 40); offset += 4096) end[offset] = 0x41;
    layout->count = 0;
    return HUD_STATUS_OK;
}

static const hud_renderer_descriptor_t hostile_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.hostile.layout-overrun", "Buffer overrun in layout", hostile_layout),
};

FIXTURE_ENTRY(hostile_descriptors)
