/* SPDX-License-Identifier: MIT */
/*
 * small_descriptor.c — broken: the one descriptor's struct_size is 16,
 * smaller than the ABI 1.0 descriptor. Everything else is correct.
 * Expected: RegistryError.structTooSmall for hud_renderer_descriptor_t,
 * size 16, and no renderer registered.
 */
#include "fixture_common.h"

static const hud_renderer_descriptor_t small_descriptor_descriptors[] = {
    {
        .struct_size = 16,
        .id = "org.fixture.small-descriptor",
        .name = "Small descriptor",
        .version = "1.0.0",
        .vendor = "Hudson fixtures",
        .description = "A descriptor that claims to be 16 bytes.",
        .supported_positions = HUD_POSITION_ALL_BITS,
        .layout = fixture_empty_layout,
        .get_extension = fixture_no_extension,
    },
};

FIXTURE_ENTRY(small_descriptor_descriptors)
