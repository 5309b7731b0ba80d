/* SPDX-License-Identifier: MIT */
/*
 * validate_base.h — a correct, complete renderer for the `hudhost validate`
 * fixtures. Each fixture defines at most a couple of VB_* hooks before
 * including this file, so it breaks exactly one conformance rule and keeps
 * every other one.
 *
 * The layout (LTR working frame, mirrored for RTL; M = 16 pt margin):
 * - a 48x48 circle slot per published position; corners M in from the
 *   safe area, the center centered on the bottom row;
 * - a chip (28x28 visual in a 44x44 hit region) on the slot's inner side
 *   (toward the screen's centre; the center slot's on its right), 4 pt
 *   away; a control when the secondary has an action, else a badge;
 * - when a shown slot's modes are revealed: a solid card 8 pt above a
 *   bottom/center slot (below a top slot) with one 44x44 item per mode.
 * Colors come from the palette by role; every interactive node has an
 * accessibility label (the label, or the icon when there is none).
 * layout() is pure and thread-safe and uses hud_layout_push_node.
 *
 * Hooks (all optional):
 *   VB_ID, VB_NAME            the renderer id and name
 *   VB_CAPABILITIES           descriptor capabilities
 *   VB_LAYOUT_PROLOGUE        statements at the start of layout()
 *   VB_ADJUST_NODE(node)      statements run on every node before it is pushed
 *   VB_PUSH(layout, node)     how a node is written (default hud_layout_push_node)
 *   VB_FINISH(layout)         the status layout() returns
 *   VB_CHIP_OUTER             define to put corner chips on the outer side
 *   VB_TOP_Y(top)             the top row's y given the safe top (default top + M)
 *   VB_ICON_COLOR(palette, role)  the slot icon color
 *   VB_SLOT_LABEL(slot)       the slot's accessibility label
 *   VB_INIT_BODY              statements at the start of init()
 *   VB_DEINIT_BODY            deinit()'s body (default: release one reference)
 *   VB_RENDERER_AT(i)         renderer_at()'s result (default: NULL past the count)
 *   VB_DESCRIPTOR_SIZE        the descriptor's struct_size
 *   VB_GET_EXTENSION          the descriptor's get_extension
 *   VB_PICKER_ICON            the descriptor's picker_icon (default "square.dashed")
 *   VB_RENDERER_COUNT         renderer_count()'s result (default: 1 once initialized, else 0)
 *   VB_ENTRY_RESULT           what the entry function returns (default: &vb_entry)
 *   VB_NO_ENTRY               define to export no entry symbol
 *   VB_ABI_VERSION            the entry's abi_version
 */
#ifndef VALIDATE_BASE_H
#define VALIDATE_BASE_H

#include "fixture_common.h"

#ifndef VB_ID
#define VB_ID "org.fixture.validate"
#endif
#ifndef VB_NAME
#define VB_NAME "Validate fixture"
#endif
#ifndef VB_CAPABILITIES
#define VB_CAPABILITIES HUD_CAPABILITY_THREAD_SAFE
#endif
#ifndef VB_LAYOUT_PROLOGUE
#define VB_LAYOUT_PROLOGUE
#endif
#ifndef VB_ADJUST_NODE
#define VB_ADJUST_NODE(node) (void)(node)
#endif
#ifndef VB_PUSH
#define VB_PUSH(layout, node) hud_layout_push_node((layout), (node))
#endif
#ifndef VB_FINISH
#define VB_FINISH(layout) hud_layout_finish(layout)
#endif
#ifndef VB_TOP_Y
#define VB_TOP_Y(top) ((top) + VB_MARGIN)
#endif
#ifndef VB_ICON_COLOR
#define VB_ICON_COLOR(palette, role) ((role) == HUD_ROLE_ACCENT ? (palette)->bg : (palette)->ink)
#endif
/* An icon's name when it reads as a word ("star"), else `fallback`: a
 * dotted symbol name ("list.bullet") is never an accessibility label. */
