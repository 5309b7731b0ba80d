/* SPDX-License-Identifier: MIT */
/*
 * good_simple.c — a correct plugin with two renderers.
 *
 * org.fixture.simple and org.fixture.simple-alt share one layout: a 48x48
 * circle SLOT node per published position, at a fixed spot inside the safe
 * area (corners inset by 8 pt, center centered; mirrored in RTL). Each node
 * is interactive with a 48x48 hit region equal to its frame, shows the
 * slot's icon pointer and label, and is labelled for accessibility by the
 * slot's label, or its icon when there is none. The two renderers differ
 * only in their descriptors (name, version, capabilities, positions), so
 * tests can check that each descriptor is read on its own.
 * Nodes go out through hud_layout_push_node() + hud_layout_finish(), so
 * any buffer size works (the two-call idiom).
 */
#include "fixture_common.h"

#ifndef SIMPLE_SIZE
#define SIMPLE_SIZE 48.0
#endif
/* Overridable so the preview's reload test can build a second, different version. */
#ifndef SIMPLE_MARGIN
#define SIMPLE_MARGIN 8.0
#endif

/* The frame of the node for `position`, in LTR, before mirroring. */
static hud_rect_t simple_frame(hud_position_t position, const hud_environment_t *env) {
    const double left = env->safe_area.left;
    const double top = env->safe_area.top;
    const double right = env->screen_width - env->safe_area.right;
    const double bottom = env->screen_height - env->safe_area.bottom;
    hud_rect_t frame = {0, 0, SIMPLE_SIZE, SIMPLE_SIZE};
    switch (position) {
    case HUD_POSITION_TOP_LEFT:
        frame.x = left + SIMPLE_MARGIN;
        frame.y = top + SIMPLE_MARGIN;
        break;
    case HUD_POSITION_TOP_RIGHT:
        frame.x = right - SIMPLE_MARGIN - SIMPLE_SIZE;
        frame.y = top + SIMPLE_MARGIN;
        break;
    case HUD_POSITION_BOTTOM_LEFT:
        frame.x = left + SIMPLE_MARGIN;
        frame.y = bottom - SIMPLE_MARGIN - SIMPLE_SIZE;
        break;
    case HUD_POSITION_BOTTOM_RIGHT:
        frame.x = right - SIMPLE_MARGIN - SIMPLE_SIZE;
        frame.y = bottom - SIMPLE_MARGIN - SIMPLE_SIZE;
        break;
    default: /* HUD_POSITION_CENTER */
        frame.x = left + (right - left - SIMPLE_SIZE) / 2;
        frame.y = top + (bottom - top - SIMPLE_SIZE) / 2;
        break;
    }
    if (env->layout_direction == HUD_LAYOUT_DIRECTION_RTL) {
        frame.x = env->screen_width - frame.x - frame.width;
    }
    return frame;
}

static hud_rgba_t simple_fill(hud_role_t role, const hud_palette_t *palette) {
    switch (role) {
    case HUD_ROLE_ACCENT: return palette->accent;
    case HUD_ROLE_DESTRUCTIVE: return palette->status_error;
    default: return palette->surface;
    }
}

static hud_status_t simple_layout(const hud_renderer_descriptor_t *self,
                                  const hud_complications_t *complications,
                                  const hud_environment_t *environment,
                                  const hud_interaction_t *interaction,
                                  hud_layout_t *layout) {
    (void)self;
    if (complications->struct_size < sizeof(hud_complications_t) ||
        environment->struct_size < sizeof(hud_environment_t) ||
        interaction->struct_size < sizeof(hud_interaction_t)) {
        return HUD_STATUS_INVALID_ARGUMENT;
    }
    const hud_palette_t *palette = environment->palette;
    for (hud_position_t position = 0; position < HUD_POSITION_COUNT; position++) {
        const hud_slot_t *slot = complications->slots[position];
        if (slot == NULL) continue;
        hud_node_t node = fixture_blank_node(HUD_NODE_KIND_SLOT);
        node.position = position;
        node.part = HUD_PART_SLOT;
        node.frame = simple_frame(position, environment);
        node.hit = node.frame;
        node.shape = HUD_SHAPE_CIRCLE;
        node.material = HUD_MATERIAL_SOLID;
        node.stroke_width = 1;
        node.fill = simple_fill(slot->role, palette);
        node.stroke = palette->hairline_standard;
        node.icon_color = palette->ink;
        node.text_color = palette->ink;
        node.placement = HUD_PLACEMENT_OVERLAY;
        node.flags = HUD_NODE_FLAG_INTERACTIVE;
        if (interaction->pressed_position == position && interaction->pressed_part == HUD_PART_SLOT) {
            node.flags |= HUD_NODE_FLAG_PRESSED;
        }
        node.icon = slot->icon;
        node.label = slot->label;
        node.accessibility_label = slot->label != NULL ? slot->label : slot->icon;
        hud_layout_push_node(layout, &node);
    }
    return hud_layout_finish(layout);
}

static const hud_renderer_descriptor_t simple_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.simple", "Simple", simple_layout),
    {
        .struct_size = sizeof(hud_renderer_descriptor_t),
        .capabilities = HUD_CAPABILITY_THREAD_SAFE | HUD_CAPABILITY_RTL_NOT_MIRRORED,
        .id = "org.fixture.simple-alt",
        .name = "Simple (alternate)",
        .version = "2.1.0",
        .vendor = "Hudson fixtures",
        .description = "The simple layout under a second descriptor.",
        .supported_positions = HUD_POSITION_BIT(HUD_POSITION_CENTER) |
                               HUD_POSITION_BIT(HUD_POSITION_BOTTOM_RIGHT),
        .layout = simple_layout,
        .get_extension = fixture_no_extension,
    },
};

FIXTURE_ENTRY(simple_descriptors)
