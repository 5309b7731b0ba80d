/* SPDX-License-Identifier: MIT */
#include "hud_hot.h"

#include <stddef.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif


_Thread_local hud_hot_layout_guard_t hud_hot_guard_state;

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the fast test reads a double's high word at offset 4 (little-endian)"
#endif

/* Four 32-bit lanes (clang and GCC vector extensions: SSE2 on x86-64,
 * NEON on arm64). */
typedef int32_t hud_hot_i32x4 __attribute__((vector_size(16)));
typedef uint32_t hud_hot_u32x4 __attribute__((vector_size(16)));

static inline hud_hot_i32x4 hud_hot_load(const unsigned char *node, size_t offset) {
    hud_hot_i32x4 v;
    memcpy(&v, node + offset, sizeof v);
    return v;
}

static inline uint32_t hud_hot_load32(const unsigned char *node, size_t offset) {
    uint32_t v;
    memcpy(&v, node + offset, sizeof v);
    return v;
}

static inline uintptr_t hud_hot_pointer(const unsigned char *node, size_t offset) {
    uintptr_t v;
    memcpy(&v, node + offset, sizeof v);
    return v;
}

/* True when some lane's sign bit is set. */
static inline int hud_hot_any_negative(hud_hot_i32x4 v) {
#if defined(__SSE2__)
    return _mm_movemask_ps(_mm_castsi128_ps((__m128i)v)) != 0;
#else
    return __builtin_reduce_or(v) < 0;
#endif
}

/* 1e7's high word (its low word is 0): a double is finite, >= +0 and
 * < 1e7 exactly when its high word, as a signed integer, is in
 * 0 ..< HUD_HOT_BOUND (and, read unsigned, when it is below it). */
#define HUD_HOT_BOUND 0x416312D0

/* A string at `address` (0 for NULL) the host made and the field's limit
 * allows, read no further than its first byte; or NULL. */
static inline int hud_hot_string_ok(uintptr_t address, uintptr_t arena_start, uintptr_t arena_count,
                                    uintptr_t title_start, uintptr_t title_count) {
    if (address - arena_start >= arena_count) {
        if (address == 0) return 1;
        if (address - title_start >= title_count) return 0;
    }
    /* Not a UTF-8 continuation byte (0x80...0xBF): a character boundary. */
    return (*(const unsigned char *)address & 0xC0u) != 0x80u;
}

/* ABI 1.1's accessibility_actions rule: 0, or a slot's bits below its
 * position's mode count (LayoutValidator.accessibilityActions). */
static inline int hud_hot_actions_ok(const unsigned char *node, uint64_t mode_counts) {
    uint64_t actions;
    memcpy(&actions, node + offsetof(hud_node_t, accessibility_actions), sizeof actions);
    if (actions == 0) return 1;
    if ((int32_t)hud_hot_load32(node, offsetof(hud_node_t, kind)) != HUD_NODE_KIND_SLOT) return 0;
    uint32_t position = hud_hot_load32(node, offsetof(hud_node_t, position));
    uint64_t modes = position < (uint32_t)HUD_POSITION_COUNT ? (mode_counts >> (position * 8u)) & 0xFFu : 0;
    uint64_t all = modes >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << modes) - 1;
    return (actions & ~all) == 0;
}