static const char *vb_icon_word(const char *icon, const char *fallback) {
    if (icon == NULL || icon[0] == '\0') return fallback;
    for (const char *c = icon; *c != '\0'; c++) {
        if (*c == '.') return fallback;
    }
    return icon;
}
#ifndef VB_SLOT_LABEL
#define VB_SLOT_LABEL(slot) ((slot)->label != NULL && (slot)->label[0] != '\0' ? (slot)->label : vb_icon_word((slot)->icon, "Complication"))
#endif
#ifndef VB_INIT_BODY
#define VB_INIT_BODY
#endif
#ifndef VB_ABI_VERSION
#define VB_ABI_VERSION HUD_ABI_VERSION
#endif
#ifndef VB_DEINIT_BODY
#define VB_DEINIT_BODY if (vb_refcount > 0) vb_refcount--;
#endif
#ifndef VB_RENDERER_AT
#define VB_RENDERER_AT(i) ((i) < vb_renderer_count() ? &vb_descriptors[i] : NULL)
#endif
#ifndef VB_RENDERER_COUNT
#define VB_RENDERER_COUNT (vb_refcount > 0 ? 1u : 0u)
#endif
#ifndef VB_ENTRY_RESULT
#define VB_ENTRY_RESULT (&vb_entry)
#endif
#ifndef VB_DESCRIPTOR_SIZE
#define VB_DESCRIPTOR_SIZE sizeof(hud_renderer_descriptor_t)
#endif
#ifndef VB_GET_EXTENSION
#define VB_GET_EXTENSION fixture_no_extension
#endif
#ifndef VB_PICKER_ICON
#define VB_PICKER_ICON "square.dashed"
#endif

#define VB_MARGIN 16.0
#define VB_SLOT 48.0
#define VB_CHIP 28.0
#define VB_CHIP_HIT 44.0
#define VB_GAP 4.0
#define VB_ITEM 44.0

static hud_rect_t vb_rect(double x, double y, double w, double h) {
    hud_rect_t r = {x, y, w, h};
    return r;
}

/* Mirrors a working-frame rect for RTL. */
static hud_rect_t vb_place(hud_rect_t r, const hud_environment_t *env) {
    if (env->layout_direction == HUD_LAYOUT_DIRECTION_RTL) r.x = env->screen_width - r.x - r.width;
    return r;
}

static hud_node_t vb_node(hud_node_kind_t kind, hud_position_t position, hud_part_t part) {
    hud_node_t node = fixture_blank_node(kind);
    node.position = position;
    node.part = part;
    node.placement = HUD_PLACEMENT_OVERLAY;
    return node;
}

static void vb_push(hud_layout_t *layout, hud_node_t *node, const hud_environment_t *env) {
    node->frame = vb_place(node->frame, env);
    if (node->flags & HUD_NODE_FLAG_INTERACTIVE) node->hit = vb_place(node->hit, env);
    VB_ADJUST_NODE(node);
    VB_PUSH(layout, node);
}

static hud_rgba_t vb_fill(hud_role_t role, const hud_palette_t *palette) {
    switch (role) {
    case HUD_ROLE_ACCENT: return palette->accent;
    case HUD_ROLE_DESTRUCTIVE: return palette->status_error;
    default: return palette->surface;
    }
}

static int vb_pressed(const hud_interaction_t *ui, hud_position_t position, hud_part_t part, int32_t mode) {
    return ui->pressed_position == position && ui->pressed_part == part &&
           (part != HUD_PART_MODE || ui->pressed_mode_index == mode);
}

