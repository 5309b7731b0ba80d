/* SPDX-License-Identifier: MIT */
/*
 * metadata_mismatch.c — A correct renderer whose .hud_renderers record was
 * typed by hand and drifted from its descriptor: the record says version
 * 9.9.9, the descriptor 1.0.0. A host refuses to register it
 * (metadata-mismatch), so validate must fail it (abi-metadata).
 * HUD_DECLARE_RENDERER makes this mistake impossible.
 */
#define VB_ID "org.fixture.validate.metadata-mismatch"
#define VB_NAME "Metadata mismatch"
#include "validate_base.h"

HUD_RENDERER_METADATA(vb_metadata, VB_ID, VB_NAME, "9.9.9", "Hudson fixtures", HUD_POSITION_ALL_BITS,
                      VB_CAPABILITIES);
