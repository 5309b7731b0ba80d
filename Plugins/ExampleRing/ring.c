/* SPDX-License-Identifier: MIT */
/*
 * ring.c — ExampleRing, a Hudson HUD renderer in plain C11.
 *
 * Written against the SDK's hud_renderer.h only: no host headers, no libm,
 * no state. It is the running example of Docs/PLUGIN_GUIDE.md; copy it and
 * change the geometry. Build it on its own with
 *
 *     cc -std=c11 -O2 -shared -fPIC $(hudhost sdk --cflags) ring.c -o libring.so
 *
 * The layout, in points, in a left-to-right working frame (in RTL the safe
 * area's left and right insets are swapped first and every rectangle is
 * mirrored at the end, x' = W - x - w):
 *
 *   - The center slot (64) sits at the bottom middle of the safe area, its
 *     bottom edge 28 above the bottom safe edge. Its center (cx, cy) is the
 *     ring's center.
 *   - The four corner slots (48) sit on a circle of radius r around it, at
 *     fixed angles (counterclockwise from the trailing side, y up): bottom
 *     leading 170°, top leading 130°, top trailing 50°, bottom trailing 10°.
 *     r = 110, or less (never below 72) so that every shown slot keeps its
 *     hit region 12 inside the safe area's sides and below the navigation
 *     bar.
 *   - A corner slot's secondary chip (22) sits on its inner side, toward
 *     the screen's centre line (right of a leading slot, left of a trailing
 *     one), vertically centred, 4 from the slot, as in Hudson's own
 *     renderers. A chip with an action gets a 44 pt hit region that starts
 *     at the middle of that gap and extends away from its slot, so the two
 *     regions meet without overlapping. The center slot shows no chip.
 *     (At r = 110 the top pair's chip regions stay 1.4 pt apart and the
 *     bottom ones 6 pt clear of the center slot's.)
 *   - Glyphs: 22 in the center slot, 16 in a corner slot, 11 in a chip, 14
 *     in a mode item (hud_node_t.glyph_size, ABI 1.1).
 *   - Revealed long-press modes fan out on a wider circle, radius 110 + 70 =
 *     180, 44 pt items 20° apart, centered on the revealed slot's angle
 *     (90° for the center) and turned inward until they fit the screen; a
 *     fan that does not fit in one arc continues on the next, 64 further
 *     out.
 *
 * Angles are whole multiples of 10°, read from a small cosine table, so
 * the plugin needs nothing beyond libc (no -lm on the build line).
 */
#include "hud_renderer.h"

/* ------------------------------------------------------------------------ */
/* Metrics (pt): Hudson's tokens                                             */
/* ------------------------------------------------------------------------ */

#define RING_CENTER_SIZE 64.0  /* the center slot's diameter */
#define RING_CORNER_SIZE 48.0  /* a corner slot's diameter */
#define RING_CHIP_SIZE 22.0    /* a secondary chip's diameter */
#define RING_CHIP_GAP 4.0      /* slot edge to chip edge, badge or control */
#define RING_MODE_SIZE 44.0    /* a mode item's diameter */
#define RING_MIN_HIT 44.0      /* the smallest touch target, both ways */
#define RING_CENTER_LIFT 28.0  /* center slot bottom above the bottom safe edge */
#define RING_RADIUS 110.0      /* corner slot centers from the ring's center */
#define RING_MIN_RADIUS 72.0   /* below this corner slots would hit the center */
#define RING_FAN_OFFSET 70.0   /* the fan's circle is this much wider */
#define RING_FAN_ROW 64.0      /* between two arcs of one fan (> 44 * sqrt 2) */
#define RING_FAN_STEP 2        /* between two mode items, in 10° steps */
#define RING_MARGIN 12.0       /* hit regions keep this far from the safe sides */
#define RING_MAX_LENGTH 1e6    /* larger screens are refused as unsupported */

/* Icon glyph sizes (pt; ABI 1.1 hud_node_t.glyph_size): Hudson's center
 * 22, corner 16, chip 11 and picker item 14. hud_layout_push_node() copies
 * only what the host's node_stride covers, so on a 1.0 host (stride
 * HUD_NODE_SIZE_1_0) the field is simply not written and that host draws
 * its default size; nothing else changes. */