static hud_status_t vb_layout(const hud_renderer_descriptor_t *self, const hud_complications_t *complications,
                              const hud_environment_t *env, const hud_interaction_t *ui, hud_layout_t *layout) {
    (void)self;
    VB_LAYOUT_PROLOGUE
    if (complications->struct_size < sizeof(hud_complications_t) || env->struct_size < sizeof(hud_environment_t) ||
        ui->struct_size < sizeof(hud_interaction_t)) {
        return HUD_STATUS_INVALID_ARGUMENT;
    }
    const hud_palette_t *palette = env->palette;
    const double left = env->safe_area.left, right = env->screen_width - env->safe_area.right;
    const double top = env->safe_area.top, bottom = env->screen_height - env->safe_area.bottom;
    hud_rect_t slot_frames[HUD_POSITION_COUNT];

    for (hud_position_t position = 0; position < HUD_POSITION_COUNT; position++) {
        const hud_slot_t *slot = complications->slots[position];
        if (slot == NULL) continue;
        int leading = position == HUD_POSITION_TOP_LEFT || position == HUD_POSITION_BOTTOM_LEFT;
        int is_top = position == HUD_POSITION_TOP_LEFT || position == HUD_POSITION_TOP_RIGHT;
        double y = is_top ? VB_TOP_Y(top) : bottom - VB_MARGIN - VB_SLOT;
        double group = VB_SLOT + (slot->secondary ? VB_GAP + VB_CHIP_HIT : 0);
        double group_x, slot_x, chip_hit_x;
        if (position == HUD_POSITION_CENTER) {
            slot_x = left + (right - left - VB_SLOT) / 2;
            chip_hit_x = slot_x + VB_SLOT + VB_GAP;
        } else {
            group_x = leading ? left + VB_MARGIN : right - VB_MARGIN - group;
            int chip_left = !leading; /* the inner side */
#ifdef VB_CHIP_OUTER
            chip_left = !chip_left;
#endif
            slot_x = (slot->secondary && chip_left) ? group_x + VB_CHIP_HIT + VB_GAP : group_x;
            chip_hit_x = chip_left ? group_x : group_x + VB_SLOT + VB_GAP;
        }
        hud_node_t node = vb_node(HUD_NODE_KIND_SLOT, position, HUD_PART_SLOT);
        node.frame = vb_rect(slot_x, y, VB_SLOT, VB_SLOT);
        node.hit = node.frame;
        node.shape = HUD_SHAPE_CIRCLE;
        node.material = HUD_MATERIAL_SOLID;
        node.corner_radius = VB_SLOT / 2;
        node.stroke_width = 1;
        node.fill = vb_fill(slot->role, palette);
        node.stroke = palette->hairline_standard;
        node.icon_color = VB_ICON_COLOR(palette, slot->role);
        node.text_color = palette->ink;
        node.z = 10;
        node.flags = HUD_NODE_FLAG_INTERACTIVE;
        if (vb_pressed(ui, position, HUD_PART_SLOT, -1)) node.flags |= HUD_NODE_FLAG_PRESSED;
        node.icon = slot->icon;
        node.accessibility_label = VB_SLOT_LABEL(slot);
        slot_frames[position] = node.frame;
        vb_push(layout, &node, env);

        if (slot->secondary != NULL) {
            const hud_secondary_t *chip_in = slot->secondary;
            hud_node_t chip = vb_node(HUD_NODE_KIND_SECONDARY, position, HUD_PART_SECONDARY);
            double inset = (VB_CHIP_HIT - VB_CHIP) / 2;
            chip.frame = vb_rect(chip_hit_x + inset, y + (VB_SLOT - VB_CHIP) / 2, VB_CHIP, VB_CHIP);
            chip.shape = HUD_SHAPE_CIRCLE;
            chip.material = HUD_MATERIAL_SOLID;
            chip.corner_radius = VB_CHIP / 2;
            chip.stroke_width = 0.5;
            chip.fill = palette->surface;
            chip.stroke = palette->hairline_subtle;
            chip.icon_color = palette->muted;
            chip.z = 11;
            if (chip_in->action != NULL) {
                chip.flags = HUD_NODE_FLAG_INTERACTIVE;
                chip.hit = vb_rect(chip_hit_x, y + (VB_SLOT - VB_CHIP_HIT) / 2, VB_CHIP_HIT, VB_CHIP_HIT);
                if (vb_pressed(ui, position, HUD_PART_SECONDARY, -1)) chip.flags |= HUD_NODE_FLAG_PRESSED;
            }
            chip.icon = chip_in->icon;
            chip.accessibility_label = chip_in->label != NULL && chip_in->label[0] != '\0' ? chip_in->label : vb_icon_word(chip_in->icon, "Secondary");
            vb_push(layout, &chip, env);
        }
    }

    /* The mode picker. */
    hud_position_t revealed = ui->revealed_position;
    if (revealed >= 0 && revealed < HUD_POSITION_COUNT && complications->slots[revealed] != NULL &&
        complications->slots[revealed]->mode_count > 0) {
        const hud_slot_t *slot = complications->slots[revealed];
        uint32_t count = slot->mode_count;
        double room = right - left - 2 * VB_MARGIN - 8;
        uint32_t per_row = room >= VB_ITEM ? (uint32_t)((room + 4) / (VB_ITEM + 4)) : 1;
        if (per_row > count) per_row = count;
        uint32_t rows = (count + per_row - 1) / per_row;
        double card_w = per_row * VB_ITEM + (per_row - 1) * 4 + 8;
        double card_h = rows * VB_ITEM + (rows - 1) * 4 + 8;
        hud_rect_t anchor = slot_frames[revealed];
        int below = revealed == HUD_POSITION_TOP_LEFT || revealed == HUD_POSITION_TOP_RIGHT;
        double card_x = anchor.x + anchor.width / 2 - card_w / 2;
        if (card_x > right - VB_MARGIN - card_w) card_x = right - VB_MARGIN - card_w;
        if (card_x < left + VB_MARGIN) card_x = left + VB_MARGIN;
        double card_y = below ? anchor.y + anchor.height + 8 : anchor.y - 8 - card_h;
        if (card_y < top) card_y = top;
        hud_node_t card = vb_node(HUD_NODE_KIND_CONTAINER, revealed, HUD_PART_CONTAINER);
        card.frame = vb_rect(card_x, card_y, card_w, card_h);
        card.shape = HUD_SHAPE_ROUNDED_RECTANGLE;
        card.material = HUD_MATERIAL_SOLID;
        card.corner_radius = 12;
        card.fill = palette->chrome;
        card.stroke = palette->border;
        card.stroke_width = 0.5;
        card.z = 20;
        card.accessibility_label = "Modes";
        vb_push(layout, &card, env);
        for (uint32_t i = 0; i < count; i++) {
            const hud_mode_t *mode = slot->modes[i];
            hud_node_t item = vb_node(HUD_NODE_KIND_MODE_ITEM, revealed, HUD_PART_MODE);
            item.mode_index = (int32_t)i;
            item.frame = vb_rect(card_x + 4 + (i % per_row) * (VB_ITEM + 4), card_y + 4 + (i / per_row) * (VB_ITEM + 4), VB_ITEM, VB_ITEM);
            item.hit = item.frame;
            item.shape = HUD_SHAPE_ROUNDED_RECTANGLE;
            item.corner_radius = 8;
            item.icon_color = palette->ink;
            item.text_color = palette->ink;
            item.z = 21;
            item.flags = HUD_NODE_FLAG_INTERACTIVE;
            if (vb_pressed(ui, revealed, HUD_PART_MODE, (int32_t)i)) item.flags |= HUD_NODE_FLAG_PRESSED;
            if (HUD_STRUCT_HAS(mode, hud_mode_t, flags) && (mode->flags & HUD_MODE_FLAG_CURRENT) != 0)
                item.flags |= HUD_NODE_FLAG_SELECTED;
            item.icon = mode->icon;
            item.accessibility_label = mode->label[0] != '\0' ? mode->label : vb_icon_word(mode->icon, "Mode");
            vb_push(layout, &item, env);
        }
    }
    return VB_FINISH(layout);
}

