/* SPDX-License-Identifier: MIT */
/*
 * starter.c — @NAME@ (@ID@), a Hudson HUD renderer in plain C11.
 *
 * Made by `hudhost new` from the Starter template. It needs only the SDK
 * header (no libm, no state) and passes `hudhost validate --profile strict`
 * as generated; change the metrics and the placement functions below and
 * re-run `make validate` after every change.
 *
 * The Starter layout, in points, in a left-to-right working frame. For RTL
 * the safe area's left and right insets are swapped first and every
 * rectangle is mirrored at the end (x' = W - x - w), so "left" below means
 * leading.
 *
 *   - Corner slots: 48 x 48 rounded squares, 16 inside the safe area's
 *     sides; the top ones 8 below the navigation bar (or the safe top), the
 *     bottom ones 16 above the bottom safe edge.
 *   - The center slot: a 56 pt circle at the middle of the safe area,
 *     bottom-aligned with the bottom corners.
 *   - A secondary chip: a 24 pt circle on its slot's inner side, toward the
 *     screen's centre (trailing of a leading slot, leading of a trailing
 *     slot, trailing of the center), vertically centered, 12 from the slot,
 *     so its 44 x 44 hit region stays clear of the slot's. The slot stays
 *     in its corner.
 *   - The revealed slot's long-press modes: items 8 apart in a card (8
 *     padding), each its icon over its label (10 pt at the Large text size,
 *     scaled with it up to 20), all as wide as the widest label needs and
 *     at least 44 x 44, in rows as wide as the safe area allows (16 margins),
 *     12 above a bottom or center slot or 12 below a top one, centered on
 *     the slot and kept inside the safe area. The card and its items are
 *     painted above everything else.
 *   - Interactive nodes get a hit region of at least 44 x 44 centered on
 *     their frame; the others an all-zero one. Every node floats: content
 *     insets are zero.
 */
#include "hud_renderer.h"

/* What the host reads about this renderer (id, name, version, vendor,
 * description) is the HUD_DECLARE_RENDERER at the end of this file. */

/* The positions this renderer draws: the descriptor's supported_positions.
 * A slot published anywhere else is reported in hidden_positions instead. */
#define STARTER_POSITIONS HUD_POSITION_ALL_BITS

/* ------------------------------------------------------------------------ */
/* Metrics (pt)                                                              */
/* ------------------------------------------------------------------------ */

#define STARTER_CORNER_SIZE 48.0    /* a corner slot */
#define STARTER_CORNER_RADIUS 14.0  /* its corner radius */
#define STARTER_CENTER_SIZE 56.0    /* the center slot's diameter */
#define STARTER_CHIP_SIZE 24.0      /* a secondary chip's diameter */
#define STARTER_CHIP_GAP 12.0       /* slot edge to chip edge */
#define STARTER_SIDE_MARGIN 16.0    /* slots and the picker from the safe sides */
#define STARTER_TOP_MARGIN 8.0      /* top slots below the navigation bar */
#define STARTER_BOTTOM_MARGIN 16.0  /* bottom slots above the bottom safe edge */
#define STARTER_MODE_SIZE 44.0      /* a mode item, at least, both ways */
#define STARTER_MODE_ICON 14.0      /* its icon, above its label */
#define STARTER_MODE_FONT 10.0      /* its label at text scale 1 */
#define STARTER_MODE_FONT_MAX 20.0  /* ... and at the largest text sizes */
#define STARTER_MODE_INSET 6.0      /* around the icon and label, and between them: 2 */
#define STARTER_MODE_RADIUS 10.0    /* its corner radius */
#define STARTER_MODE_GAP 8.0        /* between two mode items */
#define STARTER_PICKER_PADDING 8.0  /* the card around its items */
#define STARTER_PICKER_RADIUS 16.0  /* the card's corner radius */
#define STARTER_PICKER_OFFSET 12.0  /* slot edge to card edge */
#define STARTER_MIN_HIT 44.0        /* the smallest touch target, both ways */
#define STARTER_MAX_LENGTH 1e6      /* larger screens are refused as unsupported */

