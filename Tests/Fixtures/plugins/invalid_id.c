/* SPDX-License-Identifier: MIT */
/*
 * invalid_id.c — broken: the renderer id "Not A Valid Id" is not
 * lowercase reverse-DNS. Expected: RegistryError.invalidDescriptor on the
 * field "id".
 */
#include "fixture_common.h"

static const hud_renderer_descriptor_t invalid_id_descriptors[] = {
    FIXTURE_DESCRIPTOR("Not A Valid Id", "Invalid id", fixture_empty_layout),
};

FIXTURE_ENTRY(invalid_id_descriptors)
