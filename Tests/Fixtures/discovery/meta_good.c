/* SPDX-License-Identifier: MIT */
/*
 * meta_good.c — a correct plugin that also carries its metadata in the
 * .hud_renderers ELF section, so `hudhost list` never needs to run it.
 * Its constructor appends a line to $HUD_FIXTURE_MARKER when that is set:
 * tests use it to prove that listing runs no plugin code.
 * Build with -DFIXTURE_ID='"org.scale.p0000"' to change the id (the scale
 * test instead patches the bytes "p0000" in copies of one build).
 */
#include <stdio.h>
#include <stdlib.h>

#include "fixture_common.h"

#ifndef FIXTURE_ID
#define FIXTURE_ID "org.scale.p0000"
#endif

__attribute__((constructor)) static void meta_good_mark(void) {
    const char *marker = getenv("HUD_FIXTURE_MARKER");
    if (marker == NULL) return;
    FILE *file = fopen(marker, "a");
    if (file == NULL) return;
    fputs(FIXTURE_ID " constructor ran\n", file);
    fclose(file);
}

static const hud_renderer_descriptor_t meta_good_descriptors[] = {
    FIXTURE_DESCRIPTOR(FIXTURE_ID, "Metadata fixture", fixture_empty_layout),
};

HUD_RENDERER_METADATA(meta_good_record, FIXTURE_ID, "Metadata fixture", "1.0.0", "Hudson fixtures",
                      HUD_POSITION_ALL_BITS, 0);

FIXTURE_ENTRY(meta_good_descriptors)
