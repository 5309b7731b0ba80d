/* SPDX-License-Identifier: MIT */
/*
 * overlapping_hits.c — Control chips' hit regions are 16 pt wider, reaching into their slot's. Caught by: geometry-hit-overlap.
 */
#define VB_ID "org.fixture.validate.overlap"
#define VB_NAME "Overlapping hit regions"
#define VB_ADJUST_NODE(node) do { if ((node)->kind == HUD_NODE_KIND_SECONDARY && ((node)->flags & HUD_NODE_FLAG_INTERACTIVE)) { (node)->hit.x -= 8; (node)->hit.width += 16; } } while (0)
#include "validate_base.h"
