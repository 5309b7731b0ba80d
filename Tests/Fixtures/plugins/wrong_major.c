/* SPDX-License-Identifier: MIT */
/*
 * wrong_major.c — broken: built for renderer ABI 2.0 (major 2), which this
 * host (major 1) must refuse before calling anything else in the plugin.
 * Expected: RegistryError.incompatibleABI with pluginVersion "2.0".
 */
#include "fixture_common.h"

static const hud_renderer_descriptor_t wrong_major_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.wrong-major", "Wrong major", fixture_empty_layout),
};

FIXTURE_ENTRY_CUSTOM(wrong_major_descriptors, HUD_ABI_MAKE_VERSION(2, 0), sizeof(hud_entry_t), HUD_STATUS_OK)