/* Paint order: slots under their chips, the picker above both. */
#define STARTER_Z_SLOT 10
#define STARTER_Z_CHIP 11
#define STARTER_Z_PICKER 20
#define STARTER_Z_MODE 21

/* ------------------------------------------------------------------------ */
/* Small geometry                                                            */
/* ------------------------------------------------------------------------ */

static double starter_min(double a, double b) { return a < b ? a : b; }
static double starter_max(double a, double b) { return a > b ? a : b; }

/* `value` clamped into [lower, upper]; `lower` wins when they cross. */
static double starter_clamp(double value, double lower, double upper) {
    return starter_max(lower, starter_min(value, upper));
}

static hud_rect_t starter_rect(double x, double y, double width, double height) {
    return (hud_rect_t){x, y, width, height};
}

/* The smallest whole number >= value (no libm needed). */
static double starter_ceil(double value) {
    double whole = (double)(long long)value;
    return whole < value ? whole + 1 : whole;
}

/* The characters (UTF-8 code points) of `text`; 0 for NULL. */
static double starter_characters(const char *text) {
    double count = 0;
    for (const char *c = text; c != NULL && *c != '\0'; c++) {
        if (((unsigned char)*c & 0xC0u) != 0x80u) count++;
    }
    return count;
}

/* `frame` grown to at least STARTER_MIN_HIT both ways, around its center. */
static hud_rect_t starter_hit(hud_rect_t frame) {
    double width = starter_max(STARTER_MIN_HIT, frame.width);
    double height = starter_max(STARTER_MIN_HIT, frame.height);
    return starter_rect(frame.x - (width - frame.width) / 2, frame.y - (height - frame.height) / 2,
                        width, height);
}

/* ------------------------------------------------------------------------ */
/* One layout() call's working frame                                         */
/* ------------------------------------------------------------------------ */

typedef struct starter_frame {
    double width;    /* the screen */
    hud_rect_t safe; /* the safe area, left and right insets swapped in RTL */
    double top;      /* nothing interactive above this: the navigation bar's bottom */
    int rtl;
    double text_scale; /* the Dynamic Type factor, kept within 0.5...2 */
    const hud_palette_t *palette;
    const hud_interaction_t *interaction;
} starter_frame_t;

static starter_frame_t starter_frame_make(const hud_environment_t *env,
                                          const hud_interaction_t *interaction) {
    starter_frame_t f;
    hud_insets_t in = env->safe_area;
    f.rtl = env->layout_direction == HUD_LAYOUT_DIRECTION_RTL;
    if (f.rtl) { /* lay out as LTR with the physical insets swapped */
        double left = in.left;
        in.left = in.right;
        in.right = left;
    }
    f.width = env->screen_width;
    /* Insets larger than the screen leave an empty safe area, never a
     * negative one. */
    f.safe.x = starter_min(in.left, env->screen_width);
    f.safe.y = starter_min(in.top, env->screen_height);
    f.safe.width = starter_max(0, env->screen_width - in.right - f.safe.x);
    f.safe.height = starter_max(0, env->screen_height - in.bottom - f.safe.y);
    hud_rect_t bar = env->navigation_bar;
    double bar_bottom = bar.height > 0 ? bar.y + bar.height : f.safe.y;
    f.top = starter_clamp(bar_bottom, f.safe.y, f.safe.y + f.safe.height);
    /* A NaN fails both comparisons and becomes 0.5. */
    f.text_scale = !(env->text_scale >= 0.5) ? 0.5 : !(env->text_scale <= 2.0) ? 2.0 : env->text_scale;
    f.palette = env->palette;
    f.interaction = interaction;
    return f;
}

/* ------------------------------------------------------------------------ */
/* Nodes                                                                     */
/* ------------------------------------------------------------------------ */