#define RING_CENTER_GLYPH 22.0
#define RING_CORNER_GLYPH 16.0
#define RING_CHIP_GLYPH 11.0
#define RING_MODE_GLYPH 14.0

/* z order: slots under their chips, the fan above both. */
#define RING_Z_SLOT 10
#define RING_Z_CHIP 11
#define RING_Z_FAN 20
#define RING_Z_MODE 21

/* ------------------------------------------------------------------------ */
/* Small geometry                                                            */
/* ------------------------------------------------------------------------ */

static double ring_min(double a, double b) { return a < b ? a : b; }
static double ring_max(double a, double b) { return a > b ? a : b; }
static double ring_abs(double a) { return a < 0 ? -a : a; }

/* `value` clamped into [lower, upper]; `lower` wins when they cross. */
static double ring_clamp(double value, double lower, double upper) {
    return ring_max(lower, ring_min(value, upper));
}

/* cos(i * 10°) for i = 0...9. sin(i * 10°) is cos((9 - i) * 10°). */
static const double ring_cos10[10] = {
    1.0,               0.984807753012208, 0.939692620785908, 0.866025403784439,
    0.766044443118978, 0.642787609686539, 0.5,               0.342020143325669,
    0.173648177666930, 0.0,
};

/* A direction with y pointing UP (screen y grows down: subtract it). */
typedef struct ring_dir {
    double x;
    double y;
} ring_dir_t;

/* The unit vector at `step` * 10°, step 0...18: 0 trailing, 9 up,
 * 18 leading. */
static ring_dir_t ring_direction(int step) {
    if (step <= 9) return (ring_dir_t){ring_cos10[step], ring_cos10[9 - step]};
    return (ring_dir_t){-ring_cos10[18 - step], ring_cos10[step - 9]};
}

/* Each position's angle on the ring, in 10° steps (indexed by
 * hud_position_t). The center's is where its fan opens: straight up. */
static const int ring_step[HUD_POSITION_COUNT] = {
    [HUD_POSITION_TOP_LEFT] = 13,     /* 130° */
    [HUD_POSITION_TOP_RIGHT] = 5,     /*  50° */
    [HUD_POSITION_BOTTOM_LEFT] = 17,  /* 170° */
    [HUD_POSITION_BOTTOM_RIGHT] = 1,  /*  10° */
    [HUD_POSITION_CENTER] = 9,        /*  90° */
};

static hud_rect_t ring_square(double center_x, double center_y, double size) {
    return (hud_rect_t){center_x - size / 2, center_y - size / 2, size, size};
}

/* ------------------------------------------------------------------------ */
/* One layout() call's working frame                                         */
/* ------------------------------------------------------------------------ */

typedef struct ring_frame {
    double width, height; /* the screen */
    hud_rect_t safe;      /* the safe area, left/right swapped in RTL */
    double top_limit;     /* nothing interactive above this (navigation bar) */
    double cx, cy;        /* the ring's center: the center slot's center */
    double radius;        /* corner slot centers from (cx, cy) */
    double fan_radius;    /* the first arc of a revealed fan */
    int rtl;
    const hud_palette_t *palette;
    const hud_interaction_t *interaction;
} ring_frame_t;

/* The largest radius <= RING_RADIUS at which every shown corner slot keeps
 * its hit region RING_MARGIN inside the safe sides and below top_limit
 * (chips sit on the inner side, so they never reach further out); never
 * below RING_MIN_RADIUS (tiny screens are clamped later). */
static double ring_fit_radius(const ring_frame_t *f, const hud_complications_t *c) {
    double room_x = f->safe.width / 2 - RING_MARGIN;
    double room_y = f->cy - f->top_limit;
    double radius = RING_RADIUS;
    for (int p = 0; p < HUD_POSITION_CENTER; p++) {
        const hud_slot_t *slot = c->slots[p];
        if (slot == NULL) continue;
        ring_dir_t d = ring_direction(ring_step[p]);
        double half = RING_CORNER_SIZE / 2;
        radius = ring_min(radius, (room_x - half) / ring_abs(d.x));
        radius = ring_min(radius, (room_y - half) / d.y);
    }
    return ring_clamp(radius, RING_MIN_RADIUS, RING_RADIUS);
}

