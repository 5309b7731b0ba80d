/* SPDX-License-Identifier: MIT */
/*
 * bad_utf8_label.c — broken at layout time: its one node's label holds
 * bytes that are not UTF-8 (0xFF 0xFE). Expected from layout:
 * RegistryError.invalidLayout, node 0, field "label".
 */
#include "fixture_common.h"

static const char bad_label[] = "bad \xFF\xFE label";

static hud_status_t bad_utf8_layout(const hud_renderer_descriptor_t *self,
                                    const hud_complications_t *complications,
                                    const hud_environment_t *environment,
                                    const hud_interaction_t *interaction,
                                    hud_layout_t *layout) {
    (void)self;
    (void)complications;
    (void)environment;
    (void)interaction;
    hud_node_t node = fixture_blank_node(HUD_NODE_KIND_CONTAINER);
    node.frame = (hud_rect_t){100, 100, 40, 40};
    node.font_size = 12;
    node.label = bad_label;
    hud_layout_push_node(layout, &node);
    return hud_layout_finish(layout);
}

static const hud_renderer_descriptor_t bad_utf8_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.bad-utf8-label", "Bad UTF-8 label", bad_utf8_layout),
};

FIXTURE_ENTRY(bad_utf8_descriptors)
