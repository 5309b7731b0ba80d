/* SPDX-License-Identifier: MIT */
/*
 * meta_mismatch.c — its .hud_renderers record says version 9.9.9 while the
 * descriptor says 1.0.0. Listing shows the metadata; loading reports
 * RegistryError.metadataMismatch and does not register the renderer.
 */
#include "fixture_common.h"

static const hud_renderer_descriptor_t mismatch_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.mismatch", "Mismatch", fixture_empty_layout),
};

HUD_RENDERER_METADATA(mismatch_record, "org.fixture.mismatch", "Mismatch", "9.9.9", "Hudson fixtures",
                      HUD_POSITION_ALL_BITS, 0);

FIXTURE_ENTRY(mismatch_descriptors)