/* Reads the environment into a working frame. */
static void ring_frame_make(ring_frame_t *f, const hud_complications_t *c,
                            const hud_environment_t *env,
                            const hud_interaction_t *interaction) {
    hud_insets_t in = env->safe_area;
    f->rtl = env->layout_direction == HUD_LAYOUT_DIRECTION_RTL;
    if (f->rtl) { /* lay out as LTR with the physical insets swapped */
        double left = in.left;
        in.left = in.right;
        in.right = left;
    }
    f->width = env->screen_width;
    f->height = env->screen_height;
    f->safe.x = ring_min(in.left, f->width);
    f->safe.y = ring_min(in.top, f->height);
    f->safe.width = ring_max(0, f->width - in.right - f->safe.x);
    f->safe.height = ring_max(0, f->height - in.bottom - f->safe.y);

    /* Below the host's navigation bar (or a 44 pt one under the safe top). */
    hud_rect_t bar = env->navigation_bar;
    double bar_bottom = bar.height > 0 ? bar.y + bar.height : f->safe.y + 44;
    f->top_limit = ring_clamp(bar_bottom, f->safe.y, f->safe.y + f->safe.height);

    f->cx = f->safe.x + f->safe.width / 2;
    f->cy = f->safe.y + f->safe.height - RING_CENTER_LIFT - RING_CENTER_SIZE / 2;
    f->radius = ring_fit_radius(f, c);

    /* 70 further out than the slots: an item's hit region (half-diagonal
     * 31) clears a corner slot's (34), and chips lie nearer the center. */
    f->fan_radius = RING_RADIUS + RING_FAN_OFFSET;
    f->palette = env->palette;
    f->interaction = interaction;
}

/* ------------------------------------------------------------------------ */
/* Nodes                                                                     */
/* ------------------------------------------------------------------------ */

/* `text` if it is non-empty, else `fallback`. */
static const char *ring_text(const char *text, const char *fallback) {
    return text != NULL && text[0] != '\0' ? text : fallback;
}

/* An icon's name when it reads as a word ("star"), else `fallback`: a
 * dotted symbol name ("list.bullet") is never an accessibility label. */
static const char *ring_icon_word(const char *icon, const char *fallback) {
    if (icon == NULL || icon[0] == '\0') return fallback;
    for (const char *c = icon; *c != '\0'; c++) {
        if (*c == '.') return fallback;
    }
    return icon;
}

/* Hudson's tintStrong: the color at 60% opacity. */
static hud_rgba_t ring_tint_strong(hud_rgba_t color) {
    return (color & 0xFFFFFF00u) | 0x99u;
}

static int ring_is_pressed(const ring_frame_t *f, hud_position_t position,
                           hud_part_t part, int32_t mode_index) {
    const hud_interaction_t *i = f->interaction;
    return i->pressed_position == position && i->pressed_part == part &&
           (part != HUD_PART_MODE || i->pressed_mode_index == mode_index);
}

/* A circle node with every field set except colors and strings. */
static hud_node_t ring_circle(hud_node_kind_t kind, hud_position_t position,
                              hud_part_t part, int32_t mode_index,
                              hud_rect_t frame, int z, const ring_frame_t *f) {
    hud_node_t node = {0};
    node.kind = kind;
    node.position = position;
    node.part = part;
    node.mode_index = mode_index;
    node.frame = frame;
    node.shape = HUD_SHAPE_CIRCLE;
    node.material = HUD_MATERIAL_SOLID;
    node.corner_radius = frame.width / 2;
    node.placement = HUD_PLACEMENT_OVERLAY;
    node.z = z;
    node.flags = HUD_NODE_FLAG_INTERACTIVE;
    if (ring_is_pressed(f, position, part, mode_index)) node.flags |= HUD_NODE_FLAG_PRESSED;
    return node;
}

/* `rect` moved inside `bounds` on each axis where it fits. */
static hud_rect_t ring_keep_inside(hud_rect_t rect, hud_rect_t bounds) {
    if (rect.width <= bounds.width)
        rect.x = ring_clamp(rect.x, bounds.x, bounds.x + bounds.width - rect.width);
    if (rect.height <= bounds.height)
        rect.y = ring_clamp(rect.y, bounds.y, bounds.y + bounds.height - rect.height);
    return rect;
}

