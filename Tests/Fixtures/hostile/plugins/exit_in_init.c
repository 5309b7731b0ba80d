/* SPDX-License-Identifier: MIT */
/*
 * exit_in_init.c — a plugin whose init() calls exit(7). No metadata
 * section, so discovery scans it in a sandboxed child: the host survives
 * and records the failure as `exited`; the other plugins keep working.
 */
#include <stdlib.h>

#include "fixture_common.h"

static hud_status_t exiting_init(void) {
    exit(7);
}

static const hud_renderer_descriptor_t exit_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.hostile.exit-in-init", "Exit in init", fixture_empty_layout),
};

FIXTURE_ENTRY_CUSTOM(exit_descriptors, HUD_ABI_VERSION, sizeof(hud_entry_t), exiting_init())
