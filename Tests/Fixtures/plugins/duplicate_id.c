/* SPDX-License-Identifier: MIT */
/*
 * duplicate_id.c — a correct plugin whose renderer id, org.fixture.simple,
 * is also good_simple's. Loaded after good_simple, the host must keep
 * good_simple's renderer and report RegistryError.duplicateID naming both
 * files. Its layout emits no nodes, so a test can tell which one was kept.
 */
#include "fixture_common.h"

static const hud_renderer_descriptor_t duplicate_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.simple", "Simple impostor", fixture_empty_layout),
};

FIXTURE_ENTRY(duplicate_descriptors)
