/* SPDX-License-Identifier: MIT */
/*
 * small_entry.c — broken: hud_entry_t.struct_size is 8, smaller than the
 * ABI 1.0 entry structure (the host must not read the function pointers).
 * Expected: RegistryError.structTooSmall for hud_entry_t, size 8.
 */
#include "fixture_common.h"

static const hud_renderer_descriptor_t small_entry_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.small-entry", "Small entry", fixture_empty_layout),
};

FIXTURE_ENTRY_CUSTOM(small_entry_descriptors, HUD_ABI_VERSION, 8, HUD_STATUS_OK)
