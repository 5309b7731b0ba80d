/* SPDX-License-Identifier: MIT */
/*
 * crash_on_load.c — no metadata section, and init() dereferences NULL.
 * Scanning it must become a `crashed` failure record; the host survives.
 */
#include "fixture_common.h"

static volatile int *crash_target;

static hud_status_t crashing_init(void) {
    *crash_target = 1;
    return HUD_STATUS_OK;
}

static const hud_renderer_descriptor_t crash_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.crash-on-load", "Crash on load", fixture_empty_layout),
};

FIXTURE_ENTRY_CUSTOM(crash_descriptors, HUD_ABI_VERSION, sizeof(hud_entry_t), crashing_init())
