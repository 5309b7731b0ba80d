/* SPDX-License-Identifier: MIT */
/*
 * The hot paths' C helpers (HudUnsafe only): what Swift cannot say as
 * cheaply: the layout call's (below) and the registry cache reader's (the
 * end of this file). Every symbol carries the hud_hot_ prefix.
 */
#ifndef HUD_HOT_H
#define HUD_HOT_H

#include <stddef.h>
#include <stdint.h>

#include "hud_renderer.h"

/*
 * The action-during-layout guard's per-thread counters: how many layout
 * calls are on this thread's stack, and how many actions were attempted
 * under them. A C11 _Thread_local (zero in every new thread, nothing to
 * free at thread exit), so arming and disarming the guard is a
 * thread-pointer-relative access instead of pthread_getspecific behind a
 * lazily made key.
 */
typedef struct hud_hot_layout_guard {
    intptr_t depth;
    intptr_t violations;
} hud_hot_layout_guard_t;

/* Defined in hot.c. Initial-exec: the address is one offset from the
 * thread pointer, no __tls_get_addr call (the target is linked into
 * executables, or a library loaded with them; 16 bytes of static TLS). */
extern _Thread_local hud_hot_layout_guard_t hud_hot_guard_state __attribute__((tls_model("initial-exec")));

/* This thread's counters. */
static inline hud_hot_layout_guard_t *hud_hot_layout_guard(void) { return &hud_hot_guard_state; }

/*
 * The host-made string ranges one layout may trust (HudUnsafe's
 * HostStrings): a node string at p is accepted without reading it again
 * when p - start < count for the arena or the title (as unsigned words) and
 * *p is not a UTF-8 continuation byte. A count is 0 when that range's
 * longest string exceeds the field's limit; icon_* for the icon's limit,
 * label_* for the label's and the accessibility label's.
 */
typedef struct hud_hot_trust {
    uintptr_t arena_start;
    uintptr_t arena_icon_count;
    uintptr_t arena_label_count;
    uintptr_t title_start;
    uintptr_t title_icon_count;
    uintptr_t title_label_count;
} hud_hot_trust_t;

/*
 * The validator's fast test over nodes first ..< count (each `stride`
 * bytes from `nodes`): the index of the first node it cannot pass, or
 * `count` when it passes them all. A node passes when
 *   - kind, position, part, mode_index, shape, material and placement are
 *     in their ranges (the same bounds as LayoutValidator's ordered checks);
 *   - frame.x, frame.y, hit.x, hit.y are finite with |v| < 1e7, and
 *     frame/hit width and height, corner_radius, stroke_width, font_size
 *     (and with `minor1` glyph_size) are finite with 0 <= v < 1e7 and not
 *     -0.0, each judged by its high 32-bit word (1e7 = 0x416312D0_00000000);
 *   - with `minor1`, accessibility_actions is 0, or the node is a slot and
 *     every bit is below its position's mode count (`mode_counts`: one
 *     byte per position, HudUnsafe's ModeCounts; the exact rule);
 *   - icon, label and accessibility_label are each NULL or vouched for by
 *     `trust`.
 * Never more lenient than the ordered checks, a little stricter (-0.0 as a
 * length, exactly +-1e7, strings the host did not make): the caller runs its full, naming checks on the node this
 * returns, then calls again from the next one, so violations are still
 * found and named in node order. When it stops at a node, `*only_strings`
 * says whether everything but the strings passed (1) or not (0), so the
 * caller need not judge the scalars again.
 */
size_t hud_hot_first_unchecked_node(const void *nodes, size_t first, size_t count, size_t stride, int minor1,
                                    uint64_t mode_counts, const hud_hot_trust_t *trust, int *only_strings);

/*
 * The fast test of a whole layout: its header (every content inset finite
 * with 0 <= v < 1e7 and not -0.0, judged by the high word as above; no
 * hidden_positions bit outside HUD_POSITION_ALL_BITS), then
 * hud_hot_first_unchecked_node over its `count` nodes. Returns -1 when the
 * header fails the test (the caller runs its ordered header checks, then
 * scans the nodes from 0), else the first node it cannot pass, or `count`
 * (`*only_strings` as above; 0 for the header).
 */
ptrdiff_t hud_hot_first_unchecked(const hud_layout_t *layout, const void *nodes, size_t stride, int minor1,
                                  uint64_t mode_counts, const hud_hot_trust_t *trust, int *only_strings);

/*
 * Byte scanning for the registry cache reader (HudUnsafe's ByteScan; the
 * warm `hudhost list` reads the whole cache every run), over the bytes
 * [from, count) of `bytes`; `from` <= `count`.
 *
 * hud_hot_plain_run: the index of the first byte that is a quote, a
 * backslash or below 0x20 (`count` when none is): the run of a JSON
 * string that needs no decoding. Sixteen bytes a step (SSE2).
 */
size_t hud_hot_plain_run(const uint8_t *bytes, size_t count, size_t from);

/*
 * hud_hot_decimal: the ASCII decimal digits from `from`: their value in
 * *value and the index after the last in *end (`from` when there is no
 * digit). Returns 0, or 1 when the value does not fit 64 bits (then
 * neither output is written).
 */
int hud_hot_decimal(const uint8_t *bytes, size_t count, size_t from, uint64_t *value, size_t *end);

/*
 * hud_hot_occurrences: how many times the `token_count` bytes of `token`
 * (at least one) occur in the `count` bytes of `bytes`, without
 * overlapping, from one end to the other.
 */
size_t hud_hot_occurrences(const uint8_t *bytes, size_t count, const uint8_t *token, size_t token_count);

#endif