static const hud_renderer_descriptor_t vb_descriptors[] = {
    {
        .struct_size = VB_DESCRIPTOR_SIZE,
        .capabilities = VB_CAPABILITIES,
        .id = VB_ID,
        .name = VB_NAME,
        .version = "1.0.0",
        .vendor = "Hudson fixtures",
        .description = "A conformance fixture: " VB_NAME ".",
        .supported_positions = HUD_POSITION_ALL_BITS,
        .layout = vb_layout,
        .get_extension = VB_GET_EXTENSION,
        .picker_icon = VB_PICKER_ICON,
    },
};

#ifndef VB_NO_ENTRY
static uint32_t vb_refcount;
static hud_status_t vb_init(void) {
    VB_INIT_BODY
    vb_refcount++;
    return HUD_STATUS_OK;
}
static void vb_deinit(void) {
    VB_DEINIT_BODY
}
static uint32_t vb_renderer_count(void) { return VB_RENDERER_COUNT; }
static const hud_renderer_descriptor_t *vb_renderer_at(uint32_t i) {
    return VB_RENDERER_AT(i);
}
static const hud_entry_t vb_entry = {
    .abi_version = VB_ABI_VERSION,
    .struct_size = sizeof(hud_entry_t),
    .init = vb_init,
    .deinit = vb_deinit,
    .renderer_count = vb_renderer_count,
    .renderer_at = vb_renderer_at,
};
HUD_EXPORT const hud_entry_t *HUD_ENTRY_SYMBOL(void) { return VB_ENTRY_RESULT; }
#else
/* No entry symbol: keep the layout referenced so -Werror stays quiet. */
HUD_EXPORT const void *validate_fixture_without_entry(void);
HUD_EXPORT const void *validate_fixture_without_entry(void) { return vb_descriptors; }
#endif

#endif /* VALIDATE_BASE_H */
