/* SPDX-License-Identifier: MIT */
/*
 * good_many_nodes.c — a correct renderer (org.fixture.many) that emits 200
 * non-interactive container nodes, more than the host's first buffer (64
 * nodes), to prove the host answers HUD_STATUS_BUFFER_TOO_SMALL by growing
 * its buffer and calling again. Node i is a 10x10 square in a 20-column
 * grid from the safe area's top-left corner, with z = i.
 */
#include "fixture_common.h"

#define MANY_NODE_COUNT 200
#define MANY_COLUMNS 20
#define MANY_CELL 12.0
#define MANY_SIZE 10.0

static hud_status_t many_layout(const hud_renderer_descriptor_t *self,
                                const hud_complications_t *complications,
                                const hud_environment_t *environment,
                                const hud_interaction_t *interaction,
                                hud_layout_t *layout) {
    (void)self;
    (void)complications;
    (void)interaction;
    for (int i = 0; i < MANY_NODE_COUNT; i++) {
        hud_node_t node = fixture_blank_node(HUD_NODE_KIND_CONTAINER);
        node.part = HUD_PART_CONTAINER;
        node.frame.x = environment->safe_area.left + (i % MANY_COLUMNS) * MANY_CELL;
        node.frame.y = environment->safe_area.top + (double)(i / MANY_COLUMNS) * MANY_CELL;
        node.frame.width = MANY_SIZE;
        node.frame.height = MANY_SIZE;
        node.shape = HUD_SHAPE_RECTANGLE;
        node.material = HUD_MATERIAL_SOLID;
        node.fill = environment->palette->surface;
        node.z = i;
        hud_layout_push_node(layout, &node);
    }
    return hud_layout_finish(layout);
}

static const hud_renderer_descriptor_t many_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.many", "Many nodes", many_layout),
};

FIXTURE_ENTRY(many_descriptors)
