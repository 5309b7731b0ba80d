/* SPDX-License-Identifier: MIT */
/*
 * low_contrast.c — Standard and destructive slots draw their icon in hairline_standard. Caught by: a11y-contrast.
 */
#define VB_ID "org.fixture.validate.low-contrast"
#define VB_NAME "Low contrast"
#define VB_ICON_COLOR(palette, role) ((role) == HUD_ROLE_ACCENT ? (palette)->bg : (palette)->hairline_standard)
#include "validate_base.h"