/* `text` if it is non-empty, else `fallback`. */
static const char *starter_text(const char *text, const char *fallback) {
    return text != NULL && text[0] != '\0' ? text : fallback;
}

/* An icon's name when it reads as a word ("star"), else `fallback`: a
 * dotted symbol name ("list.bullet") is never an accessibility label. */
static const char *starter_icon_word(const char *icon, const char *fallback) {
    if (icon == NULL || icon[0] == '\0') return fallback;
    for (const char *c = icon; *c != '\0'; c++) {
        if (*c == '.') return fallback;
    }
    return icon;
}

/* Hudson's tintStrong: the color at 60% opacity. */
static hud_rgba_t starter_tint_strong(hud_rgba_t color) {
    return (color & 0xFFFFFF00u) | 0x99u;
}

static int starter_is_pressed(const starter_frame_t *f, hud_position_t position, hud_part_t part,
                              int32_t mode_index) {
    const hud_interaction_t *i = f->interaction;
    return i->pressed_position == position && i->pressed_part == part &&
           (part != HUD_PART_MODE || i->pressed_mode_index == mode_index);
}

/* A solid node with every field but colors and strings set; interactive
 * ones get their hit region and pressed state. */
static hud_node_t starter_node(const starter_frame_t *f, hud_node_kind_t kind,
                               hud_position_t position, hud_part_t part, int32_t mode_index,
                               hud_rect_t frame, hud_shape_t shape, double corner_radius, int z,
                               int interactive) {
    hud_node_t node = {0};
    node.kind = kind;
    node.position = position;
    node.part = part;
    node.mode_index = mode_index;
    node.frame = frame;
    node.shape = shape;
    node.material = HUD_MATERIAL_SOLID;
    node.corner_radius = corner_radius;
    node.placement = HUD_PLACEMENT_OVERLAY;
    node.z = z;
    if (interactive) {
        node.hit = starter_hit(frame);
        node.flags = HUD_NODE_FLAG_INTERACTIVE;
        if (starter_is_pressed(f, position, part, mode_index)) node.flags |= HUD_NODE_FLAG_PRESSED;
    }
    return node;
}

/* Mirrors a node for RTL and appends it (counted even when the buffer is
 * full: the two-call idiom). */
static void starter_push(hud_layout_t *layout, const starter_frame_t *f, hud_node_t node) {
    if (f->rtl) {
        node.frame.x = f->width - node.frame.x - node.frame.width;
        if (node.flags & HUD_NODE_FLAG_INTERACTIVE) node.hit.x = f->width - node.hit.x - node.hit.width;
    }
    hud_layout_push_node(layout, &node);
}

/* A slot button in its role's colors. */
static void starter_emit_slot(hud_layout_t *layout, const starter_frame_t *f,
                              hud_position_t position, const hud_slot_t *slot, hud_rect_t frame) {
    const hud_palette_t *pal = f->palette;
    int center = position == HUD_POSITION_CENTER;
    hud_node_t node = starter_node(f, HUD_NODE_KIND_SLOT, position, HUD_PART_SLOT, -1, frame,
                                   center ? HUD_SHAPE_CIRCLE : HUD_SHAPE_ROUNDED_RECTANGLE,
                                   center ? frame.width / 2 : STARTER_CORNER_RADIUS,
                                   STARTER_Z_SLOT, 1);
    switch (slot->role) {
    case HUD_ROLE_ACCENT:
        node.fill = pal->accent;
        node.icon_color = pal->bg;
        node.stroke = starter_tint_strong(pal->accent);
        break;
    case HUD_ROLE_DESTRUCTIVE:
        node.fill = pal->status_error;
        node.icon_color = pal->ink;
        node.stroke = starter_tint_strong(pal->status_error);
        break;
    default: /* HUD_ROLE_STANDARD, and roles from a newer host */
        node.fill = pal->surface;
        node.icon_color = pal->ink;
        node.stroke = pal->hairline_standard;
        break;
    }
    node.stroke_width = 1;
    /* ABI 1.1: the glyph's size in pt (0 = the host's default). push_node
     * copies only what the host's node_stride covers, so a 1.0 host never
     * sees it and nothing else changes. */
    node.glyph_size = center ? 22 : 16;
    node.icon = slot->icon;
    node.accessibility_label = starter_text(slot->label, starter_icon_word(slot->icon, "Complication"));
    starter_push(layout, f, node);
}