/* Puts a node on screen and gives it its touch target: an interactive
 * node's frame moves inside the safe area, its hit region is at least 44
 * both ways, centered on the frame, and kept inside the safe area too.
 * Non-interactive nodes have a zero hit region. On every real screen this
 * changes nothing; it is what keeps a tiny or odd viewport valid. */
static void ring_settle(hud_node_t *node, const ring_frame_t *f) {
    hud_rect_t screen = {0, 0, f->width, f->height};
    node->frame.width = ring_clamp(node->frame.width, 0, f->width);
    node->frame.height = ring_clamp(node->frame.height, 0, f->height);
    node->frame = ring_keep_inside(node->frame, screen);
    if (!(node->flags & HUD_NODE_FLAG_INTERACTIVE)) {
        node->hit = (hud_rect_t){0, 0, 0, 0};
        return;
    }
    node->frame = ring_keep_inside(node->frame, f->safe);
    hud_rect_t hit = node->frame;
    hit.width = ring_max(RING_MIN_HIT, hit.width);
    hit.height = ring_max(RING_MIN_HIT, hit.height);
    hit.x -= (hit.width - node->frame.width) / 2;
    hit.y -= (hit.height - node->frame.height) / 2;
    node->hit = ring_keep_inside(ring_keep_inside(hit, f->safe), screen);
}

