/* SPDX-License-Identifier: MIT */
/*
 * hang_on_load.c — no metadata section, and init() never returns.
 * Scanning it must become a `timed-out` failure record.
 */
#include "fixture_common.h"

static hud_status_t hanging_init(void) {
    for (volatile unsigned long spin = 0;; spin++) {
    }
    return HUD_STATUS_OK;
}

static const hud_renderer_descriptor_t hang_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.hang-on-load", "Hang on load", fixture_empty_layout),
};

FIXTURE_ENTRY_CUSTOM(hang_descriptors, HUD_ABI_VERSION, sizeof(hud_entry_t), hanging_init())
