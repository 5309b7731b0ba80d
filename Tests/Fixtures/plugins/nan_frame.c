/* SPDX-License-Identifier: MIT */
/*
 * nan_frame.c — broken at layout time: loads fine, but its one node has
 * frame.x = NaN. Expected from layout: RegistryError.invalidLayout, node 0,
 * field "frame.x".
 */
#include <math.h>

#include "fixture_common.h"

static hud_status_t nan_layout(const hud_renderer_descriptor_t *self,
                               const hud_complications_t *complications,
                               const hud_environment_t *environment,
                               const hud_interaction_t *interaction,
                               hud_layout_t *layout) {
    (void)self;
    (void)complications;
    (void)environment;
    (void)interaction;
    hud_node_t node = fixture_blank_node(HUD_NODE_KIND_CONTAINER);
    node.frame = (hud_rect_t){(double)NAN, 100, 40, 40};
    hud_layout_push_node(layout, &node);
    return hud_layout_finish(layout);
}

static const hud_renderer_descriptor_t nan_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.nan-frame", "NaN frame", nan_layout),
};

FIXTURE_ENTRY(nan_descriptors)