/* A secondary chip: a control when it has an action, else a badge. */
static void starter_emit_chip(hud_layout_t *layout, const starter_frame_t *f,
                              hud_position_t position, const hud_secondary_t *chip,
                              hud_rect_t frame) {
    const hud_palette_t *pal = f->palette;
    hud_node_t node = starter_node(f, HUD_NODE_KIND_SECONDARY, position, HUD_PART_SECONDARY, -1,
                                   frame, HUD_SHAPE_CIRCLE, frame.width / 2, STARTER_Z_CHIP,
                                   chip->action != NULL);
    node.fill = pal->surface;
    node.icon_color = pal->muted;
    node.stroke = pal->hairline_subtle;
    node.stroke_width = 0.5;
    node.icon = chip->icon;
    node.accessibility_label = starter_text(chip->label, starter_icon_word(chip->icon, "Secondary"));
    starter_push(layout, f, node);
}

/* A slot and its chip. (slot_x, slot_y) is the slot's top-left corner. The
 * chip goes on the slot's left when `chip_on_left`, else on its right. */
static void starter_emit_group(hud_layout_t *layout, const starter_frame_t *f,
                               hud_position_t position, const hud_slot_t *slot, double slot_x,
                               double slot_y, double size, int chip_on_left, hud_rect_t *slot_frame) {
    *slot_frame = starter_rect(slot_x, slot_y, size, size);
    starter_emit_slot(layout, f, position, slot, *slot_frame);
    if (slot->secondary == NULL) return;
    double chip_x = chip_on_left ? slot_x - STARTER_CHIP_GAP - STARTER_CHIP_SIZE
                                 : slot_x + size + STARTER_CHIP_GAP;
    double chip_y = slot_y + (size - STARTER_CHIP_SIZE) / 2;
    starter_emit_chip(layout, f, position, slot->secondary,
                      starter_rect(chip_x, chip_y, STARTER_CHIP_SIZE, STARTER_CHIP_SIZE));
}

/* The revealed slot's modes: a non-interactive CONTAINER card, then one
 * MODE_ITEM per mode, leading to trailing and top to bottom. */
