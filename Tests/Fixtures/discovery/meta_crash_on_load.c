/* SPDX-License-Identifier: MIT */
/*
 * meta_crash_on_load.c — a correct .hud_renderers section (so listing it
 * runs no code), but init() dereferences NULL. Its first load must happen
 * in the sandbox: render and demo keep working, the file is recorded as
 * crashed, and it is skipped until it changes.
 */
#include "fixture_common.h"

static volatile int *meta_crash_target;

static hud_status_t meta_crashing_init(void) {
    *meta_crash_target = 1;
    return HUD_STATUS_OK;
}

static const hud_renderer_descriptor_t meta_crash_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.meta-crash", "Meta crash", fixture_empty_layout),
};

HUD_RENDERER_METADATA(meta_crash_record, "org.fixture.meta-crash", "Meta crash", "1.0.0", "Hudson fixtures",
                      HUD_POSITION_ALL_BITS, 0);

FIXTURE_ENTRY_CUSTOM(meta_crash_descriptors, HUD_ABI_VERSION, sizeof(hud_entry_t), meta_crashing_init())
