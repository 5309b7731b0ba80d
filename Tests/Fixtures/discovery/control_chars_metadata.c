/* SPDX-License-Identifier: MIT */
/*
 * control_chars_metadata.c — a .hud_renderers record whose vendor carries a
 * carriage return and an escape sequence. Listing must report bad-metadata
 * and never print the string.
 */
#include "fixture_common.h"

static const hud_renderer_descriptor_t control_meta_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.control-meta", "Control meta", fixture_empty_layout),
};

HUD_RENDERER_METADATA(control_meta_record, "org.fixture.control-meta", "Control meta", "1.0.0", "Evil\r\x1b[2K",
                      HUD_POSITION_ALL_BITS, 0);

FIXTURE_ENTRY(control_meta_descriptors)