static void starter_emit_picker(hud_layout_t *layout, const starter_frame_t *f,
                                hud_position_t position, const hud_slot_t *slot,
                                hud_rect_t slot_frame) {
    uint32_t count = slot->mode_count; /* 1...HUD_MAX_MODES here */
    double room = f->safe.width - 2 * STARTER_SIDE_MARGIN - 2 * STARTER_PICKER_PADDING;
    /* Every item as wide as the widest label needs (an average glyph is
     * 0.55 of the font size; the host truncates what does not fit) and as
     * tall as inset, icon, 2, a line of label and inset. */
    double font = starter_min(STARTER_MODE_FONT * f->text_scale, STARTER_MODE_FONT_MAX);
    double widest = 0;
    for (uint32_t i = 0; i < count; i++) widest = starter_max(widest, starter_characters(slot->modes[i]->label));
    double item_width = starter_max(STARTER_MODE_SIZE,
                                    starter_min(widest * font * 0.55 + 2 * STARTER_MODE_INSET, room));
    double item_height = starter_max(STARTER_MODE_SIZE,
                                     2 * STARTER_MODE_INSET + STARTER_MODE_ICON + 2 + starter_ceil(font * 1.2));
    double fit = (room + STARTER_MODE_GAP) / (item_width + STARTER_MODE_GAP); /* items per row; may be < 1 */
    uint32_t columns = fit >= count ? count : fit >= 1 ? (uint32_t)fit : 1;
    uint32_t rows = (count + columns - 1) / columns;
    double width = columns * (item_width + STARTER_MODE_GAP) - STARTER_MODE_GAP + 2 * STARTER_PICKER_PADDING;
    double height = rows * (item_height + STARTER_MODE_GAP) - STARTER_MODE_GAP + 2 * STARTER_PICKER_PADDING;

    int opens_below = position == HUD_POSITION_TOP_LEFT || position == HUD_POSITION_TOP_RIGHT;
    double y = opens_below ? slot_frame.y + slot_frame.height + STARTER_PICKER_OFFSET
                           : slot_frame.y - STARTER_PICKER_OFFSET - height;
    double x = slot_frame.x + slot_frame.width / 2 - width / 2;
    hud_rect_t card = starter_rect(
        starter_clamp(x, f->safe.x + STARTER_SIDE_MARGIN,
                      f->safe.x + f->safe.width - STARTER_SIDE_MARGIN - width),
        starter_clamp(y, f->top, f->safe.y + f->safe.height - height), width, height);

    hud_node_t node = starter_node(f, HUD_NODE_KIND_CONTAINER, position, HUD_PART_CONTAINER, -1,
                                   card, HUD_SHAPE_ROUNDED_RECTANGLE, STARTER_PICKER_RADIUS,
                                   STARTER_Z_PICKER, 0);
    node.fill = f->palette->chrome;
    node.stroke = f->palette->border;
    node.stroke_width = 1;
    node.accessibility_label = "Modes";
    starter_push(layout, f, node);

    for (uint32_t i = 0; i < count; i++) {
        const hud_mode_t *mode = slot->modes[i];
        hud_rect_t frame = starter_rect(card.x + STARTER_PICKER_PADDING + (i % columns) * (item_width + STARTER_MODE_GAP),
                                        card.y + STARTER_PICKER_PADDING + (i / columns) * (item_height + STARTER_MODE_GAP),
                                        item_width, item_height);
        hud_node_t item = starter_node(f, HUD_NODE_KIND_MODE_ITEM, position, HUD_PART_MODE,
                                       (int32_t)i, frame, HUD_SHAPE_ROUNDED_RECTANGLE,
                                       STARTER_MODE_RADIUS, STARTER_Z_MODE, 1);
        item.fill = f->palette->surface;
        item.icon_color = f->palette->ink;
        item.stroke = f->palette->hairline_standard;
        item.stroke_width = 1;
        item.text_color = f->palette->ink;
        item.icon = mode->icon;
        item.glyph_size = STARTER_MODE_ICON; /* ABI 1.1; see starter_emit_slot */
        /* The label, shown under the icon; a mode without one shows only its icon. */
        item.label = mode->label;
        item.font_size = mode->label != NULL && mode->label[0] != '\0' ? font : 0;
        item.accessibility_label = starter_text(mode->label, starter_icon_word(mode->icon, "Mode"));
        /* ABI 1.2: the host flags the slot's current mode (the style in use
         * in a style picker); its item is marked selected. An older host's
         * modes have no flags field. */
        if (HUD_STRUCT_HAS(mode, hud_mode_t, flags) && (mode->flags & HUD_MODE_FLAG_CURRENT) != 0)
            item.flags |= HUD_NODE_FLAG_SELECTED;
        starter_push(layout, f, item);
    }
}

/* ------------------------------------------------------------------------ */
/* layout()                                                                  */
/* ------------------------------------------------------------------------ */

