/* SPDX-License-Identifier: MIT */
/*
 * bottom_off_screen.c — Every node of the bottom half is pushed 120 pt down,
 * through the home-indicator band and past the screen's bottom edge; every
 * number stays finite. Caught by: geometry-finite (not on screen) and the
 * rule actually broken, geometry-safe-bands: the checks that depend on
 * geometry-finite still run, since their inputs are valid numbers.
 */
#ifndef VB_ID /* forges_off_screen.c names its own */
#define VB_ID "org.fixture.validate.bottom-off-screen"
#define VB_NAME "Bottom row below the screen"
#endif
#define VB_ADJUST_NODE(node) do { \
        if ((node)->frame.y > env->screen_height / 2) { \
            (node)->frame.y += 120; \
            if ((node)->flags & HUD_NODE_FLAG_INTERACTIVE) (node)->hit.y += 120; \
        } \
    } while (0)
#include "validate_base.h"
