/* SPDX-License-Identifier: MIT */
/*
 * nan_frame.c — The center slot's frame.x is NaN. Caught by: geometry-finite.
 */
#include <math.h>
#define VB_ID "org.fixture.validate.nan"
#define VB_NAME "NaN frame"
#define VB_ADJUST_NODE(node) do { if ((node)->kind == HUD_NODE_KIND_SLOT && (node)->position == HUD_POSITION_CENTER) (node)->frame.x = NAN; } while (0)
#include "validate_base.h"