/* Every input this renderer reads, checked against the header's rules:
 * INVALID_ARGUMENT for what breaks them, UNSUPPORTED for screens too large
 * to lay out.
 *
 * Sizes are compared with the frozen 1.0 sizes (HUD_*_SIZE_1_0), never with
 * sizeof: every field read here is in ABI 1.0, so a 1.0 host's structures
 * are accepted even after a rebuild against a newer 1.x header, whose
 * structures have grown. Read a field added after 1.0 only when
 * HUD_STRUCT_HAS(ptr, type, field) says the host's structure has it, and
 * use zero (its 1.0 meaning) when it does not. */
static hud_status_t starter_check(const hud_complications_t *c, const hud_environment_t *env,
                                  const hud_interaction_t *interaction, const hud_layout_t *layout) {
    if (c == NULL || env == NULL || interaction == NULL || layout == NULL)
        return HUD_STATUS_INVALID_ARGUMENT;
    if (c->struct_size < HUD_COMPLICATIONS_SIZE_1_0 ||
        env->struct_size < HUD_ENVIRONMENT_SIZE_1_0 ||
        interaction->struct_size < HUD_INTERACTION_SIZE_1_0 ||
        layout->struct_size < HUD_LAYOUT_SIZE_1_0 ||
        layout->node_stride < HUD_NODE_SIZE_1_0 || /* push_node copies what both know */
        (layout->capacity > 0 && layout->nodes == NULL))
        return HUD_STATUS_INVALID_ARGUMENT;
    if (env->palette == NULL || env->palette->struct_size < HUD_PALETTE_SIZE_1_0)
        return HUD_STATUS_INVALID_ARGUMENT;
    const double lengths[] = {env->screen_width,   env->screen_height,    env->safe_area.top,
                              env->safe_area.left, env->safe_area.bottom, env->safe_area.right,
                              env->navigation_bar.y, env->navigation_bar.height};
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        /* NaN, infinite or negative: invalid; merely huge: unsupported. */
        if (!(lengths[i] >= 0 && lengths[i] - lengths[i] == 0)) return HUD_STATUS_INVALID_ARGUMENT;
        if (lengths[i] > STARTER_MAX_LENGTH) return HUD_STATUS_UNSUPPORTED;
    }
    if (env->screen_width <= 0 || env->screen_height <= 0) return HUD_STATUS_INVALID_ARGUMENT;

    for (int p = 0; p < HUD_POSITION_COUNT; p++) {
        const hud_slot_t *slot = c->slots[p];
        if (slot == NULL) continue;
        if (slot->struct_size < HUD_SLOT_SIZE_1_0 ||
            slot->mode_count > HUD_MAX_MODES || (slot->mode_count > 0 && slot->modes == NULL))
            return HUD_STATUS_INVALID_ARGUMENT;
        const hud_secondary_t *chip = slot->secondary;
        if (chip != NULL && chip->struct_size < HUD_SECONDARY_SIZE_1_0)
            return HUD_STATUS_INVALID_ARGUMENT;
        for (uint32_t m = 0; m < slot->mode_count; m++) {
            const hud_mode_t *mode = slot->modes[m];
            if (mode == NULL || mode->struct_size < HUD_MODE_SIZE_1_0)
                return HUD_STATUS_INVALID_ARGUMENT;
        }
    }
    return HUD_STATUS_OK;
}

