/* SPDX-License-Identifier: MIT */
/*
 * crash_on_title.c — a correct plugin that aborts in layout() when the
 * navigation title is "crash" (a crash a test can trigger mid-session).
 * Built with -DFIXTURE_FIXED it is the repaired version: same descriptor,
 * never crashes. Its one node's label points into the environment.
 */
#include <stdlib.h>
#include <string.h>

#include "fixture_common.h"

FIXTURE_LAYOUT_FUNCTION(crash_layout) {
    (void)self;
    (void)complications;
    (void)interaction;
#ifndef FIXTURE_FIXED
    if (environment->navigation_title && strcmp(environment->navigation_title, "crash") == 0) abort();
#endif
    hud_node_t node = fixture_blank_node(HUD_NODE_KIND_CONTAINER);
    node.frame = (hud_rect_t){0, environment->navigation_bar.y, 100, 20};
    node.label = environment->navigation_title;
    node.font_size = 13;
    hud_layout_push_node(layout, &node);
    return hud_layout_finish(layout);
}

static const hud_renderer_descriptor_t crash_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.crash-on-title", "Crash on title", crash_layout),
};

FIXTURE_ENTRY(crash_descriptors)
