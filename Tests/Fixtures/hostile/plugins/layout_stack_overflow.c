/* SPDX-License-Identifier: MIT */
/*
 * layout_stack_overflow.c — a renderer whose layout() recurses without end until the stack overflows.
 * Its init() is fine, so discovery lists it and the trial load passes;
 * only layout() misbehaves. The renderer runs in a sandboxed renderer
 * host: `render --style org.hostile.layout-stack-overflow` exits 1 with an error naming the renderer and
 * the reason, and every other renderer keeps working.
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture_common.h"

/* Never cleared; volatile so the compiler cannot prove the recursion endless. */
static volatile int keep_going = 1;

FIXTURE_LAYOUT_FUNCTION(hostile_layout) {
    if (!keep_going) return HUD_STATUS_OK;
    volatile char frame[4096];
    frame[0] = (char)layout->count;
    hud_layout_t deeper = *layout;
    deeper.count = (uint32_t)frame[0] + 1;
    return hostile_layout(self, complications, environment, interaction, &deeper) + frame[0];
}

static const hud_renderer_descriptor_t hostile_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.hostile.layout-stack-overflow", "Stack overflow in layout", hostile_layout),
};

FIXTURE_ENTRY(hostile_descriptors)
