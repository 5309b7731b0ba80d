/* SPDX-License-Identifier: MIT */
/*
 * null_layout.c — broken: the descriptor's layout function is NULL.
 * Expected: RegistryError.invalidDescriptor on the field "layout", and no
 * renderer registered.
 */
#include "fixture_common.h"

static const hud_renderer_descriptor_t null_layout_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.null-layout", "Null layout", NULL),
};

FIXTURE_ENTRY(null_layout_descriptors)
