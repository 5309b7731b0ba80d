/* SPDX-License-Identifier: MIT */
/*
 * needs_missing_lib.c — linked against libhudmissingdep.so, which the test
 * deletes after linking: dlopen fails with "cannot open shared object
 * file". Scanning it must become an `open-failed` failure record.
 */
#include "fixture_common.h"

int hud_missing_dependency_value(void);

static hud_status_t dependent_init(void) {
    return hud_missing_dependency_value() == 42 ? HUD_STATUS_OK : HUD_STATUS_INTERNAL_ERROR;
}

static const hud_renderer_descriptor_t dependent_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.needs-missing-lib", "Needs a missing library", fixture_empty_layout),
};

FIXTURE_ENTRY_CUSTOM(dependent_descriptors, HUD_ABI_VERSION, sizeof(hud_entry_t), dependent_init())
