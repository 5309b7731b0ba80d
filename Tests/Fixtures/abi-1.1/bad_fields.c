/* SPDX-License-Identifier: MIT */
/*
 * bad_fields.c — an ABI 1.1 plugin whose renderers each break one rule of
 * the node fields 1.1 appended, for the host's validation:
 *
 *   org.fixture.bad-glyph            a slot with glyph_size -1 (negative)
 *   org.fixture.nan-glyph            a slot with glyph_size NaN
 *   org.fixture.actions-on-chip      a secondary chip with accessibility_actions set
 *   org.fixture.actions-beyond-modes a slot offering mode mode_count (one too far)
 *
 * Each emits one interactive 48 pt circle per published slot (and a chip
 * node for a slot with a secondary), correct in every other field.
 */
#include "hud_renderer.h"

enum { BAD_GLYPH, NAN_GLYPH, ACTIONS_ON_CHIP, ACTIONS_BEYOND_MODES };

static hud_node_t bad_node(hud_node_kind_t kind, hud_position_t p, double x, double y,
                           const hud_environment_t *env) {
    hud_node_t node = {0};
    node.kind = kind;
    node.position = p;
    node.part = kind == HUD_NODE_KIND_SLOT ? HUD_PART_SLOT : HUD_PART_SECONDARY;
    node.mode_index = -1;
    node.frame = (hud_rect_t){x, y, 48, 48};
    node.hit = node.frame;
    node.shape = HUD_SHAPE_CIRCLE;
    node.material = HUD_MATERIAL_SOLID;
    node.corner_radius = 24;
    node.fill = env->palette->surface;
    node.icon_color = env->palette->ink;
    node.placement = HUD_PLACEMENT_OVERLAY;
    node.z = kind == HUD_NODE_KIND_SLOT ? 10 : 11;
    node.flags = HUD_NODE_FLAG_INTERACTIVE;
    node.accessibility_label = "Fixture";
    return node;
}

static hud_status_t bad_layout(int rule, const hud_complications_t *c, const hud_environment_t *env,
                               hud_layout_t *layout) {
    layout->count = 0;
    for (hud_position_t p = 0; p < HUD_POSITION_COUNT; p++) {
        const hud_slot_t *slot = c->slots[p];
        if (slot == NULL) continue;
        double x = 16 + 60 * p, y = env->screen_height / 2;
        hud_node_t node = bad_node(HUD_NODE_KIND_SLOT, p, x, y, env);
        node.icon = slot->icon;
        node.glyph_size = 16;
        if (rule == BAD_GLYPH) node.glyph_size = -1;
        if (rule == NAN_GLYPH) node.glyph_size = __builtin_nan("");
        if (rule == ACTIONS_BEYOND_MODES && slot->mode_count < HUD_MAX_MODES)
            node.accessibility_actions = HUD_MODE_BIT(slot->mode_count);
        hud_layout_push_node(layout, &node);
        if (slot->secondary != NULL) {
            hud_node_t chip = bad_node(HUD_NODE_KIND_SECONDARY, p, x, y + 60, env);
            chip.icon = slot->secondary->icon;
            if (rule == ACTIONS_ON_CHIP) chip.accessibility_actions = 1;
            hud_layout_push_node(layout, &chip);
        }
    }
    return hud_layout_finish(layout);
}

#define BAD_LAYOUT_FN(NAME, RULE)                                                                          \
    static hud_status_t NAME(const hud_renderer_descriptor_t *self, const hud_complications_t *c,          \
                             const hud_environment_t *env, const hud_interaction_t *interaction,          \
                             hud_layout_t *layout) {                                                       \
        (void)self;                                                                                        \
        (void)interaction;                                                                                 \
        return bad_layout(RULE, c, env, layout);                                                           \
    }
BAD_LAYOUT_FN(bad_glyph_layout, BAD_GLYPH)
BAD_LAYOUT_FN(nan_glyph_layout, NAN_GLYPH)
BAD_LAYOUT_FN(actions_on_chip_layout, ACTIONS_ON_CHIP)
BAD_LAYOUT_FN(actions_beyond_layout, ACTIONS_BEYOND_MODES)

static const void *bad_extension(const hud_renderer_descriptor_t *self, const char *id) {
    (void)self;
    (void)id;
    return NULL;
}

HUD_DECLARE_RENDERER(bad_glyph, "org.fixture.bad-glyph", "Bad glyph", "1.0.0", "Hudson fixtures",
                     "glyph_size -1.", HUD_POSITION_ALL_BITS, 0, bad_glyph_layout, bad_extension);
HUD_DECLARE_RENDERER(nan_glyph, "org.fixture.nan-glyph", "NaN glyph", "1.0.0", "Hudson fixtures",
                     "glyph_size NaN.", HUD_POSITION_ALL_BITS, 0, nan_glyph_layout, bad_extension);
HUD_DECLARE_RENDERER(actions_on_chip, "org.fixture.actions-on-chip", "Actions on a chip", "1.0.0",
                     "Hudson fixtures", "accessibility_actions on a secondary node.", HUD_POSITION_ALL_BITS, 0,
                     actions_on_chip_layout, bad_extension);
HUD_DECLARE_RENDERER(actions_beyond, "org.fixture.actions-beyond-modes", "Actions beyond the modes", "1.0.0",
                     "Hudson fixtures", "accessibility_actions past mode_count.", HUD_POSITION_ALL_BITS, 0,
                     actions_beyond_layout, bad_extension);
static const hud_renderer_descriptor_t *const bad_renderers[] = {&bad_glyph, &nan_glyph, &actions_on_chip,
                                                                 &actions_beyond};
HUD_DEFINE_ENTRY(bad_renderers);
