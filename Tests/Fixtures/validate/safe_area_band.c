/* SPDX-License-Identifier: MIT */
/*
 * safe_area_band.c — The top slots sit halfway up the top safe-area inset. Caught by: geometry-safe-bands.
 */
#define VB_ID "org.fixture.validate.safe-band"
#define VB_NAME "Controls in the safe-area band"
#define VB_TOP_Y(top) ((top) > 0 ? (top) / 2 : (top) + VB_MARGIN)
#include "validate_base.h"
