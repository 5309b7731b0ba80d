/* SPDX-License-Identifier: MIT */
/*
 * init_fails.c — broken: init() returns HUD_STATUS_INTERNAL_ERROR. The host
 * must not use the plugin (nor call deinit() for that init()).
 * Expected: RegistryError.initFailed with status -3.
 */
#include "fixture_common.h"

static const hud_renderer_descriptor_t init_fails_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.init-fails", "Init fails", fixture_empty_layout),
};

FIXTURE_ENTRY_CUSTOM(init_fails_descriptors, HUD_ABI_VERSION, sizeof(hud_entry_t), HUD_STATUS_INTERNAL_ERROR)
