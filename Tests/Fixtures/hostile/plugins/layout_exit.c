/* SPDX-License-Identifier: MIT */
/*
 * layout_exit.c — a renderer whose layout() calls exit(0): in-process this made render --format json exit 0 with empty stdout.
 * Its init() is fine, so discovery lists it and the trial load passes;
 * only layout() misbehaves. The renderer runs in a sandboxed renderer
 * host: `render --style org.hostile.layout-exit` exits 1 with an error naming the renderer and
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
    exit(0);
}

static const hud_renderer_descriptor_t hostile_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.hostile.layout-exit", "Exit in layout", hostile_layout),
};

FIXTURE_ENTRY(hostile_descriptors)