/* Whether two rectangles share interior points (touching edges do not). */
static int ring_overlaps(hud_rect_t a, hud_rect_t b) {
    return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/* Whether `inner` lies inside `outer`. */
static int ring_covers(hud_rect_t outer, hud_rect_t inner) {
    return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width &&
           inner.y + inner.height <= outer.y + outer.height;
}

/* Keeps a control chip's hit region clear of its slot's without moving
 * either visual: where the two (centered) regions overlap, the strip
 * between the frames is split at the middle of the 4 pt gap; the slot's
 * region ends there (extending away from the chip), the chip's starts
 * there (extending away from the slot). Both keep their size and still
 * contain their frames (the chip needs 2 + 22 of its 44 pt). */
static void ring_split_hits(hud_node_t *slot, hud_node_t *chip) {
    if (!ring_overlaps(slot->hit, chip->hit)) return;
    hud_rect_t slot_hit = slot->hit, chip_hit = chip->hit;
    if (chip->frame.x > slot->frame.x) {
        double line = (slot->frame.x + slot->frame.width + chip->frame.x) / 2;
        if (slot_hit.x + slot_hit.width > line) slot_hit.x = line - slot_hit.width;
        if (chip_hit.x < line) chip_hit.x = line;
    } else {
        double line = (chip->frame.x + chip->frame.width + slot->frame.x) / 2;
        if (slot_hit.x < line) slot_hit.x = line;
        if (chip_hit.x + chip_hit.width > line) chip_hit.x = line - chip_hit.width;
    }
    /* On a degenerate screen (frames clamped onto each other) a split
     * cannot keep both frames covered: keep the centered regions. */
    if (!ring_covers(slot_hit, slot->frame) || !ring_covers(chip_hit, chip->frame)) return;
    slot->hit = slot_hit;
    chip->hit = chip_hit;
}

/* Mirrors a settled node for RTL and appends it. */
static void ring_push(hud_layout_t *layout, const ring_frame_t *f, hud_node_t node) {
    if (f->rtl) {
        node.frame.x = f->width - node.frame.x - node.frame.width;
        if (node.flags & HUD_NODE_FLAG_INTERACTIVE)
            node.hit.x = f->width - node.hit.x - node.hit.width;
    }
    hud_layout_push_node(layout, &node);
}

/* A slot button and, for a corner slot, its chip. (x, y) is the slot's
 * center; the chip goes on its right when `chip_on_right`, else on its
 * left (working frame). */
static void ring_emit_slot(hud_layout_t *layout, const ring_frame_t *f,
                           hud_position_t position, const hud_slot_t *slot,
                           double x, double y, double size, int chip_on_right) {
    const hud_palette_t *pal = f->palette;
    hud_node_t node = ring_circle(HUD_NODE_KIND_SLOT, position, HUD_PART_SLOT, -1,
                                  ring_square(x, y, size), RING_Z_SLOT, f);
    switch (slot->role) {
    case HUD_ROLE_ACCENT:
        node.fill = pal->accent;
        node.icon_color = pal->bg;
        node.stroke = ring_tint_strong(pal->accent);
        break;
    case HUD_ROLE_DESTRUCTIVE:
        node.fill = pal->status_error;
        node.icon_color = pal->ink;
        node.stroke = ring_tint_strong(pal->status_error);
        break;
    default: /* HUD_ROLE_STANDARD, and roles from a newer host */
        node.fill = pal->surface;
        node.icon_color = pal->ink;
        node.stroke = pal->hairline_standard;
        break;
    }
    node.stroke_width = 1;
    node.glyph_size = position == HUD_POSITION_CENTER ? RING_CENTER_GLYPH : RING_CORNER_GLYPH;
    node.icon = slot->icon;
    node.accessibility_label = ring_text(slot->label, ring_icon_word(slot->icon, "Complication"));
    ring_settle(&node, f);

    const hud_secondary_t *chip = slot->secondary;
    if (chip == NULL || position == HUD_POSITION_CENTER) {
        ring_push(layout, f, node);
        return;
    }
    double offset = size / 2 + RING_CHIP_GAP + RING_CHIP_SIZE / 2;
    hud_node_t badge = ring_circle(HUD_NODE_KIND_SECONDARY, position, HUD_PART_SECONDARY, -1,
                                   ring_square(chip_on_right ? x + offset : x - offset, y, RING_CHIP_SIZE),
                                   RING_Z_CHIP, f);
    if (chip->action == NULL) badge.flags = 0; /* a badge, not a control */
    badge.fill = pal->surface;
    badge.icon_color = pal->muted;
    badge.stroke = pal->hairline_subtle;
    badge.stroke_width = 0.5;
    badge.glyph_size = RING_CHIP_GLYPH;
    badge.icon = chip->icon;
    badge.accessibility_label = ring_text(chip->label, ring_icon_word(chip->icon, "Secondary action"));
    ring_settle(&badge, f);
    if (badge.flags & HUD_NODE_FLAG_INTERACTIVE) ring_split_hits(&node, &badge);
    ring_push(layout, f, node);
    ring_push(layout, f, badge);
}

/* The smallest rectangle holding both. */
static hud_rect_t ring_union(hud_rect_t a, hud_rect_t b) {
    double right = ring_max(a.x + a.width, b.x + b.width);
    double bottom = ring_max(a.y + a.height, b.y + b.height);
    a.x = ring_min(a.x, b.x);
    a.y = ring_min(a.y, b.y);
    a.width = right - a.x;
    a.height = bottom - a.y;
    return a;
}

/* The first 10° step (0...9) at which an item on a circle of `radius`
 * keeps its hit region RING_MARGIN inside the safe sides; the window is
 * [first, 18 - first]. 9 when even straight up does not fit. */
static int ring_first_fitting_step(const ring_frame_t *f, double radius) {
    double room_x = f->safe.width / 2 - RING_MARGIN - RING_MIN_HIT / 2;
    for (int step = 0; step < 9; step++) {
        if (radius * ring_direction(step).x <= room_x) return step;
    }
    return 9;
}

/* The revealed slot's modes: one MODE_ITEM each, on arcs around the ring,
 * after a non-interactive CONTAINER node bounding them all (mode_count is
 * 1...HUD_MAX_MODES here). */
static void ring_emit_fan(hud_layout_t *layout, const ring_frame_t *f,
                          hud_position_t position, const hud_slot_t *slot) {
    hud_node_t items[HUD_MAX_MODES];
    hud_rect_t box = {0, 0, 0, 0}; /* the items' bounding box */
    uint32_t count = slot->mode_count, placed = 0;
    double radius = f->fan_radius;
    while (placed < count) {
        int first = ring_first_fitting_step(f, radius);
        uint32_t room = (uint32_t)((18 - 2 * first) / RING_FAN_STEP + 1);
        uint32_t n = count - placed < room ? count - placed : room;
        /* Centered on the slot's angle, turned inward until the arc fits. */
        int span = (int)(n - 1) * RING_FAN_STEP / 2;
        int middle = ring_step[position];
        if (middle < first + span) middle = first + span;
        if (middle > 18 - first - span) middle = 18 - first - span;
        for (uint32_t k = 0; k < n; k++, placed++) {
            const hud_mode_t *mode = slot->modes[placed];
            /* Leading to trailing: mode 0 on the leading end. */
            ring_dir_t d = ring_direction(middle + span - (int)k * RING_FAN_STEP);
            hud_rect_t frame = ring_square(f->cx + radius * d.x, f->cy - radius * d.y, RING_MODE_SIZE);
            hud_node_t item = ring_circle(HUD_NODE_KIND_MODE_ITEM, position, HUD_PART_MODE,
                                          (int32_t)placed, frame, RING_Z_MODE, f);
            item.fill = f->palette->surface;
            item.icon_color = f->palette->ink;
            item.stroke = f->palette->hairline_standard;
            item.stroke_width = 1;
            item.glyph_size = RING_MODE_GLYPH;
            item.icon = mode->icon;
            item.accessibility_label = ring_text(mode->label, ring_icon_word(mode->icon, "Mode"));
            /* ABI 1.2: the current mode's item is marked (only a 1.2 host,
             * whose modes carry flags, sends HUD_MODE_FLAG_CURRENT). */
            if (HUD_STRUCT_HAS(mode, hud_mode_t, flags) && (mode->flags & HUD_MODE_FLAG_CURRENT) != 0)
                item.flags |= HUD_NODE_FLAG_SELECTED;
            ring_settle(&item, f);
            items[placed] = item;
            box = placed == 0 ? item.frame : ring_union(box, item.frame);
        }
        radius += RING_FAN_ROW;
    }

    hud_node_t fan = {0};
    fan.kind = HUD_NODE_KIND_CONTAINER;
    fan.position = position;
    fan.part = HUD_PART_CONTAINER;
    fan.mode_index = -1;
    fan.frame = box;
    fan.shape = HUD_SHAPE_RECTANGLE;
    fan.material = HUD_MATERIAL_NONE;
    fan.placement = HUD_PLACEMENT_OVERLAY;
    fan.z = RING_Z_FAN;
    fan.accessibility_label = "Modes";
    ring_settle(&fan, f);
    ring_push(layout, f, fan);
    for (uint32_t i = 0; i < count; i++) ring_push(layout, f, items[i]);
}

/* ------------------------------------------------------------------------ */
/* layout()                                                                  */
/* ------------------------------------------------------------------------ */

/* Every input this renderer reads, checked against the header's rules.
 *
 * Sizes are compared with the frozen 1.0 sizes, never with sizeof: every
 * input field the ring reads is in ABI 1.0, so a host built against any
 * 1.x header (whose structures may be smaller than this header's) is
 * served, and so is this file rebuilt against a later header. A field
 * added after 1.0 would be read only behind HUD_STRUCT_HAS(ptr, type,
 * field), with zero (its 1.0 meaning) when the host's struct_size does not
 * cover it. The one 1.1 output field it writes, glyph_size, goes out
 * through hud_layout_push_node(), which honours a 1.0 node_stride. */
static hud_status_t ring_check(const hud_complications_t *c, const hud_environment_t *env,
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
    const double lengths[] = {env->screen_width, env->screen_height, env->safe_area.top,
                              env->safe_area.left, env->safe_area.bottom, env->safe_area.right,
                              env->navigation_bar.y, env->navigation_bar.height};
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        /* NaN, infinite or negative: invalid; merely huge: unsupported. */
        if (!(lengths[i] >= 0 && lengths[i] - lengths[i] == 0)) return HUD_STATUS_INVALID_ARGUMENT;
        if (lengths[i] > RING_MAX_LENGTH) return HUD_STATUS_UNSUPPORTED;
    }
    if (env->screen_width <= 0 || env->screen_height <= 0) return HUD_STATUS_INVALID_ARGUMENT;

    for (int p = 0; p < HUD_POSITION_COUNT; p++) {
        const hud_slot_t *slot = c->slots[p];
        if (slot == NULL) continue;
        if (slot->struct_size < HUD_SLOT_SIZE_1_0 || slot->icon == NULL ||
            slot->mode_count > HUD_MAX_MODES || (slot->mode_count > 0 && slot->modes == NULL))
            return HUD_STATUS_INVALID_ARGUMENT;
        const hud_secondary_t *chip = slot->secondary;
        if (chip != NULL && (chip->struct_size < HUD_SECONDARY_SIZE_1_0 || chip->icon == NULL))
            return HUD_STATUS_INVALID_ARGUMENT;
        for (uint32_t m = 0; m < slot->mode_count; m++) {
            const hud_mode_t *mode = slot->modes[m];
            if (mode == NULL || mode->struct_size < HUD_MODE_SIZE_1_0 || mode->icon == NULL ||
                mode->label == NULL)
                return HUD_STATUS_INVALID_ARGUMENT;
        }
    }
    return HUD_STATUS_OK;
}

