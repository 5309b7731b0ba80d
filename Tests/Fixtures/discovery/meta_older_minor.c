/* SPDX-License-Identifier: MIT */
/*
 * meta_older_minor.c — a plugin rebuilt unchanged against a newer SDK: its
 * entry reports the header's ABI version (HUD_ABI_VERSION, 1.1) while its
 * metadata record, written by hand the way a Swift author's script writes
 * it, still names the minor it was first written for (1.0, or
 * -DRECORD_MINOR=N). A record whose minor is at most the entry's is
 * consistent (Docs/COMPATIBILITY.md); a newer one is a metadata mismatch.
 */
#include "fixture_common.h"
#include "hud_metadata.h"

#ifndef RECORD_MINOR
#define RECORD_MINOR 0
#endif

static const hud_renderer_descriptor_t older_minor_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.older-minor", "Older minor", fixture_empty_layout),
};

HUD_METADATA_ATTRIBUTES static const hud_renderer_metadata_t older_minor_record = {
    {'H', 'U', 'D', 'M', 'E', 'T', 'A', '1'},
    (uint32_t)sizeof(hud_renderer_metadata_t),
    (HUD_ABI_VERSION_MAJOR << 16) | RECORD_MINOR,
    HUD_POSITION_ALL_BITS,
    0,
    "org.fixture.older-minor",
    "Older minor",
    "1.0.0",
    "Hudson fixtures",
};

FIXTURE_ENTRY(older_minor_descriptors)
