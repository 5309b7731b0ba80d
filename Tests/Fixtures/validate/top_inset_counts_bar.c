/* SPDX-License-Identifier: MIT */
/*
 * top_inset_counts_bar.c — content_insets.top is the navigation bar's height,
 * as if measured from the safe area's top edge; the header measures it from
 * the bar's bottom edge, so it claims a band below the bar with nothing in it.
 * Caught by: geometry-content-insets.
 */
#define VB_ID "org.fixture.validate.top-inset"
#define VB_NAME "Top inset counts the navigation bar"
#define VB_FINISH(layout) ((layout)->content_insets.top = env->navigation_bar.height, hud_layout_finish(layout))
#include "validate_base.h"