static hud_status_t ring_layout(const hud_renderer_descriptor_t *self,
                                const hud_complications_t *complications,
                                const hud_environment_t *environment,
                                const hud_interaction_t *interaction,
                                hud_layout_t *layout) {
    if (self == NULL) return HUD_STATUS_INVALID_ARGUMENT;
    hud_status_t status = ring_check(complications, environment, interaction, layout);
    if (status != HUD_STATUS_OK) return status;

    ring_frame_t f;
    ring_frame_make(&f, complications, environment, interaction);
    layout->count = 0;

    for (hud_position_t p = 0; p < HUD_POSITION_COUNT; p++) {
        const hud_slot_t *slot = complications->slots[p];
        if (slot == NULL) continue;
        if (p == HUD_POSITION_CENTER) {
            ring_emit_slot(layout, &f, p, slot, f.cx, f.cy, RING_CENTER_SIZE, 0);
        } else {
            ring_dir_t d = ring_direction(ring_step[p]);
            int leading = p == HUD_POSITION_TOP_LEFT || p == HUD_POSITION_BOTTOM_LEFT;
            ring_emit_slot(layout, &f, p, slot, f.cx + f.radius * d.x, f.cy - f.radius * d.y,
                           RING_CORNER_SIZE, leading);
        }
    }

    hud_position_t revealed = interaction->revealed_position;
    if (revealed >= 0 && revealed < HUD_POSITION_COUNT && complications->slots[revealed] != NULL &&
        complications->slots[revealed]->mode_count > 0) {
        ring_emit_fan(layout, &f, revealed, complications->slots[revealed]);
    }

    layout->content_insets = (hud_insets_t){0, 0, 0, 0}; /* floats; content keeps its size */
    layout->hidden_positions = 0;                        /* every position is shown */
    return hud_layout_finish(layout);
}