static hud_status_t starter_layout(const hud_renderer_descriptor_t *self,
                                   const hud_complications_t *complications,
                                   const hud_environment_t *environment,
                                   const hud_interaction_t *interaction, hud_layout_t *layout) {
    if (self == NULL) return HUD_STATUS_INVALID_ARGUMENT;
    hud_status_t status = starter_check(complications, environment, interaction, layout);
    if (status != HUD_STATUS_OK) return status;

    starter_frame_t f = starter_frame_make(environment, interaction);
    const hud_rect_t safe = f.safe;
    const double top = f.top + STARTER_TOP_MARGIN;
    const double bottom = safe.y + safe.height - STARTER_BOTTOM_MARGIN; /* bottom slots end here */

    layout->count = 0;
    layout->hidden_positions = 0;
    hud_rect_t frames[HUD_POSITION_COUNT] = {{0}}; /* each shown slot's frame, LTR */
    for (hud_position_t p = 0; p < HUD_POSITION_COUNT; p++) {
        const hud_slot_t *slot = complications->slots[p];
        if (slot == NULL) continue;
        if (!(STARTER_POSITIONS & HUD_POSITION_BIT(p))) {
            layout->hidden_positions |= HUD_POSITION_BIT(p);
            continue;
        }
        if (p == HUD_POSITION_CENTER) {
            /* The chip on the trailing side. */
            starter_emit_group(layout, &f, p, slot,
                               safe.x + safe.width / 2 - STARTER_CENTER_SIZE / 2,
                               bottom - STARTER_CENTER_SIZE, STARTER_CENTER_SIZE, 0, &frames[p]);
            continue;
        }
        int leading = p == HUD_POSITION_TOP_LEFT || p == HUD_POSITION_BOTTOM_LEFT;
        int on_top = p == HUD_POSITION_TOP_LEFT || p == HUD_POSITION_TOP_RIGHT;
        double x = leading ? safe.x + STARTER_SIDE_MARGIN
                           : safe.x + safe.width - STARTER_SIDE_MARGIN - STARTER_CORNER_SIZE;
        double y = on_top ? top : bottom - STARTER_CORNER_SIZE;
        /* The chip on the inner side: right of a leading slot. */
        starter_emit_group(layout, &f, p, slot, x, y, STARTER_CORNER_SIZE, !leading, &frames[p]);
    }

    /* The host reveals only a slot with modes; draw the picker only for a
     * slot this layout shows. */
    hud_position_t revealed = interaction->revealed_position;
    if (revealed >= 0 && revealed < HUD_POSITION_COUNT) {
        const hud_slot_t *slot = complications->slots[revealed];
        if (slot != NULL && slot->mode_count > 0 && (STARTER_POSITIONS & HUD_POSITION_BIT(revealed)))
            starter_emit_picker(layout, &f, revealed, slot, frames[revealed]);
    }

    layout->content_insets = (hud_insets_t){0, 0, 0, 0}; /* everything floats */
    return hud_layout_finish(layout);
}

/* ------------------------------------------------------------------------ */
/* The descriptor, its metadata record and the entry                         */
/* ------------------------------------------------------------------------ */

static const void *starter_get_extension(const hud_renderer_descriptor_t *self,
                                         const char *extension_id) {
    (void)self;
    (void)extension_id;
    return NULL; /* no extensions */
}

/* The descriptor `starter_renderer` and its metadata record in the
 * .hud_renderers ELF section (which lets `hudhost list` show this plugin
 * without running any of its code), from this one declaration: the host
 * refuses a renderer whose record and descriptor disagree, and here they
 * cannot. Each string is checked at compile time against its limit. */
HUD_DECLARE_RENDERER_WITH_ICON(starter_renderer,
                     "@ID@",                    /* id */
                     "@NAME@",                  /* name */
                     "0.1.0",                   /* version */
                     "Example vendor",          /* vendor: your name or organization */
                     "Corner slots in the safe area's corners, the center slot at the bottom "
                     "middle, chips on the inner side, long-press modes in a card beside the "
                     "slot.",                   /* description */
                     STARTER_POSITIONS,         /* supported_positions */
                     HUD_CAPABILITY_THREAD_SAFE, /* layout() reads only its arguments, keeps nothing */
                     starter_layout,
                     starter_get_extension,
                     "paintpalette");            /* picker_icon: what a style picker shows */

/* The entry: init()/deinit() reference counted, renderer_count() 0 until
 * init(), renderer_at() NULL past the end, and the exported
 * hud_renderer_get_entry(). */
static const hud_renderer_descriptor_t *const starter_renderers[] = {&starter_renderer};
HUD_DEFINE_ENTRY(starter_renderers);
