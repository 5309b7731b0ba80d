/* SPDX-License-Identifier: MIT */
/*
 * title_label.c — a correct plugin whose one node's label points INTO the
 * environment (navigation_title), which the header allows ("point into the
 * inputs of this layout() call"). The host reads that string after layout()
 * returns, so the title it passed must still be alive then.
 */
#include "fixture_common.h"

static hud_status_t title_layout(const hud_renderer_descriptor_t *self,
                                 const hud_complications_t *complications,
                                 const hud_environment_t *environment,
                                 const hud_interaction_t *interaction,
                                 hud_layout_t *layout) {
    (void)self;
    (void)complications;
    (void)interaction;
    hud_node_t node = fixture_blank_node(HUD_NODE_KIND_CONTAINER);
    node.frame = (hud_rect_t){0, environment->navigation_bar.y, 100, 20};
    node.label = environment->navigation_title;
    node.font_size = 13;
    hud_layout_push_node(layout, &node);
    return hud_layout_finish(layout);
}

static const hud_renderer_descriptor_t title_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.title-label", "Title label", title_layout),
};

FIXTURE_ENTRY(title_descriptors)