/* The node loop, inlined into both entry points (one call per layout). */
static inline __attribute__((always_inline)) size_t hud_hot_scan(const void *nodes, size_t first, size_t count,
                                                                 size_t stride, int minor1, uint64_t mode_counts,
                                                                 const hud_hot_trust_t *trust, int *only_strings) {
    /* kind, position, part, mode_index: value - low <= high - low as
     * unsigned numbers, i.e. value + (INT32_MIN - low) <= (high - low) +
     * INT32_MIN as signed ones. */
    const hud_hot_i32x4 leading_shift = {
        (int32_t)(0x80000000u - (uint32_t)HUD_NODE_KIND_CONTAINER), (int32_t)(0x80000000u - (uint32_t)HUD_POSITION_NONE),
        (int32_t)(0x80000000u - (uint32_t)HUD_PART_NONE), (int32_t)(0x80000000u - (uint32_t)-1)};
    const hud_hot_i32x4 leading_high = {
        (int32_t)(0x80000000u + (uint32_t)(HUD_NODE_KIND_MODE_ITEM - HUD_NODE_KIND_CONTAINER)),
        (int32_t)(0x80000000u + (uint32_t)(HUD_POSITION_CENTER - HUD_POSITION_NONE)),
        (int32_t)(0x80000000u + (uint32_t)(HUD_PART_CONTAINER - HUD_PART_NONE)),
        (int32_t)(0x80000000u + (uint32_t)HUD_MAX_MODES)};
    /* shape, material, placement (each 0 ... high, unsigned; placement
     * twice). */
    const hud_hot_i32x4 looks_high = {HUD_SHAPE_CAPSULE, HUD_MATERIAL_REGULAR, HUD_PLACEMENT_BOTTOM_INSET,
                                      HUD_PLACEMENT_BOTTOM_INSET};
    const hud_hot_i32x4 last = {HUD_HOT_BOUND - 1, HUD_HOT_BOUND - 1, HUD_HOT_BOUND - 1, HUD_HOT_BOUND - 1};
    const hud_hot_i32x4 magnitude = {INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX};
    const uintptr_t arena = trust->arena_start, title = trust->title_start;
    const uintptr_t arena_icon = trust->arena_icon_count, arena_label = trust->arena_label_count;
    const uintptr_t title_icon = trust->title_icon_count, title_label = trust->title_label_count;
    const unsigned char *node = (const unsigned char *)nodes + first * stride;
    for (size_t index = first; index < count; index++, node += stride) {
        hud_hot_i32x4 leading = hud_hot_load(node, offsetof(hud_node_t, kind));
        hud_hot_i32x4 frame_xy = hud_hot_load(node, offsetof(hud_node_t, frame.x));
        hud_hot_i32x4 frame_wh = hud_hot_load(node, offsetof(hud_node_t, frame.width));
        hud_hot_i32x4 hit_xy = hud_hot_load(node, offsetof(hud_node_t, hit.x));
        hud_hot_i32x4 hit_wh = hud_hot_load(node, offsetof(hud_node_t, hit.width));
        /* shape, material, corner_radius; stroke_width, font_size;
         * placement, z, flags, reserved. */
        hud_hot_i32x4 shape_corner = hud_hot_load(node, offsetof(hud_node_t, shape));
        hud_hot_i32x4 stroke_font = hud_hot_load(node, offsetof(hud_node_t, stroke_width));
        hud_hot_i32x4 placement = hud_hot_load(node, offsetof(hud_node_t, placement));
        /* The doubles' high words (lanes 1 and 3 of a pair): coordinates
         * with the sign cleared, |v| < 1e7; lengths 0 <= v < 1e7 (a set
         * sign bit makes the word, read unsigned, too large). */
        hud_hot_i32x4 coordinates = __builtin_shufflevector(frame_xy, hit_xy, 1, 3, 5, 7) & magnitude;
        hud_hot_i32x4 sizes = __builtin_shufflevector(frame_wh, hit_wh, 1, 3, 5, 7);
        hud_hot_i32x4 styles = __builtin_shufflevector(shape_corner, stroke_font, 3, 3, 5, 7);
        hud_hot_i32x4 looks = __builtin_shufflevector(shape_corner, placement, 0, 1, 4, 4);
        hud_hot_i32x4 bad = (coordinates > last) | ((hud_hot_u32x4)sizes > (hud_hot_u32x4)last) |
                            ((hud_hot_u32x4)styles > (hud_hot_u32x4)last) |
                            ((hud_hot_i32x4)((hud_hot_u32x4)leading + (hud_hot_u32x4)leading_shift) > leading_high) |
                            ((hud_hot_u32x4)looks > (hud_hot_u32x4)looks_high);
        if (hud_hot_any_negative(bad)) {
            *only_strings = 0;
            return index;
        }
        if (minor1 && (hud_hot_load32(node, offsetof(hud_node_t, glyph_size) + 4) >= (uint32_t)HUD_HOT_BOUND ||
                       !hud_hot_actions_ok(node, mode_counts))) {
            *only_strings = 0;
            return index;
        }
        if (!hud_hot_string_ok(hud_hot_pointer(node, offsetof(hud_node_t, icon)), arena, arena_icon, title, title_icon) ||
            !hud_hot_string_ok(hud_hot_pointer(node, offsetof(hud_node_t, label)), arena, arena_label, title, title_label) ||
            !hud_hot_string_ok(hud_hot_pointer(node, offsetof(hud_node_t, accessibility_label)), arena, arena_label, title,
                               title_label)) {
            *only_strings = 1;
            return index;
        }
    }
    return count;
}

size_t hud_hot_first_unchecked_node(const void *nodes, size_t first, size_t count, size_t stride, int minor1,
                                    uint64_t mode_counts, const hud_hot_trust_t *trust, int *only_strings) {
    return hud_hot_scan(nodes, first, count, stride, minor1, mode_counts, trust, only_strings);
}

ptrdiff_t hud_hot_first_unchecked(const hud_layout_t *layout, const void *nodes, size_t stride, int minor1,
                                  uint64_t mode_counts, const hud_hot_trust_t *trust, int *only_strings) {
    const unsigned char *header = (const unsigned char *)layout;
    /* top, left, bottom, right: their high words, unsigned, below 1e7's. */
    hud_hot_i32x4 first = hud_hot_load(header, offsetof(hud_layout_t, content_insets.top));
    hud_hot_i32x4 second = hud_hot_load(header, offsetof(hud_layout_t, content_insets.bottom));
    const hud_hot_u32x4 last = {HUD_HOT_BOUND - 1, HUD_HOT_BOUND - 1, HUD_HOT_BOUND - 1, HUD_HOT_BOUND - 1};
    hud_hot_i32x4 bad = (hud_hot_u32x4)__builtin_shufflevector(first, second, 1, 3, 5, 7) > last;
    *only_strings = 0;
    if (hud_hot_any_negative(bad) || (layout->hidden_positions & ~(uint32_t)HUD_POSITION_ALL_BITS) != 0) return -1;
    return (ptrdiff_t)hud_hot_scan(nodes, 0, layout->count, stride, minor1, mode_counts, trust, only_strings);
}