/* ------------------------------------------------------------------------ */
/* The descriptor and the entry                                              */
/* ------------------------------------------------------------------------ */

static const void *ring_get_extension(const hud_renderer_descriptor_t *self,
                                      const char *extension_id) {
    (void)self;
    (void)extension_id;
    return NULL; /* no extensions */
}

/* The descriptor and its .hud_renderers metadata record (which lets
 * `hudhost list` show this plugin without running any of its code), from
 * one declaration: the host refuses a renderer whose record and descriptor
 * disagree, and here they cannot. layout() reads only its arguments and
 * keeps nothing, so it is safe to call from several threads at once. The
 * last argument is the icon a style picker shows for it (ABI 1.2). */
HUD_DECLARE_RENDERER_WITH_ICON(ring_renderer,
                     "org.hudson.example.ring",
                     "Ring",
                     "1.0.0",
                     "Hudson examples",
                     "The center slot at the bottom middle with the four corner slots on an "
                     "arc around it; long-press modes fan out on a wider arc.",
                     HUD_POSITION_ALL_BITS,
                     HUD_CAPABILITY_THREAD_SAFE,
                     ring_layout,
                     ring_get_extension,
                     "circle.circle");

/* The entry: init()/deinit() reference counted, renderer_count() 0 until
 * init(), renderer_at() NULL past the end, and the exported
 * hud_renderer_get_entry(). */
static const hud_renderer_descriptor_t *const ring_renderers[] = {&ring_renderer};
HUD_DEFINE_ENTRY(ring_renderers);
