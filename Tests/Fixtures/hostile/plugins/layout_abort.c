/* SPDX-License-Identifier: MIT */
/*
 * layout_abort.c — a renderer whose layout() calls abort() (SIGABRT).
 * Its init() is fine, so discovery lists it and the trial load passes;
 * only layout() misbehaves. The renderer runs in a sandboxed renderer
 * host: `render --style org.hostile.layout-abort` exits 1 with an error naming the renderer and
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
    (void)layout;
    abort();
}

static const hud_renderer_descriptor_t hostile_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.hostile.layout-abort", "Abort in layout", hostile_layout),
};

FIXTURE_ENTRY(hostile_descriptors)
