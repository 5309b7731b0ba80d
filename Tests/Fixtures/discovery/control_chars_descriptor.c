/* SPDX-License-Identifier: MIT */
/*
 * control_chars_descriptor.c — a descriptor name with a newline and an ANSI
 * escape, which would draw a fake row in `hudhost list`. No metadata
 * section, so it is scanned; loading must refuse the descriptor.
 */
#include "fixture_common.h"

static const hud_renderer_descriptor_t control_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.control-chars", "Ring\n\x1b[32mcom.fake.renderer   Fake", fixture_empty_layout),
};

FIXTURE_ENTRY(control_descriptors)
