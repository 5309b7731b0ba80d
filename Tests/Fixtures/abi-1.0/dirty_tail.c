/* SPDX-License-Identifier: MIT */
/*
 * dirty_tail.c — a correct ABI 1.0 plugin, built against the frozen 1.0 SDK
 * (Tests/Fixtures/abi-1.0/hud), that leaves junk where a 1.1 host keeps
 * the fields 1.1 appended to hud_node_t.
 *
 * Before pushing each node it fills that node's whole slot of the host's
 * buffer (node_stride bytes, which a 1.1 host makes larger than this
 * plugin's sizeof(hud_node_t)) with 0xFF; hud_layout_push_node then copies
 * the 168 bytes it knows over the start. A 1.0 plugin may leave any bytes
 * past its own node size (they are the host's), so a 1.1 host must not
 * read glyph_size (0xFF... is a NaN) or accessibility_actions (all bits)
 * from it: it reads them only from plugins that declare ABI minor >= 1.
 *
 * Layout: one interactive 48 pt circle per published slot, corners 16 pt
 * inside the safe area, the center at the bottom middle; mirrored in RTL.
 */
#include <string.h>

#include "hud_renderer.h"

#define TAIL_SIZE 48.0
#define TAIL_MARGIN 16.0

static hud_rect_t tail_frame(hud_position_t position, const hud_environment_t *env) {
    const double left = env->safe_area.left, top = env->safe_area.top;
    const double right = env->screen_width - env->safe_area.right;
    const double bottom = env->screen_height - env->safe_area.bottom;
    hud_rect_t frame = {0, 0, TAIL_SIZE, TAIL_SIZE};
    int leading = position == HUD_POSITION_TOP_LEFT || position == HUD_POSITION_BOTTOM_LEFT;
    int upper = position == HUD_POSITION_TOP_LEFT || position == HUD_POSITION_TOP_RIGHT;
    frame.x = leading ? left + TAIL_MARGIN : right - TAIL_MARGIN - TAIL_SIZE;
    frame.y = upper ? top + env->navigation_bar.height + TAIL_MARGIN : bottom - TAIL_MARGIN - TAIL_SIZE;
    if (position == HUD_POSITION_CENTER) frame.x = left + (right - left - TAIL_SIZE) / 2;
    if (env->layout_direction == HUD_LAYOUT_DIRECTION_RTL) frame.x = env->screen_width - frame.x - frame.width;
    return frame;
}

static hud_status_t tail_layout(const hud_renderer_descriptor_t *self, const hud_complications_t *c,
                                const hud_environment_t *env, const hud_interaction_t *interaction,
                                hud_layout_t *layout) {
    (void)self;
    (void)interaction;
    if (c->struct_size < HUD_COMPLICATIONS_SIZE_1_0 || env->struct_size < HUD_ENVIRONMENT_SIZE_1_0 ||
        layout->node_stride < HUD_NODE_SIZE_1_0)
        return HUD_STATUS_INVALID_ARGUMENT;
    layout->count = 0;
    for (hud_position_t p = 0; p < HUD_POSITION_COUNT; p++) {
        const hud_slot_t *slot = c->slots[p];
        if (slot == NULL) continue;
        if (layout->count < layout->capacity) {
            unsigned char *own = (unsigned char *)layout->nodes + (size_t)layout->count * layout->node_stride;
            memset(own, 0xFF, layout->node_stride); /* the whole slot, past this header's node too */
        }
        hud_node_t node = {0};
        node.kind = HUD_NODE_KIND_SLOT;
        node.position = p;
        node.part = HUD_PART_SLOT;
        node.mode_index = -1;
        node.frame = tail_frame(p, env);
        node.hit = node.frame;
        node.shape = HUD_SHAPE_CIRCLE;
        node.material = HUD_MATERIAL_SOLID;
        node.corner_radius = TAIL_SIZE / 2;
        node.fill = env->palette->surface;
        node.icon_color = env->palette->ink;
        node.placement = HUD_PLACEMENT_OVERLAY;
        node.z = 10;
        node.flags = HUD_NODE_FLAG_INTERACTIVE;
        node.icon = slot->icon;
        node.accessibility_label = slot->label != NULL && slot->label[0] != '\0' ? slot->label : "Complication";
        hud_layout_push_node(layout, &node);
    }
    return hud_layout_finish(layout);
}

static const void *tail_extension(const hud_renderer_descriptor_t *self, const char *id) {
    (void)self;
    (void)id;
    return NULL;
}

HUD_DECLARE_RENDERER(tail_renderer, "org.fixture.dirty-tail", "Dirty tail", "1.0.0", "Hudson fixtures",
                     "An ABI 1.0 plugin that leaves junk past its own node size.", HUD_POSITION_ALL_BITS, 0,
                     tail_layout, tail_extension);
static const hud_renderer_descriptor_t *const tail_renderers[] = {&tail_renderer};
HUD_DEFINE_ENTRY(tail_renderers);
