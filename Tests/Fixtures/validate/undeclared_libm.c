/* SPDX-License-Identifier: MIT */
/*
 * undeclared_libm.c — layout() calls sin() but the file is built without
 * -lm: `sin` is undefined and no DT_NEEDED library of the plugin defines
 * it; it loads only because the host has libm loaded. Caught by:
 * abi-needed-libraries (a warning in strict@1.1, an error from 1.2).
 */
#include <math.h>
#define VB_ID "org.fixture.validate.undeclared-libm"
#define VB_NAME "Calls sin() without -lm"
/* sin(0) is 0: the layout is the base's, through a real call of sin. */
static volatile double vb_angle = 0;
#define VB_LAYOUT_PROLOGUE if (sin(vb_angle) != 0) return HUD_STATUS_INTERNAL_ERROR;
#include "validate_base.h"
