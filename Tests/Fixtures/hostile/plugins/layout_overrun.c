/*
 * layout_overrun.c — a renderer whose layout() writes 64 MiB past the end of its node buffer (SIGSEGV at the first unmapped page).
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

static hud_status_t hostile_layout(const hud_renderer_descriptor_t *self, const hud_complications_t *complications,
                                   const hud_environment_t *environment, const hud_interaction_t *interaction,
                                   hud_layout_t *layout) {
    (void)self;
    (void)complications;
    (void)environment;
    (void)interaction;
    memset((char *)layout->nodes, 0x41, (size_t)64 << 20);
    layout->count = 0;
    return HUD_STATUS_OK;
}

static const hud_renderer_descriptor_t hostile_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.hostile.layout-overrun", "Buffer overrun in layout", hostile_layout),
};

FIXTURE_ENTRY(hostile_descriptors)
