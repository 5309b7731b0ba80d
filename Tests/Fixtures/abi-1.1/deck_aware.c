/* SPDX-License-Identifier: MIT */
/*
 * deck_aware.c — a correct ABI 1.1 plugin that reads the inputs 1.1
 * appended (hud_environment_t.presentation and reserved_lanes) and writes
 * the node fields 1.1 appended (glyph_size, accessibility_actions), each
 * only where the host's sizes cover it, as Docs/ABI.md's presence rule
 * asks. Tests drive it with a 1.1 host's inputs and with 1.0-sized ones
 * (struct_size HUD_ENVIRONMENT_SIZE_1_0, node_stride HUD_NODE_SIZE_1_0)
 * whose bytes past struct_size still hold real 1.1 values, to prove it
 * falls back to the 1.0 meaning. Built with -DDECK_AWARE_UNGUARDED it
 * reads the fields without the check, which those tests must catch.
 *
 * Layout: one interactive 48 pt circle per published slot, corners 12 pt
 * inside the safe area (top ones below the navigation bar plus the top
 * lane the shell reserves, bottom ones above the bottom lane), the center
 * at the bottom middle above the bottom lane. Under DECK_EXPANDED it skips
 * the top corners (the shell's top lane hosts them). One non-interactive
 * container names what it saw: label = the presentation
 * ("always-visible", "deck-resting", "deck-expanded"), accessibility label
 * = "node fields 1.1" when the stride covers glyph_size, else
 * "node fields 1.0". Glyphs: 22 center, 16 corners. A slot with two or
 * more modes offers only its last one as a named action; the others leave
 * accessibility_actions 0 (every mode).
 */
#include "hud_renderer.h"

#define DECK_SIZE 48.0
#define DECK_MARGIN 12.0

static const char *deck_presentation_name(hud_presentation_t presentation) {
    switch (presentation) {
    case HUD_PRESENTATION_DECK_RESTING: return "deck-resting";
    case HUD_PRESENTATION_DECK_EXPANDED: return "deck-expanded";
    default: return "always-visible"; /* and values from a newer host */
    }
}

static hud_status_t deck_layout(const hud_renderer_descriptor_t *self, const hud_complications_t *c,
                                const hud_environment_t *env, const hud_interaction_t *interaction,
                                hud_layout_t *layout) {
    (void)self;
    (void)interaction;
    if (c->struct_size < HUD_COMPLICATIONS_SIZE_1_0 || env->struct_size < HUD_ENVIRONMENT_SIZE_1_0 ||
        layout->struct_size < HUD_LAYOUT_SIZE_1_0 || layout->node_stride < HUD_NODE_SIZE_1_0)
        return HUD_STATUS_INVALID_ARGUMENT;
#ifdef DECK_AWARE_UNGUARDED
    hud_presentation_t presentation = env->presentation;
    hud_insets_t lanes = env->reserved_lanes;
#else
    hud_presentation_t presentation = HUD_STRUCT_HAS(env, hud_environment_t, presentation)
                                          ? env->presentation
                                          : HUD_PRESENTATION_ALWAYS_VISIBLE;
    hud_insets_t lanes = {0, 0, 0, 0};
    if (HUD_STRUCT_HAS(env, hud_environment_t, reserved_lanes)) lanes = env->reserved_lanes;
#endif
    const double left = env->safe_area.left + lanes.left;
    const double right = env->screen_width - env->safe_area.right - lanes.right;
    const double top = env->navigation_bar.height > 0 ? env->navigation_bar.y + env->navigation_bar.height
                                                      : env->safe_area.top;
    const double bottom = env->screen_height - env->safe_area.bottom - lanes.bottom;
    const int rtl = env->layout_direction == HUD_LAYOUT_DIRECTION_RTL;

    layout->count = 0;
    for (hud_position_t p = 0; p < HUD_POSITION_COUNT; p++) {
        const hud_slot_t *slot = c->slots[p];
        if (slot == NULL) continue;
        int upper = p == HUD_POSITION_TOP_LEFT || p == HUD_POSITION_TOP_RIGHT;
        if (upper && presentation == HUD_PRESENTATION_DECK_EXPANDED) continue;
        int leading = p == HUD_POSITION_TOP_LEFT || p == HUD_POSITION_BOTTOM_LEFT;
        hud_node_t node = {0};
        node.kind = HUD_NODE_KIND_SLOT;
        node.position = p;
        node.part = HUD_PART_SLOT;
        node.mode_index = -1;
        node.frame.width = DECK_SIZE;
        node.frame.height = DECK_SIZE;
        node.frame.x = p == HUD_POSITION_CENTER ? left + (right - left - DECK_SIZE) / 2
                       : leading                ? left + DECK_MARGIN
                                                : right - DECK_MARGIN - DECK_SIZE;
        node.frame.y = upper ? top + lanes.top + DECK_MARGIN : bottom - DECK_MARGIN - DECK_SIZE;
        if (rtl) node.frame.x = env->screen_width - node.frame.x - node.frame.width;
        node.hit = node.frame;
        node.shape = HUD_SHAPE_CIRCLE;
        node.material = HUD_MATERIAL_SOLID;
        node.corner_radius = DECK_SIZE / 2;
        node.fill = env->palette->surface;
        node.icon_color = env->palette->ink;
        node.placement = HUD_PLACEMENT_OVERLAY;
        node.z = 10;
        node.flags = HUD_NODE_FLAG_INTERACTIVE;
        node.icon = slot->icon;
        node.accessibility_label = slot->label != NULL && slot->label[0] != '\0' ? slot->label : "Complication";
        /* 1.1 node fields: push_node drops them when the stride is 1.0's. */
        node.glyph_size = p == HUD_POSITION_CENTER ? 22 : 16;
        if (slot->mode_count >= 2) node.accessibility_actions = HUD_MODE_BIT(slot->mode_count - 1);
        hud_layout_push_node(layout, &node);
    }

    hud_node_t note = {0};
    note.kind = HUD_NODE_KIND_CONTAINER;
    note.position = HUD_POSITION_NONE;
    note.part = HUD_PART_NONE;
    note.mode_index = -1;
    note.frame = (hud_rect_t){0, 0, 1, 1};
    note.shape = HUD_SHAPE_RECTANGLE;
    note.material = HUD_MATERIAL_NONE;
    note.placement = HUD_PLACEMENT_OVERLAY;
    note.label = deck_presentation_name(presentation);
    note.accessibility_label = HUD_LAYOUT_HAS_NODE_FIELD(layout, glyph_size) ? "node fields 1.1" : "node fields 1.0";
    hud_layout_push_node(layout, &note);

    layout->content_insets = (hud_insets_t){0, 0, 0, 0};
    return hud_layout_finish(layout);
}

static const void *deck_extension(const hud_renderer_descriptor_t *self, const char *id) {
    (void)self;
    (void)id;
    return NULL;
}

HUD_DECLARE_RENDERER(deck_renderer, "org.fixture.deck-aware", "Deck aware", "1.1.0", "Hudson fixtures",
                     "Reads the ABI 1.1 inputs behind HUD_STRUCT_HAS.", HUD_POSITION_ALL_BITS, 0,
                     deck_layout, deck_extension);
static const hud_renderer_descriptor_t *const deck_renderers[] = {&deck_renderer};
HUD_DEFINE_ENTRY(deck_renderers);
